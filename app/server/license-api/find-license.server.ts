import { createHash } from "node:crypto";
import { eq, getTableColumns } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { license_keys, licenses, type License } from "../db/schema";

/** The hex SHA-256 of a license key, as license_keys records it (migration 0007). */
export function licenseKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

const columns = getTableColumns(licenses);

/** The license any key the site ever issued belongs to (its current state), or null: one indexed lookup. */
export async function findLicenseByKey(key: string): Promise<License | null> {
  const [row] = await getDb()
    .select(columns)
    .from(license_keys)
    .innerJoin(licenses, eq(licenses.id, license_keys.license_id))
    .where(eq(license_keys.key_hash, licenseKeyHash(key)))
    .limit(1);
  return row ?? null;
}
