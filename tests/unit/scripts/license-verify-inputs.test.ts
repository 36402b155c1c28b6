import { createHash, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseHttpResponse } from "../../../scripts/lib/http-response";
import { kidOf, parsePublishedKeys } from "../../../scripts/lib/published-keys";
import { LicenseVerifyError, decodeBase64, parseSignatureHeader } from "../../../scripts/lib/verify-inputs";
import { current, keysDocument, next, published, signedAnswer } from "../../support/signed-samples";

describe("kid", () => {
  it("is the first 16 characters of base64url(SHA-256(SPKI DER)), from a KeyObject or a PEM", () => {
    const der = current.publicKey.export({ type: "spki", format: "der" });
    const expected = createHash("sha256").update(der).digest("base64url").slice(0, 16);
    expect(current.kid).toBe(expected);
    expect(kidOf(current.pem)).toBe(expected);
    expect(expected).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(next.kid).not.toBe(current.kid);
  });
});

describe("published keys", () => {
  it("reads /api/v1/keys' JSON, several keys, each with the kid it publishes and the one derived", () => {
    expect(published.map((k) => k.kid)).toEqual([current.kid, next.kid]);
    expect(published.every((k) => k.kid === k.derivedKid && k.algorithm === "ed25519")).toBe(true);
  });

  it("reads a saved answer of /api/v1/keys and bare PEM public keys (kid derived)", () => {
    expect(parsePublishedKeys(signedAnswer(keysDocument(next))).map((k) => k.kid)).toEqual([next.kid]);
    expect(parsePublishedKeys(`${current.pem}\n${next.pem}`).map((k) => k.kid)).toEqual([current.kid, next.kid]);
  });

  it("keeps a published kid that is not the key's own, so the mismatch can be reported", () => {
    const [key] = parsePublishedKeys(
      JSON.stringify({ keys: [{ kid: "not-its-kid", algorithm: "ed25519", public_key_pem: current.pem }] }),
    );
    expect(key).toMatchObject({ kid: "not-its-kid", derivedKid: current.kid });
  });

  it("refuses documents without keys, entries missing a field, and keys that are not Ed25519", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .publicKey.export({ type: "spki", format: "pem" })
      .toString();
    expect(() => parsePublishedKeys("{}")).toThrow('no "keys" list');
    expect(() => parsePublishedKeys("nonsense")).toThrow(LicenseVerifyError);
    expect(() => parsePublishedKeys(JSON.stringify({ keys: [{ kid: "x", algorithm: "ed25519" }] }))).toThrow(
      "keys[0] needs",
    );
    expect(() =>
      parsePublishedKeys(JSON.stringify({ keys: [{ kid: "x", algorithm: "ed25519", public_key_pem: rsa }] })),
    ).toThrow("rsa key, not Ed25519");
  });
});

describe("Signature header", () => {
  const sig = Buffer.alloc(64, 7).toString("base64");

  it("reads keyid, algorithm and signature in any order, with or without spaces and quotes", () => {
    for (const header of [
      `keyid="abc", algorithm="ed25519", signature="${sig}"`,
      `signature="${sig}",keyid="abc",algorithm="ed25519"`,
      `keyid=abc, algorithm=ed25519, signature=${sig}`,
      `  KeyId = "abc" ,  Algorithm="ed25519", signature="${sig}"  `,
    ]) {
      const parsed = parseSignatureHeader(header);
      expect(parsed.keyid).toBe("abc");
      expect(parsed.algorithm).toBe("ed25519");
      expect(parsed.signature.equals(Buffer.alloc(64, 7))).toBe(true);
    }
  });

  it("refuses a header missing a parameter, with stray text, or with a signature that is not base64", () => {
    expect(() => parseSignatureHeader(`keyid="abc", signature="${sig}"`)).toThrow("needs keyid, algorithm");
    expect(() => parseSignatureHeader(`keyid="abc" algorithm="ed25519" signature="${sig}" junk`)).toThrow("malformed");
    expect(() => parseSignatureHeader(`keyid="abc", algorithm="ed25519", signature="***"`)).toThrow("not base64");
  });

  it("decodes base64 and base64url alike, padded or not", () => {
    const bytes = Buffer.from([251, 255, 190, 0, 1]);
    for (const text of [
      bytes.toString("base64"),
      bytes.toString("base64url"),
      bytes.toString("base64").replace(/=+$/, ""),
    ])
      expect(decodeBase64(text, "x").equals(bytes)).toBe(true);
  });
});

describe("saved answers (curl -si)", () => {
  it("splits status, headers and the exact body bytes, CRLF or LF", () => {
    const body = '{"a":"é\\n","b":[1, 2]}\n';
    for (const eol of ["\r\n", "\n"]) {
      const parsed = parseHttpResponse(
        signedAnswer(body, current, { eol, extraHeaders: ["X-Twice: 1", "x-twice: 2"] }),
      );
      expect(parsed.status).toBe(200);
      expect(parsed.body.toString("utf8")).toBe(body);
      expect(parsed.headers.get("x-twice")).toEqual(["1", "2"]);
      expect(parsed.headers.get("content-type")).toEqual(["application/json; charset=utf-8"]);
    }
  });

  it("skips an interim 100 Continue and reads HTTP/2 status lines", () => {
    const answer = signedAnswer('{"x":1}', current, { status: "HTTP/2 429" });
    const parsed = parseHttpResponse(Buffer.concat([Buffer.from("HTTP/1.1 100 Continue\r\n\r\n"), answer]));
    expect(parsed.status).toBe(429);
    expect(parsed.body.toString()).toBe('{"x":1}');
  });

  it("cuts a body longer than its Content-Length (a newline added by an editor) and says so", () => {
    const parsed = parseHttpResponse(Buffer.concat([signedAnswer('{"x":1}'), Buffer.from("\n")]));
    expect(parsed.body.toString()).toBe('{"x":1}');
    expect(parsed.notes).toEqual(["1 byte(s) after the Content-Length of 7 ignored"]);
  });

  it("refuses text without headers and compressed bodies", () => {
    expect(() => parseHttpResponse(Buffer.from("HTTP/1.1 200 OK\r\nSignature: x"))).toThrow("no blank line");
    expect(() => parseHttpResponse(signedAnswer("{}", current, { extraHeaders: ["Content-Encoding: gzip"] }))).toThrow(
      "compressed",
    );
  });
});
