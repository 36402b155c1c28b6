import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { auditRange, AUDIT_PAGE_SIZE, type AdminAuditEntry, type AuditFilters } from "~/domain/admin-audit";
import { normalizeShortId } from "~/domain/short-id";
import { getDb } from "../db/db.server";
import { audit_log, licenses } from "../db/schema";
import { isUuid } from "../action-error.server";

type AuditRow = typeof audit_log.$inferSelect;

function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Entries about a record: its own id as target, or (a user) named in details, or (a license's short id) its license. */
async function targetCondition(target: string): Promise<SQL> {
  const shortId = target.toUpperCase().startsWith("FK") ? normalizeShortId(target) : null;
  if (shortId) {
    const [license] = await getDb().select({ id: licenses.id }).from(licenses).where(eq(licenses.short_id, shortId));
    return eq(audit_log.target_id, license?.id ?? shortId);
  }
  if (isUuid(target)) {
    const id = target.toLowerCase();
    return or(eq(audit_log.target_id, id), sql`${audit_log.details} ->> 'user_id' = ${id}`)!;
  }
  return eq(audit_log.target_id, target);
}

/** The WHERE of a filtered view: action exact, actor e-mail contains (or actor id), target, date range. */
export async function auditWhere(filters: AuditFilters): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(eq(audit_log.action, filters.action));
  if (filters.actor) {
    conditions.push(
      isUuid(filters.actor)
        ? eq(audit_log.actor_id, filters.actor.toLowerCase())
        : ilike(audit_log.actor_email, containsPattern(filters.actor)),
    );
  }
  if (filters.target) conditions.push(await targetCondition(filters.target));
  const { since, before } = auditRange(filters);
  if (since) conditions.push(gte(audit_log.created_at, since));
  if (before) conditions.push(lt(audit_log.created_at, before));
  return conditions.length ? and(...conditions) : undefined;
}

/** What the entries' ids name: their licenses (short id, owner), for links. */
async function withLinks(rows: AuditRow[]): Promise<AdminAuditEntry[]> {
  const licenseIds = [...new Set(rows.filter((r) => isUuid(r.target_id)).map((r) => r.target_id))];
  const found = licenseIds.length
    ? await getDb()
        .select({ id: licenses.id, short_id: licenses.short_id, user_id: licenses.user_id })
        .from(licenses)
        .where(inArray(licenses.id, licenseIds))
    : [];
  const byId = new Map(found.map((l) => [l.id, l]));
  return rows.map((row) => {
    const details = (row.details ?? {}) as Record<string, unknown>;
    const license = row.target_type === "license" ? (byId.get(row.target_id) ?? null) : null;
    const named = typeof details.user_id === "string" && isUuid(details.user_id) ? details.user_id : null;
    return {
      id: row.id,
      actor_id: row.actor_id,
      actor_email: row.actor_email,
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      details,
      created_at: row.created_at.toISOString(),
      license,
      user_id: named ?? license?.user_id ?? (row.target_type === "user" ? row.target_id : null),
    };
  });
}

/** One page of the filtered audit log, newest first. */
export async function listAudit(
  filters: AuditFilters,
  page = 1,
): Promise<{ entries: AdminAuditEntry[]; page: number; hasNext: boolean }> {
  const rows = await getDb()
    .select()
    .from(audit_log)
    .where(await auditWhere(filters))
    .orderBy(desc(audit_log.created_at), desc(audit_log.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { entries: await withLinks(rows.slice(0, AUDIT_PAGE_SIZE)), page, hasNext: rows.length > AUDIT_PAGE_SIZE };
}

/** The actions recorded so far, for the action filter's choices. */
export async function auditActions(): Promise<string[]> {
  const rows = await getDb().selectDistinct({ action: audit_log.action }).from(audit_log).orderBy(audit_log.action);
  return rows.map((r) => r.action);
}

/** A user's entries: about them or their licenses, or done by them; newest first. */
export async function userAuditEntries(userId: string, limit = 50): Promise<AdminAuditEntry[]> {
  // Entries about a user's license name the user in details.user_id (revoke, tester, offline data,
  // resend, refused trial); a refund request is the user's own action. Each condition has its index.
  const rows = await getDb()
    .select()
    .from(audit_log)
    .where(
      or(
        eq(audit_log.actor_id, userId),
        eq(audit_log.target_id, userId),
        sql`${audit_log.details} ->> 'user_id' = ${userId}`,
      ),
    )
    .orderBy(desc(audit_log.created_at), desc(audit_log.id))
    .limit(limit);
  return withLinks(rows);
}

/** The filtered log in batches of 1,000, newest first, for the CSV export. */
export async function* auditBatches(filters: AuditFilters): AsyncGenerator<AuditRow[]> {
  const where = await auditWhere(filters);
  for (let offset = 0; ; offset += 1000) {
    const rows = await getDb()
      .select()
      .from(audit_log)
      .where(where)
      .orderBy(desc(audit_log.created_at), desc(audit_log.id))
      .limit(1000)
      .offset(offset);
    if (rows.length > 0) yield rows;
    if (rows.length < 1000) return;
  }
}
