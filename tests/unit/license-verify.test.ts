import { spawnSync } from "node:child_process";
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeReport } from "../../scripts/lib/describe-report";
import { parseHttpResponse } from "../../scripts/lib/http-response";
import {
  isValid,
  verifyAnswer,
  verifyInput,
  verifyLicenseFile,
  type AnswerReport,
} from "../../scripts/lib/license-signature";
import { kidOf, parsePublishedKeys } from "../../scripts/lib/published-keys";
import {
  LicenseVerifyError,
  decodeBase64,
  decodeLicensePayload,
  parseLicenseFile,
  parseSignatureHeader,
} from "../../scripts/lib/verify-inputs";

// Keys made here, signed here: the functions are checked against the contract of issue 12, not
// against the server's signing code.
function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { publicKey, privateKey, pem, kid: kidOf(publicKey) };
}
const current = keyPair();
const next = keyPair();
const stranger = keyPair();

const keysDocument = (...pairs: ReturnType<typeof keyPair>[]) =>
  JSON.stringify({ keys: pairs.map((p) => ({ kid: p.kid, algorithm: "ed25519", public_key_pem: p.pem })) });
const published = parsePublishedKeys(keysDocument(current, next));

const NOW = new Date("2026-11-23T12:00:00.000Z");

function signedAnswer(
  body: string,
  signer: { privateKey: KeyObject; kid: string } = current,
  { eol = "\r\n", status = "HTTP/1.1 200 OK", extraHeaders = [] as string[], kid = signer.kid } = {},
): Buffer {
  const signature = sign(null, Buffer.from(body, "utf8"), signer.privateKey).toString("base64");
  const headers = [
    status,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...extraHeaders,
    `Signature: keyid="${kid}", algorithm="ed25519", signature="${signature}"`,
  ];
  return Buffer.concat([Buffer.from(headers.join(eol) + eol + eol, "latin1"), Buffer.from(body, "utf8")]);
}

function licenseFile(payload: Record<string, unknown>, signer: { privateKey: KeyObject; kid: string } = current) {
  const encoded = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return {
    format: "license/1",
    kid: signer.kid,
    payload: encoded,
    signature: sign(null, Buffer.from(encoded, "ascii"), signer.privateKey).toString("base64"),
  };
}

const PAYLOAD = {
  license_id: "9b2f6a51-0a57-4d0e-9d7e-2f0f6f1b9d11",
  email: "dana@example.com",
  license_type: "yearly",
  windows_username: "CORP\\dana",
  computer_name: "DESKTOP-42",
  start_date: "2026-11-01T00:00:00.000Z",
  end_date: "2027-11-01T00:00:00.000Z",
  is_trial: false,
  issued_at: "2026-11-23T11:59:00.000Z",
  refresh_by: "2026-12-23T11:59:00.000Z",
};

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

describe("verifying an answer", () => {
  const body = JSON.stringify({
    valid: true,
    code: "VALID",
    detail: "The license is valid.",
    license: { id: PAYLOAD.license_id, license_type: "yearly" },
    nonce: "n-0123456789abcdef",
    issued_at: "2026-11-23T11:59:59.000Z",
  });

  it("accepts the exact body signed by a published key and reports code, nonce and issued_at", () => {
    const report = verifyAnswer(signedAnswer(body), published, NOW);
    expect(report.signature).toEqual({ kid: current.kid, keyFound: true, valid: true });
    expect(report).toMatchObject({ status: 200, code: "VALID", nonce: "n-0123456789abcdef", warnings: [] });
    expect(report.issuedAt).toBe("2026-11-23T11:59:59.000Z");
    expect(isValid(report)).toBe(true);
  });

  it("accepts an answer signed by the second published key (rotation), chosen by its kid", () => {
    const report = verifyAnswer(signedAnswer(body, next), published, NOW);
    expect(report.signature).toMatchObject({ kid: next.kid, valid: true });
  });

  it("rejects a changed byte, even one JSON ignores", () => {
    const raw = signedAnswer(body);
    const spaced = Buffer.from(raw.toString("latin1").replace('"valid":true', '"valid": true'), "latin1");
    // Same Content-Length would cut the body: drop the header so the whole changed body counts.
    const withoutLength = Buffer.from(spaced.toString("latin1").replace(/Content-Length: \d+\r\n/, ""), "latin1");
    expect(verifyAnswer(withoutLength, published, NOW).signature).toMatchObject({
      valid: false,
      problem: "the signature does not match",
    });
    const flipped = Buffer.from(raw.toString("latin1").replace('"code":"VALID"', '"code":"VALIX"'), "latin1");
    expect(isValid(verifyAnswer(flipped, published, NOW))).toBe(false);
  });

  it("rejects a signature by a key that is not published, and a kid that names another key", () => {
    const unknown = verifyAnswer(signedAnswer(body, stranger), published, NOW);
    expect(unknown.signature).toEqual({
      kid: stranger.kid,
      keyFound: false,
      valid: false,
      problem: `no published key has kid ${stranger.kid}`,
    });
    const lying = verifyAnswer(signedAnswer(body, stranger, { kid: current.kid }), published, NOW);
    expect(lying.signature).toMatchObject({ keyFound: true, valid: false });
  });

  it("refuses an answer without a Signature header", () => {
    const raw = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${body}`);
    expect(() => verifyAnswer(raw, published, NOW)).toThrow("no Signature header");
  });

  it("warns when issued_at is after this machine's clock", () => {
    const future = body.replace("2026-11-23T11:59:59.000Z", "2026-11-23T14:00:00.000Z");
    const report = verifyAnswer(signedAnswer(future), published, NOW);
    expect(report.signature.valid).toBe(true);
    expect(report.warnings).toEqual([expect.stringContaining("is in the future (2 h after this machine's clock")]);
  });

  it("verifies the license file inside an activation answer and inside the file endpoint's answer", () => {
    const file = licenseFile(PAYLOAD);
    const activation = verifyAnswer(
      signedAnswer(JSON.stringify({ ...JSON.parse(body), license_file: file })),
      published,
      NOW,
    );
    expect(activation.licenseFile?.signature.valid).toBe(true);
    expect(activation.licenseFile?.payload).toEqual(PAYLOAD);
    expect(isValid(activation)).toBe(true);

    const download = verifyAnswer(signedAnswer(JSON.stringify(file)), published, NOW);
    expect(download.licenseFile?.signature.valid).toBe(true);
    expect(download.issuedAt).toBe(PAYLOAD.issued_at);
    expect(download.warnings).toEqual([]);

    // A valid answer around a file whose signature is broken is not valid as a whole.
    const broken = { ...file, signature: licenseFile({ ...PAYLOAD, email: "x@example.com" }).signature };
    const report = verifyAnswer(signedAnswer(JSON.stringify(broken)), published, NOW);
    expect(report.signature.valid).toBe(true);
    expect(report.licenseFile?.signature.valid).toBe(false);
    expect(isValid(report)).toBe(false);
  });
});

describe("verifying a license file", () => {
  it("checks Ed25519 over the payload string's ASCII bytes and decodes the payload", () => {
    const report = verifyLicenseFile(licenseFile(PAYLOAD), published, NOW);
    expect(report.signature).toEqual({ kid: current.kid, keyFound: true, valid: true });
    expect(report.payload).toEqual(PAYLOAD);
    expect(report).toMatchObject({
      issuedAt: PAYLOAD.issued_at,
      refreshBy: PAYLOAD.refresh_by,
      endDate: PAYLOAD.end_date,
      warnings: [],
    });
    // The signature as base64url verifies too (the contract does not name the alphabet).
    const file = licenseFile(PAYLOAD);
    const urlSafe = { ...file, signature: Buffer.from(file.signature, "base64").toString("base64url") };
    expect(verifyLicenseFile(urlSafe, published, NOW).signature.valid).toBe(true);
  });

  it("rejects a payload changed after signing, and a kid nobody publishes", () => {
    const file = licenseFile(PAYLOAD);
    const changed = Buffer.from(JSON.stringify({ ...PAYLOAD, end_date: "2099-01-01T00:00:00.000Z" })).toString(
      "base64url",
    );
    const tampered = verifyLicenseFile({ ...file, payload: changed }, published, NOW);
    expect(tampered.signature.valid).toBe(false);
    expect(tampered.payload?.end_date).toBe("2099-01-01T00:00:00.000Z");
    expect(verifyLicenseFile(licenseFile(PAYLOAD, stranger), published, NOW).signature.keyFound).toBe(false);
  });

  it("warns about a future issued_at, a passed refresh_by and a passed end_date", () => {
    const future = verifyLicenseFile(
      licenseFile({ ...PAYLOAD, issued_at: "2026-12-01T00:00:00.000Z" }),
      published,
      NOW,
    );
    expect(future.signature.valid).toBe(true);
    expect(future.warnings).toEqual([expect.stringContaining("issued_at 2026-12-01T00:00:00.000Z is in the future")]);
    const stale = verifyLicenseFile(
      licenseFile({ ...PAYLOAD, refresh_by: "2026-11-20T00:00:00.000Z", end_date: "2026-11-22T00:00:00.000Z" }),
      published,
      NOW,
    );
    expect(stale.warnings).toEqual([
      "refresh_by 2026-11-20T00:00:00.000Z has passed: a tool fetches a fresh file before using this one",
      "end_date 2026-11-22T00:00:00.000Z has passed",
    ]);
  });

  it("refuses other formats and files missing a field; reports a payload that is not JSON", () => {
    expect(() => parseLicenseFile({ ...licenseFile(PAYLOAD), format: "license/2" })).toThrow("unknown license file");
    expect(() => parseLicenseFile({ format: "license/1", kid: "k", payload: "p" })).toThrow("no signature");
    expect(() => decodeLicensePayload("bm90IGpzb24")).toThrow("not JSON");
    expect(() => decodeLicensePayload("a+b/")).toThrow("not base64url");
  });
});

describe("the input", () => {
  it("is told apart: a saved answer, a license file, the keys document, a body without headers", () => {
    expect(verifyInput(signedAnswer('{"issued_at":"2026-11-23T11:00:00Z"}'), published, NOW).kind).toBe("answer");
    expect(verifyInput(Buffer.from(JSON.stringify(licenseFile(PAYLOAD))), published, NOW).kind).toBe("license-file");
    expect(() => verifyInput(Buffer.from(keysDocument(current)), published, NOW)).toThrow("the keys document");
    expect(() => verifyInput(Buffer.from('{"valid":true}'), published, NOW)).toThrow("curl -si");
  });

  it("is described with kid, validity, the payload, issued_at and refresh_by", () => {
    const text = describeReport(verifyInput(Buffer.from(JSON.stringify(licenseFile(PAYLOAD))), published, NOW)).join(
      "\n",
    );
    expect(text).toContain(`signature: valid (Ed25519, kid ${current.kid})`);
    expect(text).toContain(`issued_at: ${PAYLOAD.issued_at}`);
    expect(text).toContain(`refresh_by: ${PAYLOAD.refresh_by}`);
    expect(text).toContain('"computer_name": "DESKTOP-42"');
    expect(text.endsWith("result: VALID")).toBe(true);
    const bad = verifyInput(signedAnswer("{}", stranger), published, NOW) as AnswerReport;
    expect(describeReport(bad).at(-1)).toBe("result: INVALID");
  });
});

describe("npm run license:verify", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "license-verify-"));
  const write = (name: string, data: string | Buffer) => {
    fs.writeFileSync(path.join(dir, name), data);
    return path.join(dir, name);
  };
  const keysFile = write("keys.json", keysDocument(current, next));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/license-verify.ts", ...args], { encoding: "utf8" });

  it("exits 0 for a valid file, 1 for a tampered answer, 2 for unusable input, with saved keys", () => {
    const ok = run(write("license.json", JSON.stringify(licenseFile(PAYLOAD))), "--keys", keysFile);
    expect(ok.stdout).toContain("result: VALID");
    expect(ok.status).toBe(0);

    const answer = signedAnswer('{"code":"VALID","issued_at":"2026-11-23T11:00:00Z"}');
    const tampered = Buffer.from(answer.toString("latin1").replace("VALID", "VALIX"), "latin1");
    const bad = run(write("answer.txt", tampered), `--keys=${keysFile}`);
    expect(bad.stdout).toContain("signature: INVALID");
    expect(bad.status).toBe(1);

    const unusable = run(write("body.json", '{"valid":true}'), "--keys", keysFile);
    expect(unusable.stderr).toContain("curl -si");
    expect(unusable.status).toBe(2);
    expect(run().status).toBe(2);
  });
});
