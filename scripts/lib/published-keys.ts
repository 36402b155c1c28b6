// The published keys `npm run license:verify` checks against ({"keys":[…]} from /api/v1/keys, saved
// or as PEM), each with its kid.
import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { looksLikeHttpResponse, parseHttpResponse } from "./http-response";
import { LicenseVerifyError } from "./verify-inputs";

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
