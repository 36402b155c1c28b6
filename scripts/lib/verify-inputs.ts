// What `npm run license:verify` reads, parsed: a Signature header, base64, a license file and its
// payload (license-signature.ts verifies them; published-keys.ts and http-response.ts read the rest).
export class LicenseVerifyError extends Error {
  override name = "LicenseVerifyError";
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

export function parseJson(text: string, what: string): unknown {
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
