import { sql, type SQL } from "drizzle-orm";
import { FAILURE_MEMORY_SECONDS } from "../auth/sign-in-guard.server";
import type { Database } from "../db/client.server";

/**
 * What the housekeeping job deletes, each table by its own rule. Never touched: the audit log,
 * payments, licenses, license keys, users and their accounts (a vendor keeps those for years), and
 * the idempotency keys of customer e-mails and other one-off jobs (a replayed webhook must still
 * find them). pg-boss prunes its own finished jobs (JOB_RETENTION).
 */

/** Rate-limit windows are one minute; an hour-old window is long past (as rate-limit.server.ts forgets them). */
const RATE_LIMIT_KEEP_SECONDS = 60 * 60;
/** The hourly jobs' keys are only ever looked up for the current and next hour. */
const HOURLY_KEY_KEEP_SECONDS = 2 * 24 * 60 * 60;
/**
 * A floating lease counts only until `expires_at` (decision 0069); an ended one (run out or returned)
 * is kept 7 days for support ("which agent held it last?") and then deleted (decision 0075).
 */
export const ENDED_LEASE_KEEP_SECONDS = 7 * 24 * 60 * 60;

export interface PruneOptions {
  /** The moment to prune as of (the job passes the clock; the soak benchmark a simulated one). */
  now: Date;
  /**
   * WEBHOOK_RETENTION_DAYS: processed webhook events received longer ago are deleted, and so are the
   * events recorded for the vendor's systems (outbound_events) with their delivery log. Deliveries are
   * retried for 72 hours and the retention is at least 7 days, so no event still owed is pruned.
   */
  webhookRetentionDays: number;
  /** Job kinds run by `scheduleHourly`, whose past hours' idempotency keys are pruned. */
  hourlyKinds: string[];
}

export type PruneCounts = Record<
  | "sessions"
  | "verifications"
  | "rate_limits"
  | "sign_in_failures"
  | "webhook_events"
  | "outbound_events"
  | "job_keys"
  | "leases",
  number
>;

export async function pruneExpired(db: Database, options: PruneOptions): Promise<PruneCounts> {
  const now = options.now.toISOString();
  const before = (seconds: number) => new Date(options.now.getTime() - seconds * 1000).toISOString();
  const webhooksBefore = before(options.webhookRetentionDays * 24 * 60 * 60);
  const kinds = sql.join(
    options.hourlyKinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  return {
    sessions: await deleted(db, sql`delete from sessions where expires_at < ${now}`),
    verifications: await deleted(db, sql`delete from verifications where expires_at < ${now}`),
    rate_limits: await deleted(
      db,
      sql`delete from rate_limits where window_start < ${before(RATE_LIMIT_KEEP_SECONDS)}`,
    ),
    sign_in_failures: await deleted(
      db,
      sql`delete from sign_in_failures where last_failure_at < ${before(FAILURE_MEMORY_SECONDS)}`,
    ),
    webhook_events: await deleted(db, sql`delete from webhook_events where received_at < ${webhooksBefore}`),
    // Their delivery attempts go with them (webhook_deliveries cascades).
    outbound_events: await deleted(db, sql`delete from outbound_events where occurred_at < ${webhooksBefore}`),
    job_keys:
      options.hourlyKinds.length === 0
        ? 0
        : await deleted(
            db,
            sql`delete from job_keys where queue in (${kinds}) and created_at < ${before(HOURLY_KEY_KEEP_SECONDS)}`,
          ),
    leases: await deleted(db, sql`delete from leases where expires_at < ${before(ENDED_LEASE_KEEP_SECONDS)}`),
  };
}

/** Runs a delete and returns how many rows it removed. */
async function deleted(db: Database, statement: SQL): Promise<number> {
  const result = (await db.execute(
    sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}
