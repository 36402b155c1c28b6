import { sql } from "drizzle-orm";
import type { NearMatch } from "~/domain/admin-search";
import { getDb } from "../db/db.server";
import { profiles, users } from "../db/schema";

/** At most this many suggestions under an empty result. */
const NEAR_MATCHES = 5;

/**
 * "Did you mean": accounts whose address or name is close to a term that found nobody (a customer
 * writes from carol.smith@… while the account holds the typo carol.smiht@…). Trigram similarity
 * (pg_trgm's `%`, above its default threshold of 0.3) through the trigram indexes the search already
 * has (`users_email_trgm_idx`, `profiles_full_name_trgm_idx`); closest first.
 */
export async function nearMatches(term: string): Promise<NearMatch[]> {
  const result = await getDb().execute(sql`
    select u.id, u.email, p.full_name,
      greatest(similarity(u.email, ${term}), similarity(p.full_name, ${term})) as closeness
    from ${users} u join ${profiles} p on p.id = u.id
    where u.id in (
      (select e.id from ${users} e where e.email % ${term} order by similarity(e.email, ${term}) desc limit ${NEAR_MATCHES})
      union
      (select n.id from ${profiles} n where n.full_name % ${term} order by similarity(n.full_name, ${term}) desc limit ${NEAR_MATCHES})
    )
    order by closeness desc, u.email
    limit ${NEAR_MATCHES}`);
  const rows = (result as unknown as { rows: { id: string; email: string; full_name: string }[] }).rows;
  return rows.map(({ id, email, full_name }) => ({ id, email, full_name }));
}
