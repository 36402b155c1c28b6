import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";

/**
 * License keys in the desktop tool's format: base64(iv) + ":" + base64(ciphertext), AES-256-CBC
 * with PKCS#7 padding, a 16-byte random IV, and a key derived by PBKDF2-SHA256 (100000
 * iterations, 32 bytes) from the shared secret and salt. The plaintext is the JSON of the
 * payload below. The desktop tool decrypts it with the same secret.
 */

export interface LicensePayload {
  email: string;
  windows_username: string | null;
  computer_name: string | null;
  start_date: string;
  end_date: string;
}

export interface LicenseKeyInput {
  email: string;
  windows_username?: string | null;
  computer_name?: string | null;
  start_date?: Date | string | null;
  end_date?: Date | string | null;
}

export const PBKDF2_ITERATIONS = 100_000;
export const DEFAULT_KEY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export class LicenseKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LicenseKeyError";
  }
}

/** Derives the AES key; done once per secret and salt, not per license (it costs ~100 ms). */
export function deriveLicenseKey(secret: string, salt: string): Buffer {
  return pbkdf2Sync(secret, salt, PBKDF2_ITERATIONS, 32, "sha256");
}

function toIso(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new LicenseKeyError(`Invalid date: ${String(value)}`);
  return date.toISOString();
}

/** The payload a key encrypts; no dates → now and now + 30 days. */
export function licensePayload(input: LicenseKeyInput, now = new Date()): LicensePayload {
  const start = input.start_date ? toIso(input.start_date) : now.toISOString();
  const end = input.end_date
    ? toIso(input.end_date)
    : new Date(new Date(start).getTime() + DEFAULT_KEY_DAYS * DAY_MS).toISOString();
  return {
    email: input.email,
    windows_username: input.windows_username ?? null,
    computer_name: input.computer_name ?? null,
    start_date: start,
    end_date: end,
  };
}

/** Encrypts a payload with a derived key; `iv` is for fixed test vectors only. */
export function encryptLicenseKey(key: Buffer, payload: LicensePayload, iv: Buffer = randomBytes(16)): string {
  if (iv.length !== 16) throw new LicenseKeyError("The initialisation vector must be 16 bytes");
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return `${iv.toString("base64")}:${ciphertext.toString("base64")}`;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Decrypts a key; throws LicenseKeyError when it is malformed, tampered or from another secret. */
export function decryptLicenseKey(key: Buffer, licenseKey: string): LicensePayload {
  const parts = licenseKey.trim().split(":");
  if (parts.length !== 2 || !BASE64.test(parts[0]!) || !BASE64.test(parts[1]!)) {
    throw new LicenseKeyError("Not a license key: expected base64(iv):base64(ciphertext)");
  }
  const iv = Buffer.from(parts[0]!, "base64");
  const ciphertext = Buffer.from(parts[1]!, "base64");
  if (iv.length !== 16) throw new LicenseKeyError("Not a license key: the IV must be 16 bytes");
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0) {
    throw new LicenseKeyError("Not a license key: the ciphertext length is not a multiple of 16 bytes");
  }
  let plaintext: string;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, iv);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new LicenseKeyError("The key does not decrypt: it was altered or made with another secret");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(plaintext);
  } catch {
    throw new LicenseKeyError("The key decrypts to something that is not a license payload");
  }
  if (!isPayload(payload)) {
    throw new LicenseKeyError("The key decrypts to something that is not a license payload");
  }
  return payload;
}

function isPayload(value: unknown): value is LicensePayload {
  if (!value || typeof value !== "object") return false;
  const p = value as Record<string, unknown>;
  const nullableString = (v: unknown) => v === null || typeof v === "string";
  return (
    typeof p.email === "string" &&
    nullableString(p.windows_username) &&
    nullableString(p.computer_name) &&
    typeof p.start_date === "string" &&
    typeof p.end_date === "string"
  );
}

/** A generator bound to one secret and salt, deriving the AES key once. */
export function createLicenseKeys(secret: string, salt: string) {
  const key = deriveLicenseKey(secret, salt);
  return {
    generate: (input: LicenseKeyInput, now?: Date) => encryptLicenseKey(key, licensePayload(input, now)),
    decode: (licenseKey: string) => decryptLicenseKey(key, licenseKey),
  };
}
export type LicenseKeys = ReturnType<typeof createLicenseKeys>;
