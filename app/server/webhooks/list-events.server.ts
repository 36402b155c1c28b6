import { desc, eq } from "drizzle-orm";
import type { WebhookEventType } from "~/domain/webhooks";
import { getDb } from "../db/db.server";
import { outbound_events } from "../db/schema";

export const EVENTS_PAGE_MAX = 100;

/** GET /api/v1/events (scope events:read): the newest events, of one type if given, as deliveries carry them. */
export async function listRecentEvents({ type, limit }: { type: WebhookEventType | null; limit: number }) {
  const rows = await getDb()
    .select()
    .from(outbound_events)
    .where(type ? eq(outbound_events.type, type) : undefined)
    .orderBy(desc(outbound_events.occurred_at), desc(outbound_events.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    occurred_at: row.occurred_at.toISOString(),
    data: row.data,
  }));
}
