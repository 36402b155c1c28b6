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
 * (case-insensitive), each once, by name. Three index-friendly lookups (trigram indexes)
 * joined by UNION, rather than one OR that would scan every row.
 */
export async function searchUsers(term: string) {
  const pattern = containsPattern(term);
  const ids = sql`(
    select ${profiles.id} from ${profiles} where ${profiles.full_name} ilike ${pattern}
    union select ${users.id} from ${users} where ${users.email} ilike ${pattern}
    union select ${licenses.user_id} from ${licenses} where ${licenses.email} ilike ${pattern}
  )`;
  return getDb()
    .select({ id: users.id, email: users.email, full_name: profiles.full_name, company_name: profiles.company_name })
    .from(users)
    .innerJoin(profiles, sql`${profiles.id} = ${users.id}`)
    .where(inArray(users.id, ids))
    .orderBy(asc(profiles.full_name), asc(users.email))
    .limit(SEARCH_LIMIT);
}
export type UserSearchResult = Awaited<ReturnType<typeof searchUsers>>[number];
