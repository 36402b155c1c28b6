import type { UserSearchResult } from "~/domain/views";
import { asc, inArray, sql } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses, profiles, users } from "../db/schema";

export const SEARCH_LIMIT = 50;

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Users whose full name, account e-mail or any license e-mail contains the term
 * (case-insensitive), each once, in name order, one page at most. Each of the three lookups
 * takes only its own first page in name order (a short walk of the name index when matches are
 * many, the trigram indexes when they are few); the page is then the first of their union.
 */
export async function searchUsers(term: string): Promise<UserSearchResult[]> {
  const pattern = containsPattern(term);
  const ids = sql`(
    (select p1.id from ${profiles} p1 where p1.full_name ilike ${pattern} order by p1.full_name, p1.id limit ${SEARCH_LIMIT})
    union all
    (select u2.id from ${users} u2 join ${profiles} p2 on p2.id = u2.id where u2.email ilike ${pattern}
      order by p2.full_name, p2.id limit ${SEARCH_LIMIT})
    union all
    (select p3.id from ${profiles} p3
      where exists (select 1 from ${licenses} l where l.user_id = p3.id and l.email ilike ${pattern})
      order by p3.full_name, p3.id limit ${SEARCH_LIMIT})
  )`;
  return getDb()
    .select({ id: users.id, email: users.email, full_name: profiles.full_name, company_name: profiles.company_name })
    .from(users)
    .innerJoin(profiles, sql`${profiles.id} = ${users.id}`)
    .where(inArray(users.id, ids))
    .orderBy(asc(profiles.full_name), asc(profiles.id))
    .limit(SEARCH_LIMIT);
}
