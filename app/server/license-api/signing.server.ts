import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { getEnv, pemBlocks } from "../env.server";

/**
 * Ed25519 signing for the desktop API (decision 0018): every answer body and every license file
 * is signed with LICENSE_SIGNING_KEY; the tool verifies with a public key from /api/v1/keys,
 * chosen by the `kid` the signature names.
 */

export interface PublishedKey {
  kid: string;
  algorithm: "ed25519";
  public_key_pem: string;
}

export interface SigningKeys {
  /** The kid of the key that signs. */
  kid: string;
  /** The signing key's public key first, then LICENSE_PUBLISHED_KEYS, one entry per kid. */
  published: PublishedKey[];
  /** Ed25519 signature of the bytes. */
  sign: (bytes: Buffer | string) => Buffer;
}

/** The first 16 characters of base64url(SHA-256(SPKI DER of the public key)). */
export function keyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: "spki", format: "der" });
  return createHash("sha256").update(der).digest("base64url").slice(0, 16);
}

/** The signing key and the published set, from PEM text (parsed once, then reused). */
export function createSigningKeys(signingKeyPem: string, publishedKeysPem = ""): SigningKeys {
  const privateKey = createPrivateKey(signingKeyPem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The license signing key must be Ed25519");
  const own = createPublicKey(privateKey);
  const kid = keyId(own);
  const published: PublishedKey[] = [];
  const seen = new Set<string>();
  for (const key of [own, ...pemBlocks(publishedKeysPem).map((pem) => createPublicKey(pem))]) {
    if (key.asymmetricKeyType !== "ed25519") throw new Error("Published license keys must be Ed25519");
    const id = keyId(key);
    if (seen.has(id)) continue;
    seen.add(id);
    published.push({
      kid: id,
      algorithm: "ed25519",
      public_key_pem: key.export({ type: "spki", format: "pem" }).toString(),
    });
  }
  return {
    kid,
    published,
    sign: (bytes) => sign(null, typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes, privateKey),
  };
}

/** The Signature header's value for a body: keyid, algorithm and the base64 signature of its bytes. */
export function signatureHeader(keys: SigningKeys, body: Buffer | string): string {
  return `keyid="${keys.kid}", algorithm="ed25519", signature="${keys.sign(body).toString("base64")}"`;
}

let cached: { source: string; keys: SigningKeys } | undefined;

/** The process's signing keys, from LICENSE_SIGNING_KEY and LICENSE_PUBLISHED_KEYS (parsed once per configuration). */
export function signingKeys(): SigningKeys {
  const env = getEnv();
  const source = `${env.LICENSE_SIGNING_KEY}\0${env.LICENSE_PUBLISHED_KEYS ?? ""}`;
  if (cached?.source !== source) {
    cached = { source, keys: createSigningKeys(env.LICENSE_SIGNING_KEY, env.LICENSE_PUBLISHED_KEYS ?? "") };
  }
  return cached.keys;
}
