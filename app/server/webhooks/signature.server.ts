import { createHmac, timingSafeEqual } from "node:crypto";
import { formatSignatureHeader, parseSignatureHeader, SIGNATURE_TOLERANCE_SECONDS } from "~/domain/webhooks";

/**
 * The `Webhook-Signature` header of a delivery (Paddle's scheme, decision 0044):
 * `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>" with the endpoint's secret>`.
 */

export function signatureOf(secret: string, ts: number, body: string): string {
  return createHmac("sha256", secret).update(`${ts}:${body}`, "utf8").digest("hex");
}

/** The header a delivery of `body` made at `now` carries. */
export function signWebhook(secret: string, body: string, now: Date = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000);
  return formatSignatureHeader(ts, signatureOf(secret, ts, body));
}

/** What a receiver does (docs/webhooks.md): the header's shape, its age, then the HMAC in constant time. */
export function verifyWebhookSignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  now: Date = new Date(),
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const age = now.getTime() / 1000 - parsed.ts;
  if (age > SIGNATURE_TOLERANCE_SECONDS || age < -SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signatureOf(secret, parsed.ts, body), "hex");
  return timingSafeEqual(expected, Buffer.from(parsed.h1, "hex"));
}
