import { getPaymentProvider } from "~/server/billing/configured-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import type { Route } from "./+types/api.webhooks.paddle";

const MAX_BODY_BYTES = 1024 * 1024;

/** Paddle's webhook destination (the demo provider's events take the same path in process). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ ok: false, message: "Use POST" }, { status: 405 });
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) {
    return Response.json({ ok: false, message: "The body is too large" }, { status: 413 });
  }
  const secret = getPaymentProvider().webhookSecret;
  if (!secret) return Response.json({ ok: false, message: "Webhooks are not configured" }, { status: 503 });
  // The signature covers the exact bytes received: read the body as text, never re-serialise it.
  const rawBody = await readCapped(request, MAX_BODY_BYTES);
  if (rawBody === null) return Response.json({ ok: false, message: "The body is too large" }, { status: 413 });
  const result = await receiveWebhook({
    rawBody,
    signature: request.headers.get("Paddle-Signature"),
    secret,
  });
  return Response.json(result.body, { status: result.status });
}

export function loader() {
  return Response.json({ ok: false, message: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

/** The body as UTF-8 text, or null as soon as it passes `max` bytes (a chunked body has no length). */
async function readCapped(request: Request, max: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
