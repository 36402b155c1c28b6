import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { WebhookDeliveryView, WebhookEndpointView, WebhookEventType, WebhookForm } from "~/domain/webhooks";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { outbound_events, webhook_deliveries, webhook_endpoints } from "../db/schema";
import { enqueueDelivery } from "./events.server";
import { webhookUrlProblem } from "./webhook-address.server";

/**
 * Webhook endpoints, managed by admins on /admin/webhooks (decision 0044): created with a secret
 * shown once (kept to sign deliveries, never sent to a browser again), enabled, disabled, deleted,
 * each change in the audit log; and "Redeliver" of an attempt.
 */

/** A new endpoint's secret: `whsec_` and 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

/** Thrown for a field the form must show: nothing was stored. */
export class WebhookFieldError extends ActionError {
  constructor(
    readonly field: "url" | "events",
    message: string,
  ) {
    super(400, message);
  }
}

export async function createWebhookEndpoint({
  admin,
  form,
}: {
  admin: AuditActor;
  form: WebhookForm;
}): Promise<{ id: string; secret: string }> {
  const problem = await webhookUrlProblem(form.url);
  if (problem) throw new WebhookFieldError("url", problem);
  const url = new URL(form.url.trim()).toString();
  const secret = newSecret();
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(webhook_endpoints)
      .values({ url, events: form.events, secret, created_by: admin.id })
      .returning({ id: webhook_endpoints.id });
    await recordAudit(tx, admin, {
      action: "webhook_endpoint.create",
      target_type: "webhook_endpoint",
      target_id: row!.id,
      details: { url, events: form.events },
    });
    return { id: row!.id, secret };
  });
}

async function lockEndpoint(tx: Transaction, id: string) {
  if (!isUuid(id)) throw new ActionError(404, "Webhook endpoint not found.");
  const [row] = await tx.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, id)).for("update");
  if (!row) throw new ActionError(404, "Webhook endpoint not found.");
  return row;
}

/** Enables (its failing state forgotten, the URL checked again) or disables an endpoint; audited. */
export async function setWebhookEnabled({
  admin,
  id,
  enabled,
}: {
  admin: AuditActor;
  id: string;
  enabled: boolean;
}): Promise<{ url: string }> {
  return getDb().transaction(async (tx) => {
    const row = await lockEndpoint(tx, id);
    if (row.enabled === enabled) {
      throw new ActionError(409, `The endpoint ${row.url} is already ${enabled ? "enabled" : "disabled"}.`);
    }
    if (enabled) {
      const problem = await webhookUrlProblem(row.url);
      if (problem) throw new WebhookFieldError("url", problem);
    }
    await tx
      .update(webhook_endpoints)
      .set({ enabled, disabled_reason: enabled ? null : "admin", failing_since: null, updated_at: new Date() })
      .where(eq(webhook_endpoints.id, row.id));
    await recordAudit(tx, admin, {
      action: enabled ? "webhook_endpoint.enable" : "webhook_endpoint.disable",
      target_type: "webhook_endpoint",
      target_id: row.id,
      details: { url: row.url },
    });
    return { url: row.url };
  });
}

/** Deletes an endpoint with its delivery log; audited. */
export async function deleteWebhookEndpoint({
  admin,
  id,
}: {
  admin: AuditActor;
  id: string;
}): Promise<{ url: string }> {
  return getDb().transaction(async (tx) => {
    const row = await lockEndpoint(tx, id);
    await tx.delete(webhook_endpoints).where(eq(webhook_endpoints.id, row.id));
    await recordAudit(tx, admin, {
      action: "webhook_endpoint.delete",
      target_type: "webhook_endpoint",
      target_id: row.id,
      details: { url: row.url, events: row.events },
    });
    return { url: row.url };
  });
}

/** Queues one more attempt of a logged delivery's event to its endpoint (a manual one: no retries); audited. */
export async function redeliverWebhook({
  admin,
  deliveryId,
}: {
  admin: AuditActor;
  deliveryId: string;
}): Promise<{ url: string; type: string }> {
  if (!isUuid(deliveryId)) throw new ActionError(404, "Delivery not found.");
  return getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ delivery: webhook_deliveries, type: outbound_events.type })
      .from(webhook_deliveries)
      .innerJoin(outbound_events, eq(outbound_events.id, webhook_deliveries.event_id))
      .where(eq(webhook_deliveries.id, deliveryId));
    if (!found) throw new ActionError(404, "Delivery not found.");
    const endpoint = await lockEndpoint(tx, found.delivery.endpoint_id);
    const data = { eventId: found.delivery.event_id, endpointId: endpoint.id, attempt: 1, manual: true };
    await enqueueDelivery(tx, data, { key: `webhook-redeliver:${newSecret()}` });
    await recordAudit(tx, admin, {
      action: "webhook_endpoint.redeliver",
      target_type: "webhook_endpoint",
      target_id: endpoint.id,
      details: { url: endpoint.url, event_id: found.delivery.event_id, type: found.type },
    });
    return { url: endpoint.url, type: found.type };
  });
}

const DELIVERIES_SHOWN = 20;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function deliveryView({ delivery, type }: { delivery: typeof webhook_deliveries.$inferSelect; type: string }) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: type,
    attempt: delivery.attempt,
    manual: delivery.manual,
    ok: delivery.ok,
    status_code: delivery.status_code,
    error: delivery.error,
    response_excerpt: delivery.response_excerpt,
    attempted_at: delivery.attempted_at.toISOString(),
    next_attempt_at: iso(delivery.next_attempt_at),
  } satisfies WebhookDeliveryView;
}

/** Every endpoint, newest first, with its latest attempts; never the secret. */
export async function listWebhookEndpoints(): Promise<WebhookEndpointView[]> {
  const db = getDb();
  const rows = await db.select().from(webhook_endpoints).orderBy(desc(webhook_endpoints.created_at));
  const views: WebhookEndpointView[] = [];
  for (const row of rows) {
    const attempts = await db
      .select({ delivery: webhook_deliveries, type: outbound_events.type })
      .from(webhook_deliveries)
      .innerJoin(outbound_events, eq(outbound_events.id, webhook_deliveries.event_id))
      .where(eq(webhook_deliveries.endpoint_id, row.id))
      .orderBy(desc(webhook_deliveries.attempted_at))
      .limit(DELIVERIES_SHOWN);
    views.push({
      id: row.id,
      url: row.url,
      events: row.events as WebhookEventType[],
      enabled: row.enabled,
      disabled_reason: row.disabled_reason,
      failing_since: iso(row.failing_since),
      created_at: row.created_at.toISOString(),
      deliveries: attempts.map(deliveryView),
    });
  }
  return views;
}
