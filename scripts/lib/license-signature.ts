// The pure part of `npm run license:verify` (issue 12): parse a saved API answer (`curl -si`), a
// license file ({"format":"license/1",…}) and the published keys ({"keys":[…]} from /api/v1/keys),
// and verify their Ed25519 signatures with Node's crypto alone. No I/O here: the command reads the
// files and fetches the keys; the unit tests feed these functions keys they generate.
import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";

export class LicenseVerifyError extends Error {
  override name = "LicenseVerifyError";
}

export interface PublishedKey {
  kid: string;
  algorithm: string;
  publicKey: KeyObject;
  /** The kid derived from the key itself (the first 16 characters of base64url(SHA-256(SPKI DER))). */
  derivedKid: string;
}

/** kid = the first 16 characters of base64url(SHA-256(SPKI DER of the public key)). */
export function kidOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  const der = key.export({ type: "spki", format: "der" });
  return createHash("sha256").update(der).digest("base64url").slice(0, 16);
}

function ed25519PublicKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new LicenseVerifyError(`${where}: not a public key in PEM`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new LicenseVerifyError(`${where}: a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/**
 * The published keys from the text of GET /api/v1/keys ({"keys":[{kid, algorithm, public_key_pem}]}),
 * a saved answer of it (headers then body), or one or more PEM public keys (their kid is derived).
 */
export function parsePublishedKeys(input: string | Buffer): PublishedKey[] {
  let text = Buffer.isBuffer(input) ? input.toString("utf8") : input;
  if (looksLikeHttpResponse(text)) text = parseHttpResponse(Buffer.from(text, "utf8")).body.toString("utf8");
  if (text.includes("-----BEGIN") && !text.trimStart().startsWith("{")) {
    const blocks = text.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
    return blocks.map((pem, i) => {
      const publicKey = ed25519PublicKey(pem, `PEM block ${i + 1}`);
      const kid = kidOf(publicKey);
      return { kid, algorithm: "ed25519", publicKey, derivedKid: kid };
    });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new LicenseVerifyError('the keys are neither JSON ({"keys":[…]}) nor PEM public keys');
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new LicenseVerifyError('the keys document has no "keys" list');
  return keys.map((entry: unknown, i) => {
    const { kid, algorithm, public_key_pem } = (entry ?? {}) as Record<string, unknown>;
    if (typeof kid !== "string" || typeof algorithm !== "string" || typeof public_key_pem !== "string")
      throw new LicenseVerifyError(`keys[${i}] needs the strings kid, algorithm and public_key_pem`);
    const publicKey = ed25519PublicKey(public_key_pem, `keys[${i}] (${kid})`);
    return { kid, algorithm, publicKey, derivedKid: kidOf(publicKey) };
  });
}

export interface SignatureParameters {
  keyid: string;
  algorithm: string;
  signature: Buffer;
}

/** `keyid="<kid>", algorithm="ed25519", signature="<base64>"` (parameters in any order, quotes optional). */
export function parseSignatureHeader(value: string): SignatureParameters {
  const params = new Map<string, string>();
  const pattern = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|([^",\s]+))/g;
  const leftover = value.replace(pattern, (_all, name: string, quoted?: string, bare?: string) => {
    params.set(name.toLowerCase(), quoted ?? bare ?? "");
    return "";
  });
  if (!/^[\s,]*$/.test(leftover)) throw new LicenseVerifyError(`malformed Signature header: ${value}`);
  const keyid = params.get("keyid");
  const algorithm = params.get("algorithm");
  const signature = params.get("signature");
  if (!keyid || !algorithm || !signature)
    throw new LicenseVerifyError(`the Signature header needs keyid, algorithm and signature: ${value}`);
  return { keyid, algorithm, signature: decodeBase64(signature, "the Signature header's signature") };
}

/** Standard base64 or base64url, padded or not; anything else is an error. */
export function decodeBase64(text: string, what: string): Buffer {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1)
    throw new LicenseVerifyError(`${what} is not base64`);
  return Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case; a repeated header keeps each value. */
  headers: Map<string, string[]>;
  /** The body's exact bytes. */
  body: Buffer;
  notes: string[];
}

export function looksLikeHttpResponse(text: string | Buffer): boolean {
  const head = (Buffer.isBuffer(text) ? text.subarray(0, 16).toString("latin1") : text.slice(0, 16)).trimStart();
  return /^HTTP\/\d(?:\.\d)? \d{3}/.test(head);
}

/**
 * The output of `curl -si` (or `curl -sD - `): status line and headers, a blank line, then the body
 * bytes as received. Interim answers (100 Continue, a proxy's 200 Connection established) are
 * skipped; a body longer than Content-Length (a newline an editor added) is cut to that length.
 */
export function parseHttpResponse(raw: Buffer): HttpResponse {
  let offset = 0;
  while (raw[offset] === 0x0d || raw[offset] === 0x0a) offset++;
  const notes: string[] = [];
  for (;;) {
    const end = headerEnd(raw, offset);
    if (!end) throw new LicenseVerifyError("the saved answer has no blank line between headers and body");
    const lines = raw.subarray(offset, end.headersEnd).toString("latin1").split(/\r?\n/);
    const statusLine = /^HTTP\/\d(?:\.\d)? (\d{3})(?: .*)?$/.exec(lines[0]!.trim());
    if (!statusLine) throw new LicenseVerifyError(`not an HTTP status line: ${lines[0]}`);
    const status = Number(statusLine[1]);
    const headers = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new LicenseVerifyError(`not a header line: ${line}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    const interim = (status >= 100 && status < 200) || (/connection established/i.test(lines[0]!) && status === 200);
    if (interim && looksLikeHttpResponse(raw.subarray(end.bodyStart))) {
      offset = end.bodyStart;
      continue;
    }
    let body = raw.subarray(end.bodyStart);
    const length = headers.get("content-length")?.[0];
    if (length !== undefined && /^\d+$/.test(length)) {
      const expected = Number(length);
      if (body.length > expected) {
        notes.push(`${body.length - expected} byte(s) after the Content-Length of ${expected} ignored`);
        body = body.subarray(0, expected);
      } else if (body.length < expected) {
        notes.push(`the body has ${body.length} bytes, fewer than its Content-Length of ${expected}`);
      }
    }
    const encoding = headers.get("content-encoding")?.[0];
    if (encoding && encoding !== "identity")
      throw new LicenseVerifyError(
        `the body was saved ${encoding}-compressed: save it again without --compressed (the signature covers the JSON)`,
      );
    return { status, headers, body, notes };
  }
}

function headerEnd(raw: Buffer, from: number): { headersEnd: number; bodyStart: number } | null {
  for (let i = from; i < raw.length; i++) {
    if (raw[i] !== 0x0a) continue;
    if (raw[i + 1] === 0x0a) return { headersEnd: i, bodyStart: i + 2 };
    if (raw[i + 1] === 0x0d && raw[i + 2] === 0x0a) return { headersEnd: i, bodyStart: i + 3 };
  }
  return null;
}

export interface LicenseFile {
  format: "license/1";
  kid: string;
  payload: string;
  signature: string;
}

/** A license file's fields, or an error naming what is missing. */
export function parseLicenseFile(value: unknown): LicenseFile {
  const file = (typeof value === "string" ? parseJson(value, "the license file") : value) as Record<string, unknown>;
  if (file === null || typeof file !== "object") throw new LicenseVerifyError("the license file is not a JSON object");
  if (file.format !== "license/1")
    throw new LicenseVerifyError(`unknown license file format ${JSON.stringify(file.format)} (expected "license/1")`);
  for (const field of ["kid", "payload", "signature"] as const)
    if (typeof file[field] !== "string" || file[field] === "")
      throw new LicenseVerifyError(`the license file has no ${field}`);
  return file as unknown as LicenseFile;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LicenseVerifyError(`${what} is not JSON`);
  }
}

/** The payload's JSON (base64url of the JSON text). */
export function decodeLicensePayload(payload: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]+$/.test(payload)) throw new LicenseVerifyError("the payload is not base64url");
  const decoded = parseJson(Buffer.from(payload, "base64url").toString("utf8"), "the decoded payload");
  if (decoded === null || typeof decoded !== "object" || Array.isArray(decoded))
    throw new LicenseVerifyError("the decoded payload is not a JSON object");
  return decoded as Record<string, unknown>;
}

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
  return { kind: "license-file", signature, payload, issuedAt, refreshBy, endDate, warnings };
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

/** The lines the command prints for a report. */
export function describeReport(report: Report): string[] {
  const lines: string[] = [];
  const sig = (check: SignatureCheck) =>
    check.valid ? `valid (Ed25519, kid ${check.kid})` : `INVALID (kid ${check.kid}: ${check.problem})`;
  if (report.kind === "answer") {
    lines.push(`saved answer: HTTP ${report.status}`);
    lines.push(`  signature: ${sig(report.signature)}`);
    if (report.code !== null) lines.push(`  code: ${report.code}`);
    if (report.nonce !== null) lines.push(`  nonce: ${report.nonce}`);
    lines.push(`  issued_at: ${report.issuedAt ?? "(none)"}`);
    lines.push(...`  body: ${JSON.stringify(report.body, null, 2)?.replace(/\n/g, "\n  ")}`.split("\n"));
    for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
    if (report.licenseFile) {
      lines.push("license file in the answer:");
      lines.push(...describeFile(report.licenseFile, sig).map((line) => `  ${line}`));
    }
  } else {
    lines.push("license file:");
    lines.push(...describeFile(report, sig));
  }
  lines.push(isValid(report) ? "result: VALID" : "result: INVALID");
  return lines;
}

function describeFile(report: LicenseFileReport, sig: (check: SignatureCheck) => string): string[] {
  const lines = [`  signature: ${sig(report.signature)}`];
  lines.push(`  issued_at: ${report.issuedAt ?? "(none)"}`);
  lines.push(`  refresh_by: ${report.refreshBy ?? "(none)"}`);
  if (report.payload)
    lines.push(...`  payload: ${JSON.stringify(report.payload, null, 2).replace(/\n/g, "\n  ")}`.split("\n"));
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  return lines;
}
