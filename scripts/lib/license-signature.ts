// The pure part of `npm run license:verify` (docs/desktop-api.md): parse a saved API answer (`curl -si`), a
// license file ({"format":"license/1",…}) and the published keys ({"keys":[…]} from /api/v1/keys),
// and verify their Ed25519 signatures with Node's crypto alone. No I/O here: the command reads the
// files and fetches the keys; the unit tests feed these functions keys they generate.
import {
  entitlementsIn,
  fallbackIn,
  updateFactsIn,
  type Entitlements,
  type FallbackFacts,
  type UpdateFacts,
} from "./answer-fields";
import { verify } from "node:crypto";
import { looksLikeHttpResponse, parseHttpResponse } from "./http-response";
import {
  decodeBase64,
  decodeLicensePayload,
  LicenseVerifyError,
  parseJson,
  parseLicenseFile,
  parseSignatureHeader,
} from "./verify-inputs";
import type { PublishedKey } from "./published-keys";

export interface SignatureCheck {
  kid: string;
  /** The key with that kid was among the published keys. */
  keyFound: boolean;
  valid: boolean;
  problem?: string;
}

/** Ed25519 over data with the published key named by kid; never throws. */
export function checkSignature(
  data: Buffer,
  kid: string,
  algorithm: string,
  signature: Buffer,
  keys: PublishedKey[],
): SignatureCheck {
  const key = keys.find((candidate) => candidate.kid === kid);
  if (!key) return { kid, keyFound: false, valid: false, problem: `no published key has kid ${kid}` };
  if (algorithm.toLowerCase() !== "ed25519")
    return { kid, keyFound: true, valid: false, problem: `algorithm ${algorithm}, not ed25519` };
  if (signature.length !== 64)
    return { kid, keyFound: true, valid: false, problem: `the signature has ${signature.length} bytes, not 64` };
  let valid = false;
  try {
    valid = verify(null, data, key.publicKey, signature);
  } catch {
    valid = false;
  }
  return valid
    ? { kid, keyFound: true, valid }
    : { kid, keyFound: true, valid, problem: "the signature does not match" };
}

export interface LicenseFileReport {
  kind: "license-file";
  signature: SignatureCheck;
  /** The decoded payload, or null when it cannot be decoded. */
  payload: Record<string, unknown> | null;
  issuedAt: string | null;
  refreshBy: string | null;
  endDate: string | null;
  entitlements: Entitlements | null;
  fallback: FallbackFacts | null;
  warnings: string[];
}

export interface AnswerReport {
  kind: "answer";
  status: number;
  signature: SignatureCheck;
  body: unknown;
  issuedAt: string | null;
  nonce: string | null;
  code: string | null;
  /** A license file inside the answer (the file endpoint's body, activate's license_file). */
  licenseFile: LicenseFileReport | null;
  /** A validation answer's license.entitlements; an update check's rollout, critical and minimum version. */
  entitlements: Entitlements | null;
  /** A validation answer's license.fallback_version and updates_until (decision 0070). */
  fallback: FallbackFacts | null;
  update: UpdateFacts | null;
  warnings: string[];
}

export type Report = LicenseFileReport | AnswerReport;

/** Everything verified: every signature (the answer's and a license file's inside it) is valid. */
export function isValid(report: Report): boolean {
  if (!report.signature.valid) return false;
  return report.kind === "license-file" || report.licenseFile === null || report.licenseFile.signature.valid;
}

function timeWarnings(issuedAt: unknown, now: Date, warnings: string[], what: string): string | null {
  if (issuedAt === undefined || issuedAt === null) {
    warnings.push(`${what} has no issued_at`);
    return null;
  }
  const time = typeof issuedAt === "string" ? Date.parse(issuedAt) : NaN;
  if (Number.isNaN(time)) {
    warnings.push(`${what}'s issued_at is not a time: ${JSON.stringify(issuedAt)}`);
    return typeof issuedAt === "string" ? issuedAt : null;
  }
  if (time > now.getTime())
    warnings.push(
      `${what}'s issued_at ${issuedAt} is in the future (${formatSpan(time - now.getTime())} after this machine's clock, ` +
        `${now.toISOString()}): a tool must refuse it; check this clock or the file`,
    );
  return issuedAt as string;
}

function formatSpan(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

const asString = (value: unknown) => (typeof value === "string" ? value : null);

/** Verifies a license file: the signature over the payload string's ASCII bytes, then its dates. */
export function verifyLicenseFile(value: unknown, keys: PublishedKey[], now = new Date()): LicenseFileReport {
  const file = parseLicenseFile(value);
  const warnings: string[] = [];
  let signature: SignatureCheck;
  try {
    signature = checkSignature(
      Buffer.from(file.payload, "ascii"),
      file.kid,
      "ed25519",
      decodeBase64(file.signature, "the license file's signature"),
      keys,
    );
  } catch (error) {
    signature = { kid: file.kid, keyFound: keys.some((k) => k.kid === file.kid), valid: false, problem: String(error) };
  }
  let payload: Record<string, unknown> | null = null;
  try {
    payload = decodeLicensePayload(file.payload);
  } catch (error) {
    warnings.push(error instanceof Error ? error.message : String(error));
  }
  const issuedAt = payload ? timeWarnings(payload.issued_at, now, warnings, "the license file") : null;
  const refreshBy = asString(payload?.refresh_by);
  const endDate = asString(payload?.end_date);
  if (refreshBy && Date.parse(refreshBy) <= now.getTime())
    warnings.push(`refresh_by ${refreshBy} has passed: a tool fetches a fresh file before using this one`);
  if (endDate && Date.parse(endDate) <= now.getTime()) warnings.push(`end_date ${endDate} has passed`);
  if (refreshBy && endDate && Date.parse(refreshBy) > Date.parse(endDate))
    warnings.push(`refresh_by ${refreshBy} is after end_date ${endDate}`);
  const entitlements = entitlementsIn(payload);
  const fallback = fallbackIn(payload);
  return { kind: "license-file", signature, payload, issuedAt, refreshBy, endDate, entitlements, fallback, warnings };
}

/** Verifies a saved answer: the Signature header over the exact body bytes, then what the body says. */
export function verifyAnswer(raw: Buffer, keys: PublishedKey[], now = new Date()): AnswerReport {
  const response = parseHttpResponse(raw);
  const warnings = [...response.notes];
  const headers = response.headers.get("signature") ?? [];
  if (headers.length === 0) throw new LicenseVerifyError("the saved answer has no Signature header");
  if (headers.length > 1) throw new LicenseVerifyError("the saved answer has more than one Signature header");
  const params = parseSignatureHeader(headers[0]!);
  const signature = checkSignature(response.body, params.keyid, params.algorithm, params.signature, keys);
  let body: unknown = null;
  try {
    body = JSON.parse(response.body.toString("utf8"));
  } catch {
    warnings.push("the body is not JSON");
  }
  const fields = (body !== null && typeof body === "object" ? body : {}) as Record<string, unknown>;
  let licenseFile: LicenseFileReport | null = null;
  const embedded = fields.format === "license/1" ? fields : fields.license_file;
  if (embedded !== undefined && embedded !== null) {
    try {
      licenseFile = verifyLicenseFile(embedded, keys, now);
    } catch (error) {
      warnings.push(`the license file in the answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // A license file's own issued_at is in its payload; other answers carry it at the top.
  const issuedAt =
    fields.format === "license/1" && !("issued_at" in fields)
      ? (licenseFile?.issuedAt ?? null)
      : timeWarnings(fields.issued_at, now, warnings, "the answer");
  return {
    kind: "answer",
    status: response.status,
    signature,
    body,
    issuedAt,
    nonce: asString(fields.nonce),
    code: asString(fields.code),
    licenseFile,
    entitlements: entitlementsIn(fields.license),
    fallback: fallbackIn(fields.license),
    update: updateFactsIn(fields),
    warnings,
  };
}

/** A saved answer (starts with an HTTP status line) or a license file (JSON with "format"). */
export function verifyInput(input: Buffer, keys: PublishedKey[], now = new Date()): Report {
  if (looksLikeHttpResponse(input)) return verifyAnswer(input, keys, now);
  const value = parseJson(input.toString("utf8").replace(/^\uFEFF/, ""), "the input") as Record<string, unknown>;
  if (value && typeof value === "object" && "format" in value) return verifyLicenseFile(value, keys, now);
  if (value && typeof value === "object" && "keys" in value)
    throw new LicenseVerifyError("this is the keys document, not a license file or a saved answer");
  throw new LicenseVerifyError(
    "a body alone cannot be checked (the signature is in the Signature header): save the answer with `curl -si … > answer.txt`",
  );
}
