import { and, asc, eq, gt, sql } from "drizzle-orm";
import { leaseDecision, leaseEndsAt, nextLeaseEnd } from "~/domain/leases";
import { floatingLeasesOf } from "~/domain/plans";
import type { Database, Transaction } from "../db/client.server";
import { getDb, preparedPerDatabase } from "../db/db.server";
import { leases, type Lease, type License } from "../db/schema";
import { fingerprintHash, lockLicense } from "./machine-records.server";

/**
 * Floating leases (decision 0069): taking, heartbeating and returning a license's leases. Taking and
 * heartbeating hold the license's row lock (as machine activations do), count the live leases and
 * write in one transaction, so racing takers on any number of servers get exactly the limit. Time is
 * the database's clock, read once the lock is held: one clock for every server, never earlier than
 * what the transaction before wrote. A lease counts while `expires_at` is after it; nothing frees one.
 */

export type LeaseTaking =
  | { outcome: "leased"; lease: Lease; limit: number; inUse: number }
  | { outcome: "full"; limit: number; inUse: number; nextFreeAt: Date }
  | { outcome: "no-floating" }
  | { outcome: "gone" };

export type LeaseHeartbeat =
  | { outcome: "leased"; lease: Lease; limit: number; inUse: number }
  | { outcome: "ended"; lease: Lease }
  | { outcome: "not-found" }
  | { outcome: "no-floating" };

export type LeaseReturn = { outcome: "returned" | "ended"; lease: Lease } | { outcome: "not-found" };

/** The floating leases a license may hold at once (its plan's; a trial's for a trial). */
export const licenseLeaseLimit = (license: { license_type: string; is_trial: boolean }) =>
  floatingLeasesOf(license.license_type, license.is_trial);

/** The database's clock now (not the transaction's start: a transaction that waited for the lock reads after it). */
async function databaseNow(db: Database | Transaction): Promise<Date> {
  const result = (await db.execute(
    sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
  )) as unknown as { rows: { ms: number | string }[] };
  return new Date(Math.floor(Number(result.rows[0]!.ms)));
}

/** The license's live leases (ending after `now`), soonest end first. */
export function liveLeases(db: Database | Transaction, licenseId: string, now: Date): Promise<Lease[]> {
  return db
    .select()
    .from(leases)
    .where(and(eq(leases.license_id, licenseId), gt(leases.expires_at, now)))
    .orderBy(asc(leases.expires_at));
}

/** A lease of this license by id (live or ended), or null: another license's lease is not found. */
async function leaseOf(db: Database | Transaction, licenseId: string, leaseId: string): Promise<Lease | null> {
  const [row] = await db
    .select()
    .from(leases)
    .where(and(eq(leases.id, leaseId), eq(leases.license_id, licenseId)));
  return row ?? null;
}

/**
 * Takes a lease for a machine on a license the caller found valid: the machine's own live lease is
 * extended (it never holds two); a free lease is lent for `ttlMinutes`; a full license answers when
 * the next one is free. Nothing is written unless a lease is lent or extended.
 */
export function takeLease(
  license: Pick<License, "id" | "license_type" | "is_trial">,
  machine: { fingerprint: string; name?: string; ttlMinutes: number },
): Promise<LeaseTaking> {
  const limit = licenseLeaseLimit(license);
  if (limit === 0) return Promise.resolve({ outcome: "no-floating" });
  const hash = fingerprintHash(machine.fingerprint);
  return getDb().transaction(async (tx): Promise<LeaseTaking> => {
    const owner = await lockLicense(tx, license.id);
    if (!owner) return { outcome: "gone" };
    const now = await databaseNow(tx);
    const live = await liveLeases(tx, license.id, now);
    const decision = leaseDecision(
      live.map((lease) => lease.fingerprint_hash),
      hash,
      limit,
    );
    if (decision === "full")
      return { outcome: "full", limit, inUse: live.length, nextFreeAt: nextLeaseEnd(live, now)! };
    const times = {
      heartbeat_at: now,
      expires_at: leaseEndsAt(now, machine.ttlMinutes),
      ttl_minutes: machine.ttlMinutes,
    };
    if (decision === "renew") {
      const held = live.find((lease) => lease.fingerprint_hash === hash)!;
      const [lease] = await tx
        .update(leases)
        .set({ ...times, ...(machine.name ? { name: machine.name } : {}) })
        .where(eq(leases.id, held.id))
        .returning();
      return { outcome: "leased", lease: lease!, limit, inUse: live.length };
    }
    const [lease] = await tx
      .insert(leases)
      .values({
        license_id: license.id,
        user_id: owner.user_id,
        fingerprint_hash: hash,
        name: machine.name ?? null,
        taken_at: now,
        ...times,
      })
      .returning();
    return { outcome: "leased", lease: lease!, limit, inUse: live.length + 1 };
  });
}

/**
 * Extends a live lease of the license by `ttlMinutes` (its own time to live when not given), under
 * the license's lock like a take, so a lease at its very end is either extended or free, never both.
 * An ended lease (expired or returned) is not revived: the machine takes a new one.
 */
export function heartbeatLease(
  license: Pick<License, "id" | "license_type" | "is_trial">,
  leaseId: string,
  ttlMinutes?: number,
): Promise<LeaseHeartbeat> {
  const limit = licenseLeaseLimit(license);
  return getDb().transaction(async (tx): Promise<LeaseHeartbeat> => {
    if (!(await lockLicense(tx, license.id))) return { outcome: "not-found" };
    const held = await leaseOf(tx, license.id, leaseId);
    if (!held) return { outcome: "not-found" };
    if (limit === 0) return { outcome: "no-floating" };
    const now = await databaseNow(tx);
    if (held.expires_at.getTime() <= now.getTime()) return { outcome: "ended", lease: held };
    const ttl = ttlMinutes ?? held.ttl_minutes;
    const [lease] = await tx
      .update(leases)
      .set({ heartbeat_at: now, expires_at: leaseEndsAt(now, ttl), ttl_minutes: ttl })
      .where(eq(leases.id, held.id))
      .returning();
    const inUse = (await liveLeases(tx, license.id, now)).length;
    return { outcome: "leased", lease: lease!, limit, inUse };
  });
}

/**
 * Returns a live lease of the license: it ends now and its lease is free at once. One conditional
 * write (no lock: freeing cannot break the limit). An ended lease is answered as it is.
 */
export async function returnLease(licenseId: string, leaseId: string): Promise<LeaseReturn> {
  const db = getDb();
  const [returned] = await db
    .update(leases)
    .set({ returned_at: sql`statement_timestamp()`, expires_at: sql`statement_timestamp()` })
    .where(
      and(eq(leases.id, leaseId), eq(leases.license_id, licenseId), sql`${leases.expires_at} > statement_timestamp()`),
    )
    .returning();
  if (returned) return { outcome: "returned", lease: returned };
  const held = await leaseOf(db, licenseId, leaseId);
  return held ? { outcome: "ended", lease: held } : { outcome: "not-found" };
}

/** A user's live leases on all their licenses (the licenses page, the admin's user page), soonest end first. */
export function userLiveLeases(userId: string, now = new Date()): Promise<Lease[]> {
  return userLiveLeasesQuery().execute({ userId, now: now.toISOString() });
}

const userLiveLeasesQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(leases)
    .where(and(eq(leases.user_id, sql.placeholder("userId")), gt(leases.expires_at, sql.placeholder("now"))))
    .orderBy(asc(leases.expires_at))
    .prepare("user_live_leases"),
);
