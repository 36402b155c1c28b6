import { z } from "zod";

/**
 * Events for the vendor's systems (decision 0044): the event types an endpoint may
 * subscribe to, the form an admin fills in, the retry schedule, when a failing endpoint is
 * disabled, and the `Webhook-Signature` header's shape. Pure: the HMAC and the network are the
 * server's (app/server/webhooks/).
 */

export const WEBHOOK_EVENT_TYPES = [
  "license.created",
  "license.renewed",
  "license.extended",
  "license.plan_changed",
  "license.refund_requested",
  "license.refunded",
  "license.revoked",
  "license.reinstated",
  "license.expired",
  "payment.failed",
  "machine.activated",
  "release.published",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(input: unknown): input is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(input);
}

/** Event types as given: at least one, each known (the unknown ones named), in the list's order. */
export function parseEventTypes(
  input: unknown[],
): { events: WebhookEventType[]; error: null } | { events: null; error: string } {
  const unknown = input.filter((type) => !isWebhookEventType(type)).map(String);
  if (unknown.length > 0) {
    return { events: null, error: `Unknown event ${unknown.join(", ")}: use ${WEBHOOK_EVENT_TYPES.join(", ")}.` };
  }
  if (input.length === 0) return { events: null, error: "Choose at least one event." };
  return { events: WEBHOOK_EVENT_TYPES.filter((type) => input.includes(type)), error: null };
}

export const WEBHOOK_URL_MAX = 2000;

/**
 * The address's own shape: an absolute http(s) URL without credentials; https only in
 * production (where http is refused). Where it resolves to is checked by the server.
 */
export function checkWebhookUrl(
  raw: string,
  production: boolean,
): { url: URL; error: null } | { url: null; error: string } {
  const text = raw.trim();
  if (text === "") return { url: null, error: "Enter the endpoint's URL." };
  if (text.length > WEBHOOK_URL_MAX) return { url: null, error: `Use at most ${WEBHOOK_URL_MAX} characters.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { url: null, error: "Enter a full URL, such as https://example.com/webhooks." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { url: null, error: "The URL must start with https://." };
  }
  if (production && url.protocol !== "https:") return { url: null, error: "The URL must use https in production." };
  if (url.username || url.password) return { url: null, error: "The URL must not contain a user name or password." };
  if (!url.hostname) return { url: null, error: "The URL must name a host." };
  return { url, error: null };
}

/** The admin page's form: the URL (its shape checked by the server, which knows the mode) and the events. */
export const webhookFormSchema = z.object({
  url: z.string().trim().min(1, { message: "Enter the endpoint's URL." }),
  events: z.array(z.string()).transform((given, ctx) => {
    const parsed = parseEventTypes(given);
    if (parsed.error !== null) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.events;
  }),
});
export type WebhookForm = z.output<typeof webhookFormSchema>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A delivery is retried until this long after its event. */
export const RETRY_WINDOW_MS = 72 * HOUR;
/** An endpoint whose attempts have failed this long, without a success, is disabled. */
export const DISABLE_AFTER_MS = 24 * HOUR;
/** Receivers reject a signature whose ts is older than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** The wait after failed attempt `attempt` (1 for the first): 1 min, 4 min, 16 min, 64 min, 4¼ h, then 12 h. */
export function retryDelayMs(attempt: number): number {
  return Math.min(MINUTE * 4 ** Math.max(0, attempt - 1), 12 * HOUR);
}

/** When to try again after failed attempt `attempt`, or null once that is past the retry window. */
export function nextAttemptAt(attempt: number, now: Date, eventAt: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(attempt));
  return next.getTime() <= eventAt.getTime() + RETRY_WINDOW_MS ? next : null;
}

/** Whether an endpoint failing since `failingSince` is to be disabled now. */
export function failingTooLong(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
}

/** `ts=<unix seconds>;h1=<hex>`: the header's value. */
export function formatSignatureHeader(ts: number, h1: string): string {
  return `ts=${ts};h1=${h1}`;
}

/** The header's ts and h1, or null when it is not of that shape. */
export function parseSignatureHeader(header: string | null | undefined): { ts: number; h1: string } | null {
  const match = /^ts=(\d{1,12});h1=([0-9a-f]{64})$/.exec((header ?? "").trim());
  return match ? { ts: Number(match[1]), h1: match[2]! } : null;
}

/** One endpoint as the admin page lists it (never its secret). */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabled_reason: "admin" | "failing" | null;
  failing_since: string | null;
  created_at: string;
  deliveries: WebhookDeliveryView[];
}

/** One delivery attempt as listed under its endpoint. */
export interface WebhookDeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  manual: boolean;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  attempted_at: string;
  next_attempt_at: string | null;
}
