import { createHash, createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSigningKeys, keyId, signatureHeader } from "~/server/license-api/signing.server";

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

/** The kid as the contract defines it, from the PEM's own bytes (its base64 body is the SPKI DER). */
const expectedKid = (publicPem: string) => {
  const der = Buffer.from(publicPem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""), "base64");
  return createHash("sha256").update(der).digest("base64url").slice(0, 16);
};

const HEADER = /^keyid="([A-Za-z0-9_-]{16})", algorithm="ed25519", signature="([A-Za-z0-9+/]+={0,2})"$/;

describe("license API signing", () => {
  it("derives the kid from the SHA-256 of the public key's SPKI DER, 16 base64url characters", () => {
    const key = pair();
    const keys = createSigningKeys(key.privatePem);
    expect(keys.kid).toBe(expectedKid(key.publicPem));
    expect(keys.kid).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(keyId(createPublicKey(key.publicPem))).toBe(keys.kid);
    expect(createSigningKeys(pair().privatePem).kid).not.toBe(keys.kid);
  });

  it("signs bytes with Ed25519: the signing key's public key verifies them, another key or other bytes do not", () => {
    const key = pair();
    const keys = createSigningKeys(key.privatePem);
    const body = Buffer.from('{"valid":true,"nonce":"n0nce-123"}');
    const signature = keys.sign(body);
    expect(signature).toHaveLength(64);
    expect(verify(null, body, key.publicPem, signature)).toBe(true);
    expect(verify(null, Buffer.from('{"valid":false,"nonce":"n0nce-123"}'), key.publicPem, signature)).toBe(false);
    expect(verify(null, body, pair().publicPem, signature)).toBe(false);
    // A string is signed as its UTF-8 bytes.
    expect(verify(null, Buffer.from("héllo", "utf8"), key.publicPem, keys.sign("héllo"))).toBe(true);
  });

  it("writes the Signature header exactly: keyid, algorithm and the base64 signature of the body", () => {
    const key = pair();
    const keys = createSigningKeys(key.privatePem);
    const body = '{"keys":[]}';
    const header = signatureHeader(keys, body);
    const match = HEADER.exec(header);
    expect(match).not.toBeNull();
    expect(match![1]).toBe(keys.kid);
    expect(verify(null, Buffer.from(body), key.publicPem, Buffer.from(match![2]!, "base64"))).toBe(true);
  });

  it("publishes the signing key first, then the extra keys, once per kid", () => {
    const signing = pair();
    const next = pair();
    const old = pair();
    const keys = createSigningKeys(
      signing.privatePem,
      `${next.publicPem}${old.publicPem}\n${next.publicPem}${signing.publicPem}`,
    );
    expect(keys.published.map((k) => k.kid)).toEqual([
      expectedKid(signing.publicPem),
      expectedKid(next.publicPem),
      expectedKid(old.publicPem),
    ]);
    for (const entry of keys.published) {
      expect(entry.algorithm).toBe("ed25519");
      expect(entry.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
      expect(keyId(createPublicKey(entry.public_key_pem))).toBe(entry.kid);
    }
    expect(createSigningKeys(signing.privatePem).published).toHaveLength(1);
  });

  it("refuses keys that are not Ed25519", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(() => createSigningKeys(rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString())).toThrow(
      /Ed25519/,
    );
    expect(() =>
      createSigningKeys(pair().privatePem, rsa.publicKey.export({ type: "spki", format: "pem" }).toString()),
    ).toThrow(/Ed25519/);
  });
});
