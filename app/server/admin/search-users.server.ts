import { createHash } from "node:crypto";
import type { UserSearchResult } from "~/domain/views";
import { ADMIN_PAGE_SIZE } from "~/domain/admin";
import { normalizeShortId } from "~/domain/short-id";
import { asc, desc, inArray, sql } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { license_keys, licenses, payments, profiles, users } from "../db/schema";

export const SEARCH_LIMIT = ADMIN_PAGE_SIZE;

export interface UserPage {
  users: UserSearchResult[];
  page: number;
  hasNext: boolean;
}

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const columns = {
  id: users.id,
  email: users.email,
  full_name: profiles.full_name,
  company_name: profiles.company_name,
  created_at: users.createdAt,
};

function view(rows: { id: string; email: string; full_name: string; company_name: string | null; created_at: Date }[]) {
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

function paged(rows: UserSearchResult[], page: number): UserPage {
  return { users: rows.slice(0, SEARCH_LIMIT), page, hasNext: rows.length > SEARCH_LIMIT };
}

/** Every user, newest first, one page of 50 (issue 16: the list without a term). */
export async function listUsers(page = 1): Promise<UserPage> {
  const rows = await getDb()
    .select(columns)
    .from(users)
    .innerJoin(profiles, sql`${profiles.id} = ${users.id}`)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(SEARCH_LIMIT + 1)
    .offset((page - 1) * SEARCH_LIMIT);
  return paged(view(rows), page);
}

/**
 * Users whose full name, account e-mail or any license e-mail contains the term (case-insensitive),
 * or who hold the license with that short id or key (current or earlier), or the Paddle subscription
 * or transaction with that id; each once, in name order, page by page. Each lookup takes only its
 * own first pages in name order (a short walk of the name index when matches are many, the trigram
 * and exact indexes when they are few); the page is then cut from their union.
 */
export async function searchUsers(term: string, page = 1): Promise<UserPage> {
  const pattern = containsPattern(term);
  const reach = page * SEARCH_LIMIT + 1;
  const shortId = normalizeShortId(term);
  const keyHash = createHash("sha256").update(term, "utf8").digest("hex");
  const ids = sql`(
    (select p1.id from ${profiles} p1 where p1.full_name ilike ${pattern} order by p1.full_name, p1.id limit ${reach})
    union all
    (select u2.id from ${users} u2 join ${profiles} p2 on p2.id = u2.id where u2.email ilike ${pattern}
      order by p2.full_name, p2.id limit ${reach})
    union all
    (select p3.id from ${profiles} p3
      where exists (select 1 from ${licenses} l where l.user_id = p3.id and l.email ilike ${pattern})
      order by p3.full_name, p3.id limit ${reach})
    union all
    (select l4.user_id from ${licenses} l4 where l4.short_id = ${shortId ?? ""} or l4.paddle_subscription_id = ${term})
    union all
    (select l5.user_id from ${license_keys} k5 join ${licenses} l5 on l5.id = k5.license_id where k5.key_hash = ${keyHash})
    union all
    (select y6.user_id from ${payments} y6 where y6.id = ${term} or y6.subscription_id = ${term})
  )`;
  const rows = await getDb()
    .select(columns)
    .from(users)
    .innerJoin(profiles, sql`${profiles.id} = ${users.id}`)
    .where(inArray(users.id, ids))
    .orderBy(asc(profiles.full_name), asc(profiles.id))
    .limit(SEARCH_LIMIT + 1)
    .offset((page - 1) * SEARCH_LIMIT);
  return paged(view(rows), page);
}
