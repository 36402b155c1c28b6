import { createHash } from "node:crypto";
import { and, eq, getTableColumns, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { getDb } from "../db/db.server";
import { license_keys, licenses, teams, type License } from "../db/schema";

/** The hex SHA-256 of a license key, as license_keys records it (migration 0007). */
export function licenseKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

const prepare = (db: Database) =>
  db
    .select({ ...getTableColumns(licenses), team_name: teams.name })
    .from(license_keys)
    .innerJoin(licenses, eq(licenses.id, license_keys.license_id))
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    // A team's subscription license (issue 30) carries the billing only: its key opens nothing.
    .where(
      and(
        eq(license_keys.key_hash, sql.placeholder("hash")),
        or(isNull(licenses.team_role), sql`${licenses.team_role} <> 'billing'`),
      ),
    )
    .limit(1)
    .prepare("find_license_by_key");

/** The lookup is prepared once per database (PostgreSQL then plans it once per connection). */
const prepared = new WeakMap<Database, ReturnType<typeof prepare>>();

/** A license with the name of the team it belongs to (a seat's license file names it), or null. */
export type LicenseWithTeam = License & { team_name?: string | null };

/** The license any key the site ever issued belongs to (its current state), or null: one indexed lookup. */
export async function findLicenseByKey(key: string): Promise<LicenseWithTeam | null> {
  const db = getDb();
  let query = prepared.get(db);
  if (!query) {
    query = prepare(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ hash: licenseKeyHash(key) });
  return row ?? null;
}
