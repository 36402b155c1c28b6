import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeReport } from "../../../scripts/lib/describe-report";
import {
  isValid,
  verifyAnswer,
  verifyInput,
  verifyLicenseFile,
  type AnswerReport,
} from "../../../scripts/lib/license-signature";
import { decodeLicensePayload, parseLicenseFile } from "../../../scripts/lib/verify-inputs";
import {
  current,
  keysDocument,
  licenseFile,
  next,
  NOW,
  PAYLOAD,
  published,
  signedAnswer,
  stranger,
} from "../../support/signed-samples";

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

describe("the fields added to the contract: entitlements, rollout, critical, minimum version", () => {
  it("reads a license file's entitlements and from when they hold; a file made before them says so", () => {
    const withThem = { ...PAYLOAD, entitlements: ["generate", "batch"], entitlements_as_of: PAYLOAD.issued_at };
    const report = verifyLicenseFile(licenseFile(withThem), published, NOW);
    expect(report.entitlements).toEqual({ names: ["generate", "batch"], asOf: PAYLOAD.issued_at });
    expect(describeReport(report).join("\n")).toContain(`entitlements: generate, batch (as of ${PAYLOAD.issued_at})`);
    const before = verifyLicenseFile(licenseFile(PAYLOAD), published, NOW);
    expect(before.entitlements).toBeNull();
    expect(describeReport(before).join("\n")).toContain("entitlements: (none in this body: made before entitlements)");
  });

  it("reads a validation answer's entitlements", () => {
    const body = JSON.stringify({
      valid: true,
      code: "VALID",
      license: { id: PAYLOAD.license_id, entitlements: ["generate", "batch", "cli"] },
      issued_at: "2026-11-23T11:59:59.000Z",
    });
    const report = verifyAnswer(signedAnswer(body), published, NOW);
    expect(report.entitlements).toEqual({ names: ["generate", "batch", "cli"], asOf: null });
    expect(report.update).toBeNull();
    expect(describeReport(report).join("\n")).toContain("entitlements: generate, batch, cli");
  });

  it("reads an update check's rollout, critical flag, minimum version and what they ask of the tool", () => {
    const body = JSON.stringify({
      channel: "stable",
      latest: { version: "2.5.0", rollout: 10, critical: true, minimum_version: "2.3.0" },
      update_available: true,
      minimum_version: "2.3.0",
      update_required: true,
      critical_update: true,
      issued_at: "2026-11-23T11:59:59.000Z",
    });
    const report = verifyAnswer(signedAnswer(body), published, NOW);
    expect(report.update).toEqual({
      version: "2.5.0",
      rollout: 10,
      critical: true,
      minimumVersion: "2.3.0",
      updateRequired: true,
      criticalUpdate: true,
    });
    const text = describeReport(report).join("\n");
    expect(text).toContain("latest: 2.5.0, rollout 10%, critical");
    expect(text).toContain("minimum_version: 2.3.0; update_required: true; critical_update: true");
    // An update answer from before rollouts: the fields are reported missing, not invented.
    const old = verifyAnswer(
      signedAnswer(JSON.stringify({ channel: "stable", latest: { version: "2.4.0" }, update_available: false })),
      published,
      NOW,
    );
    expect(describeReport(old).join("\n")).toContain("latest: 2.4.0, rollout (not stated)%");
    const none = verifyAnswer(signedAnswer(JSON.stringify({ latest: null, update_available: false })), published, NOW);
    expect(describeReport(none).join("\n")).toContain("latest: (none offered)");
  });
});

describe("the perpetual fallback's fields (decision 0070)", () => {
  it("reads a license file's fallback_version and updates_until; a file made before them says so", () => {
    const withThem = { ...PAYLOAD, fallback_version: "2.3.2", updates_until: "2027-01-01T00:00:00.000Z" };
    const report = verifyLicenseFile(licenseFile(withThem), published, NOW);
    expect(report.fallback).toEqual({ version: "2.3.2", updatesUntil: "2027-01-01T00:00:00.000Z" });
    expect(describeReport(report).join("\n")).toContain(
      "fallback_version: 2.3.2; updates_until: 2027-01-01T00:00:00.000Z",
    );
    const none = verifyLicenseFile(
      licenseFile({ ...PAYLOAD, fallback_version: null, updates_until: null }),
      published,
      NOW,
    );
    expect(describeReport(none).join("\n")).toContain("fallback_version: (none earned); updates_until: (none)");
    const before = verifyLicenseFile(licenseFile(PAYLOAD), published, NOW);
    expect(before.fallback).toBeNull();
    expect(describeReport(before).join("\n")).toContain(
      "fallback_version: (none in this body: made before the perpetual fallback)",
    );
  });

  it("reads an EXPIRED_FALLBACK answer's code and its license's fallback", () => {
    const body = JSON.stringify({
      valid: false,
      code: "EXPIRED_FALLBACK",
      license: { id: PAYLOAD.license_id, fallback_version: "2.3.2", updates_until: "2026-10-01T00:00:00.000Z" },
      issued_at: "2026-11-23T11:59:59.000Z",
    });
    const report = verifyAnswer(signedAnswer(body), published, NOW);
    expect(report.code).toBe("EXPIRED_FALLBACK");
    expect(report.fallback).toEqual({ version: "2.3.2", updatesUntil: "2026-10-01T00:00:00.000Z" });
    const text = describeReport(report).join("\n");
    expect(text).toContain("code: EXPIRED_FALLBACK");
    expect(text).toContain("fallback_version: 2.3.2; updates_until: 2026-10-01T00:00:00.000Z");
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
