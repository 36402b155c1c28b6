import { createHash } from "node:crypto";
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { getDb } from "../db/db.server";
import { license_keys, licenses, type License } from "../db/schema";

/** The hex SHA-256 of a license key, as license_keys records it (migration 0007). */
export function licenseKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

const prepare = (db: Database) =>
  db
    .select(getTableColumns(licenses))
    .from(license_keys)
    .innerJoin(licenses, eq(licenses.id, license_keys.license_id))
    .where(eq(license_keys.key_hash, sql.placeholder("hash")))
    .limit(1)
    .prepare("find_license_by_key");

/** The lookup is prepared once per database (PostgreSQL then plans it once per connection). */
const prepared = new WeakMap<Database, ReturnType<typeof prepare>>();

/** The license any key the site ever issued belongs to (its current state), or null: one indexed lookup. */
export async function findLicenseByKey(key: string): Promise<License | null> {
  const db = getDb();
  let query = prepared.get(db);
  if (!query) {
    query = prepare(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ hash: licenseKeyHash(key) });
  return row ?? null;
}
