import { sql } from "drizzle-orm";
import { TIMELINE_PAGE_SIZE, timelineEntry, type TimelinePage, type TimelineRow } from "~/domain/user-timeline";
import { getDb } from "../db/db.server";

/**
 * A page of a customer's timeline, newest first (decision 0038): the customer's events (user_events),
 * the admin actions about them (audit_log entries naming the user) and the team changes they made
 * (audit_log entries of a team by them), merged in one query.
 */
export async function userTimeline(userId: string, page: number): Promise<TimelinePage> {
  const offset = (page - 1) * TIMELINE_PAGE_SIZE;
  const result = await getDb().execute(sql`
    SELECT id::text AS id, at, 'event' AS source, kind, details, NULL AS actor
      FROM user_events WHERE user_id = ${userId}
    UNION ALL
    SELECT id::text, created_at, 'admin', action, details, actor_email
      FROM audit_log
     WHERE details ->> 'user_id' = ${userId} OR target_id = ${userId}
        OR (actor_id = ${userId} AND target_type = 'team')
    ORDER BY at DESC, id DESC
    LIMIT ${TIMELINE_PAGE_SIZE + 1} OFFSET ${offset}`);
  const { rows } = result as unknown as { rows: Record<string, unknown>[] };
  const entries = rows.slice(0, TIMELINE_PAGE_SIZE).map((row) =>
    timelineEntry({
      id: String(row.id),
      at: new Date(row.at as string | Date).toISOString(),
      source: row.source === "admin" ? "admin" : "event",
      kind: String(row.kind),
      details: (typeof row.details === "string" ? JSON.parse(row.details) : (row.details ?? {})) as Record<
        string,
        unknown
      >,
      actor: row.actor === null ? null : String(row.actor),
    } satisfies TimelineRow),
  );
  return { page, entries, hasNext: rows.length > TIMELINE_PAGE_SIZE };
}
