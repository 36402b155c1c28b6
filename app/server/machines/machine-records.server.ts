import { createHash } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { licenses, machine_deactivations, machines, type Machine } from "../db/schema";

/** The hex SHA-256 of a fingerprint: all the site keeps of it. */
export function fingerprintHash(fingerprint: string): string {
  return createHash("sha256").update(fingerprint, "utf8").digest("hex");
}

/** The license's active machines, oldest first. */
export function activeMachines(db: Database | Transaction, licenseId: string): Promise<Machine[]> {
  return db
    .select()
    .from(machines)
    .where(and(eq(machines.license_id, licenseId), isNull(machines.deactivated_at)))
    .orderBy(asc(machines.activated_at));
}

/** Takes the license's row lock until the transaction ends: seat counting and the deactivation limit are decided one at a time. */
export async function lockLicense(tx: Transaction, licenseId: string): Promise<{ id: string; user_id: string } | null> {
  const [row] = await tx
    .select({ id: licenses.id, user_id: licenses.user_id })
    .from(licenses)
    .where(eq(licenses.id, licenseId))
    .for("update");
  return row ?? null;
}

const prepareFind = (db: Database) =>
  db
    .select()
    .from(machines)
    .where(
      and(
        eq(machines.license_id, sql.placeholder("license")),
        eq(machines.fingerprint_hash, sql.placeholder("hash")),
        isNull(machines.deactivated_at),
      ),
    )
    .limit(1)
    .prepare("find_active_machine");

const prepared = new WeakMap<Database, ReturnType<typeof prepareFind>>();

/** The license's active machine with this fingerprint, or null (one indexed lookup, prepared once per database). */
export async function findActiveMachine(licenseId: string, fingerprint: string): Promise<Machine | null> {
  const db = getDb();
  let query = prepared.get(db);
  if (!query) {
    query = prepareFind(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ license: licenseId, hash: fingerprintHash(fingerprint) });
  return row ?? null;
}

/**
 * Records that the machine was seen (and its app version and platform, when sent): one conditional
 * write, skipped when another request recorded it within the hour.
 */
export async function recordSeen(
  machine: Machine,
  seen: { platform?: string; app_version?: string },
  now: Date,
  intervalMs: number,
): Promise<void> {
  await getDb()
    .update(machines)
    .set({
      last_seen_at: now,
      ...(seen.platform ? { platform: seen.platform } : {}),
      ...(seen.app_version ? { app_version: seen.app_version } : {}),
    })
    .where(
      and(
        eq(machines.id, machine.id),
        isNull(machines.deactivated_at),
        sql`${machines.last_seen_at} <= ${new Date(now.getTime() - intervalMs)}`,
      ),
    );
}

/** The times of the license's deactivations that count toward the self-service limit, since `since`. */
export async function countedDeactivations(
  db: Database | Transaction,
  licenseId: string,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .select({ at: machine_deactivations.created_at })
    .from(machine_deactivations)
    .where(
      and(
        eq(machine_deactivations.license_id, licenseId),
        eq(machine_deactivations.counts_toward_limit, true),
        gt(machine_deactivations.created_at, since),
      ),
    );
  return rows.map((row) => row.at);
}
