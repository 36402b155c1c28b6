import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  LicenseKeyError,
  createLicenseKeys,
  decryptLicenseKey,
  deriveLicenseKey,
  encryptLicenseKey,
  licensePayload,
} from "~/server/license-keys/license-key.server";

// Computed independently with openssl enc -aes-256-cbc over the same PBKDF2 key and IV.
const SECRET = "test-secret-value-123";
const SALT = "test-salt";
const IV = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
const PAYLOAD = {
  email: "ada@example.com",
  windows_username: "ada",
  computer_name: "DESKTOP-1",
  start_date: "2026-01-01T00:00:00.000Z",
  end_date: "2026-01-31T00:00:00.000Z",
};
const VECTOR =
  "AAECAwQFBgcICQoLDA0ODw==:/L2Aprkb0S2RoBZfjrOEeFAkUBebtHWf6ZFOjFPAw9UrzVxQ3BHpIIoHwk7hcZPGa66fSb93R/iLGK7DiIpGw7nTJnycoWdgnXDeoCsmWndTjnU8XoXmWcgROCXmH+IrikwlWi24+YGCeSwVWJpDD1NaFQRB3CIFj51OxqiDB/0hciKeQtveRisft7Ghw90mZTKysfX94VvKUt3v8TkC5A==";

describe("license key format", () => {
  const key = deriveLicenseKey(SECRET, SALT);

  it("derives the AES-256 key with PBKDF2-SHA256, 100000 iterations", () => {
    expect(key.toString("hex")).toBe("afe383d81717d272a9ff5e35db371777729dbf638011f3f4746ba9eb22f3f4c1");
  });

  it("encrypts a known payload with a known IV to the known key", () => {
    expect(encryptLicenseKey(key, PAYLOAD, IV)).toBe(VECTOR);
  });

  it("decodes the known key to the known payload", () => {
    expect(decryptLicenseKey(key, VECTOR)).toEqual(PAYLOAD);
  });

  it("is base64(iv):base64(ciphertext) with a fresh 16-byte IV each time", () => {
    const keys = createLicenseKeys(SECRET, SALT);
    const a = keys.generate(PAYLOAD);
    const b = keys.generate(PAYLOAD);
    expect(a).not.toBe(b);
    const [iv, ciphertext] = a.split(":");
    expect(Buffer.from(iv!, "base64")).toHaveLength(16);
    expect(Buffer.from(ciphertext!, "base64").length % 16).toBe(0);
  });

  it("without dates: from now to now + 30 days", () => {
    const now = new Date("2026-03-01T12:00:00.000Z");
    const payload = licensePayload({ email: "x@example.com" }, now);
    expect(payload).toEqual({
      email: "x@example.com",
      windows_username: null,
      computer_name: null,
      start_date: "2026-03-01T12:00:00.000Z",
      end_date: "2026-03-31T12:00:00.000Z",
    });
  });

  it("refuses a tampered key", () => {
    const [iv, ciphertext] = VECTOR.split(":");
    const bytes = Buffer.from(ciphertext!, "base64");
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    expect(() => decryptLicenseKey(key, `${iv}:${bytes.toString("base64")}`)).toThrow(LicenseKeyError);
  });

  it("refuses a key made with another secret", () => {
    const other = deriveLicenseKey("another-secret-value", SALT);
    expect(() => decryptLicenseKey(other, VECTOR)).toThrow(/altered or made with another secret|not a license payload/);
  });

  it.each([
    "",
    "abc",
    "no-colon-here",
    "a:b:c",
    "AAECAwQFBgcICQoLDA0ODw==:",
    "AAEC:AAAAAAAAAAAAAAAAAAAAAA==",
    "AAECAwQFBgcICQoLDA0ODw==:AAAA",
  ])("refuses the malformed key %j with a clear error", (bad) => {
    expect(() => decryptLicenseKey(key, bad)).toThrow(LicenseKeyError);
  });

  it("round-trips random payloads", () => {
    const keys = createLicenseKeys(SECRET, SALT);
    fc.assert(
      fc.property(
        fc.record({
          email: fc.emailAddress(),
          windows_username: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
          computer_name: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
          start: fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
          days: fc.integer({ min: 0, max: 4000 }),
        }),
        ({ email, windows_username, computer_name, start, days }) => {
          const end = new Date(start.getTime() + days * 86_400_000);
          const decoded = keys.decode(
            keys.generate({ email, windows_username, computer_name, start_date: start, end_date: end }),
          );
          expect(decoded).toEqual({
            email,
            windows_username,
            computer_name,
            start_date: start.toISOString(),
            end_date: end.toISOString(),
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
