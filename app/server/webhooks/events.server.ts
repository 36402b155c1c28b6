import { and, arrayContains, eq } from "drizzle-orm";
import type { WebhookEventType } from "~/domain/webhooks";
import type { Transaction } from "../db/client.server";
import { outbound_events, webhook_endpoints, type License, type Machine, type Release } from "../db/schema";
import { enqueue } from "../jobs/jobs.server";
import { absoluteDownloadUrl } from "../license-api/latest-update.server";

/**
 * Records an event for the vendor's systems in the caller's transaction (decision 0044): the
 * outbox row and one delivery job per enabled endpoint subscribed to its type, so the event and
 * its deliveries exist if and only if the change that caused it commits. With `key`, an event is
 * recorded once only (a scan that finds the same expiry again records nothing).
 */

export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";

export interface DeliveryJobData {
  eventId: string;
  endpointId: string;
  attempt: number;
  manual?: boolean;
}

export async function recordEvent(
  tx: Transaction,
  type: WebhookEventType,
  data: Record<string, unknown>,
  { key, occurredAt = new Date() }: { key?: string; occurredAt?: Date } = {},
): Promise<string | null> {
  const inserted = await tx
    .insert(outbound_events)
    .values({ type, data, occurred_at: occurredAt, key })
    .onConflictDoNothing()
    .returning({ id: outbound_events.id });
  const eventId = inserted[0]?.id;
  if (!eventId) return null;
  const endpoints = await tx
    .select({ id: webhook_endpoints.id })
    .from(webhook_endpoints)
    .where(and(eq(webhook_endpoints.enabled, true), arrayContains(webhook_endpoints.events, [type])));
  for (const endpoint of endpoints) {
    await enqueueDelivery(tx, { eventId, endpointId: endpoint.id, attempt: 1 });
  }
  return eventId;
}

/** Queues one attempt; an attempt of an event to an endpoint is queued once (its key), a redelivery each time. */
export function enqueueDelivery(
  tx: Transaction,
  data: DeliveryJobData,
  { startAfter, key }: { startAfter?: Date; key?: string } = {},
): Promise<string | null> {
  return enqueue(WEBHOOK_DELIVERY_JOB, data, {
    tx,
    startAfter,
    key: key ?? `webhook:${data.eventId}:${data.endpointId}:${data.attempt}`,
  });
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** What a license event says about its license (docs/webhooks.md): no key, no offline data. */
export function licenseData(
  license: Pick<
    License,
    | "id"
    | "short_id"
    | "user_id"
    | "email"
    | "license_type"
    | "status"
    | "start_date"
    | "end_date"
    | "is_trial"
    | "auto_renew"
    | "paddle_subscription_id"
  >,
): Record<string, unknown> {
  return {
    id: license.id,
    short_id: license.short_id,
    user_id: license.user_id,
    email: license.email,
    license_type: license.license_type,
    status: license.status,
    start_date: iso(license.start_date),
    end_date: iso(license.end_date),
    is_trial: license.is_trial,
    auto_renew: license.auto_renew,
    subscription_id: license.paddle_subscription_id,
  };
}

/** A license event's data: the license after the change, and what the event adds. */
export function licenseEvent(license: Parameters<typeof licenseData>[0], extra: Record<string, unknown> = {}) {
  return { license: licenseData(license), ...extra };
}

export function machineData(machine: Machine, license: Pick<License, "id" | "short_id">): Record<string, unknown> {
  return {
    machine: {
      id: machine.id,
      name: machine.name,
      platform: machine.platform,
      app_version: machine.app_version,
      fingerprint_hash: machine.fingerprint_hash,
      activated_at: iso(machine.activated_at),
    },
    license: { id: license.id, short_id: license.short_id },
  };
}

export function releaseData(release: Release): Record<string, unknown> {
  return {
    release: {
      version: release.version,
      title: release.title,
      channel: release.channel,
      notes: release.release_notes,
      download_url: release.download_url ?? absoluteDownloadUrl(),
      size: release.installer_size_bytes,
      sha256: release.installer_sha256,
      release_date: release.release_date,
      published_at: iso(release.published_at),
      // How the update check offers it (decision 0062): to this share of machines, critical or not,
      // and the version below which the tool must update before it runs.
      rollout_percent: release.rollout_percent,
      critical: release.critical,
      minimum_version: release.minimum_version,
    },
  };
}
