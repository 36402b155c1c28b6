import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Paddle's webhook signature: `Paddle-Signature: ts=<unix seconds>;h1=<hex>`, where h1 is
 * HMAC-SHA256 with the destination's secret over `<ts>:<raw body>`. We verify it ourselves
 * rather than with the SDK's helper, which reads only the last h1 (secret rotation sends
 * several) and compares with `===` (see docs/decisions/0009-webhook-verification.md).
 */

/** Paddle's own tolerance: a signature older than this is refused (replays). */
export const SIGNATURE_MAX_AGE_SECONDS = 5;
/** Clock skew tolerated the other way (a signature from the near future). */
const MAX_FUTURE_SECONDS = 5;

export type SignatureFailure = "missing" | "malformed" | "stale" | "mismatch";

export function computeSignature(secret: string, ts: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${ts}:${rawBody}`, "utf8").digest("hex");
}

/** The header value Paddle would send for this body (the demo provider signs with it). */
export function signatureHeader(secret: string, rawBody: string, now: Date = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000);
  return `ts=${ts};h1=${computeSignature(secret, ts, rawBody)}`;
}

/** Checks a Paddle-Signature header against the raw body; null when it is valid. */
export function verifySignature(
  secret: string,
  rawBody: string,
  header: string | null | undefined,
  now: Date = new Date(),
): SignatureFailure | null {
  if (!header) return "missing";
  let ts: number | undefined;
  const h1: string[] = [];
  for (const part of header.split(";")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "ts" && value && /^\d{1,12}$/.test(value)) ts = Number(value);
    else if (key === "h1" && value && /^[0-9a-f]{64}$/i.test(value)) h1.push(value.toLowerCase());
  }
  if (ts === undefined || h1.length === 0) return "malformed";
  const age = now.getTime() / 1000 - ts;
  if (age > SIGNATURE_MAX_AGE_SECONDS || age < -MAX_FUTURE_SECONDS) return "stale";
  const expected = Buffer.from(computeSignature(secret, ts, rawBody), "hex");
  // Any h1 may match (Paddle sends one per active secret while a secret is rotated).
  const matches = h1.some((candidate) => timingSafeEqual(Buffer.from(candidate, "hex"), expected));
  return matches ? null : "mismatch";
}
