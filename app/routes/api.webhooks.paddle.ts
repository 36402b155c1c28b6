import { getPaymentProvider } from "~/server/billing/payment-provider.server";
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
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return Response.json({ ok: false, message: "The body is too large" }, { status: 413 });
  const result = await receiveWebhook({ rawBody, signature: request.headers.get("Paddle-Signature"), secret });
  return Response.json(result.body, { status: result.status });
}

export function loader() {
  return Response.json({ ok: false, message: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
