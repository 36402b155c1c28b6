import { createHash } from "node:crypto";
import { and, eq, getTableColumns, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { getDb } from "../db/db.server";
import { license_keys, licenses, machines, teams, type License, type Machine } from "../db/schema";
import { fingerprintHash } from "../machines/machine-records.server";

/** The hex SHA-256 of a license key, as license_keys records it (migration 0007). */
export function licenseKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A team's subscription license carries the billing only: its key opens nothing. */
const opensSomething = or(isNull(licenses.team_role), sql`${licenses.team_role} <> 'billing'`);

const prepare = (db: Database) =>
  db
    .select({ ...getTableColumns(licenses), team_name: teams.name })
    .from(license_keys)
    .innerJoin(licenses, eq(licenses.id, license_keys.license_id))
    .leftJoin(teams, eq(teams.id, licenses.team_id))
    .where(and(eq(license_keys.key_hash, sql.placeholder("hash")), opensSomething))
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

/** The license by key hash with its active machine of a fingerprint (placeholders `hash`, `fingerprint`). */
export const licenseAndMachineQuery = (db: Database) =>
  db
    .select({ license: getTableColumns(licenses), machine: getTableColumns(machines) })
    .from(license_keys)
    .innerJoin(licenses, eq(licenses.id, license_keys.license_id))
    .leftJoin(
      machines,
      and(
        eq(machines.license_id, licenses.id),
        eq(machines.fingerprint_hash, sql.placeholder("fingerprint")),
        isNull(machines.deactivated_at),
      ),
    )
    .where(and(eq(license_keys.key_hash, sql.placeholder("hash")), opensSomething))
    .limit(1);

const prepareWithMachine = (db: Database) => licenseAndMachineQuery(db).prepare("find_license_and_machine");

const preparedWithMachine = new WeakMap<Database, ReturnType<typeof prepareWithMachine>>();

/**
 * The license a key belongs to and its active machine with this fingerprint (null when none), in one
 * indexed query: what validate and the license file read for a machine (decision 0048).
 */
export async function findLicenseAndMachine(
  key: string,
  fingerprint: string,
): Promise<{ license: License | null; machine: Machine | null }> {
  const db = getDb();
  let query = preparedWithMachine.get(db);
  if (!query) {
    query = prepareWithMachine(db);
    preparedWithMachine.set(db, query);
  }
  const [row] = await query.execute({ hash: licenseKeyHash(key), fingerprint: fingerprintHash(fingerprint) });
  return { license: row?.license ?? null, machine: row?.machine ?? null };
}
