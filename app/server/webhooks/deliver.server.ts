import { eq } from "drizzle-orm";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import { failingTooLong, nextAttemptAt } from "~/domain/webhooks";
import { recordAudit } from "../audit/audit.server";
import { getDb } from "../db/db.server";
import { outbound_events, webhook_deliveries, webhook_endpoints, type WebhookEndpoint } from "../db/schema";
import type { JobDefinition } from "../jobs/jobs.server";
import { getLogger } from "../logger.server";
import { enqueueDelivery, type DeliveryJobData } from "./events.server";
import { notifyAdminsDisabled } from "./notify-admins.server";
import { postWebhook, type PostResult } from "./post-webhook.server";
import { signWebhook } from "./signature.server";
import { webhookRulesStrict } from "./webhook-address.server";

/**
 * One delivery attempt (decision 0044): the event POSTed to the endpoint with its signature, the
 * attempt logged, and, in one transaction with that log, the endpoint's failing state: a success
 * clears it; a failure schedules the next attempt on the back-off schedule (until 72 hours after
 * the event) and disables an endpoint failing for 24 hours, whose admins are then e-mailed.
 * Scheduled attempts are jobs of their own (startAfter), so the schedule is ours, not pg-boss's;
 * pg-boss retries only an attempt that crashed before it was logged.
 */

export const WEBHOOK_ACTOR = { id: null, email: "webhook delivery" };

export const webhookDeliveryJob: JobDefinition<DeliveryJobData> = {
  payload: JOB_PAYLOADS["webhook-delivery"],
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: (data) => deliverAttempt(data),
};

type DeliveryOutcome =
  | { outcome: "skipped"; reason: string }
  | { outcome: "delivered" | "failed"; status: number | null; nextAttemptAt: Date | null; disabled: boolean };

type Post = typeof postWebhook;

/** Runs one attempt at `now` (the schedule's clock; tests pass their own, and their own `post`). */
export async function deliverAttempt(
  data: DeliveryJobData,
  now = new Date(),
  post: Post = postWebhook,
): Promise<DeliveryOutcome> {
  const db = getDb();
  const [event] = await db.select().from(outbound_events).where(eq(outbound_events.id, data.eventId));
  const [endpoint] = await db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, data.endpointId));
  if (!event || !endpoint) return { outcome: "skipped", reason: "event or endpoint deleted" };
  if (!endpoint.enabled && !data.manual) return { outcome: "skipped", reason: "endpoint disabled" };
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    occurred_at: event.occurred_at.toISOString(),
    data: event.data,
  });
  const headers = {
    "Webhook-Signature": signWebhook(endpoint.secret, body),
    "User-Agent": "ForgeKit-Webhooks/1",
    "Webhook-Id": event.id,
  };
  const result = await post(endpoint.url, body, headers, { strict: webhookRulesStrict() });
  const next = result.ok || data.manual ? null : nextAttemptAt(data.attempt, now, event.occurred_at);
  const disabled = await logAttempt(data, result, now, next);
  if (disabled) notifyAdminsDisabled(disabled, result.error ?? "no answer");
  if (!result.ok) getLogger().warn({ endpoint: endpoint.id, event: event.id, error: result.error }, "webhook failed");
  return {
    outcome: result.ok ? "delivered" : "failed",
    status: result.status,
    nextAttemptAt: next,
    disabled: Boolean(disabled),
  };
}

/** The attempt's row and the endpoint's state, in one transaction; returns the endpoint if it was disabled now. */
async function logAttempt(
  data: DeliveryJobData,
  result: PostResult,
  now: Date,
  next: Date | null,
): Promise<WebhookEndpoint | null> {
  return getDb().transaction(async (tx) => {
    const [endpoint] = await tx
      .select()
      .from(webhook_endpoints)
      .where(eq(webhook_endpoints.id, data.endpointId))
      .for("update");
    if (!endpoint) return null;
    await tx.insert(webhook_deliveries).values({
      event_id: data.eventId,
      endpoint_id: data.endpointId,
      attempt: data.attempt,
      manual: Boolean(data.manual),
      ok: result.ok,
      status_code: result.status,
      error: result.error,
      response_excerpt: result.excerpt,
      duration_ms: result.durationMs,
      attempted_at: now,
      next_attempt_at: next,
    });
    if (result.ok) {
      if (endpoint.failing_since) {
        await tx.update(webhook_endpoints).set({ failing_since: null }).where(eq(webhook_endpoints.id, endpoint.id));
      }
      return null;
    }
    if (next) await enqueueDelivery(tx, { ...data, attempt: data.attempt + 1 }, { startAfter: next });
    const failingSince = endpoint.failing_since ?? now;
    const disable = endpoint.enabled && failingTooLong(failingSince, now);
    await tx
      .update(webhook_endpoints)
      .set({
        failing_since: failingSince,
        ...(disable ? { enabled: false, disabled_reason: "failing" as const, updated_at: now } : {}),
      })
      .where(eq(webhook_endpoints.id, endpoint.id));
    if (!disable) return null;
    await recordAudit(tx, WEBHOOK_ACTOR, {
      action: "webhook_endpoint.disable",
      target_type: "webhook_endpoint",
      target_id: endpoint.id,
      details: { url: endpoint.url, reason: "failing", failing_since: failingSince.toISOString() },
    });
    return { ...endpoint, failing_since: failingSince };
  });
}
