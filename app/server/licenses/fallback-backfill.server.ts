import { sql } from "drizzle-orm";
import { FALLBACK_MONTHS } from "~/domain/fallback";
import { getDb } from "../db/db.server";
import { licenses, payments } from "../db/schema";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import { enqueue, type JobDefinition } from "../jobs/jobs.server";
import { getLogger } from "../logger.server";
import { recomputeFallback } from "./fallback.server";

/**
 * The one-off recompute of the stored perpetual fallback (decision 0075): licenses whose paid periods
 * spanned 12 months before `licenses.fallback_version` existed (migration 0036 cannot run the rule)
 * get theirs once, without waiting for their next payment, refund or release change (decision 0070).
 *
 * A durable job under one idempotency key that is never pruned, queued by every app server and worker
 * at start: it is queued once per database, ever, and runs once on any one process. Each license is
 * recomputed in its own transaction by `recomputeFallback` (its row locked first, as a payment or a
 * release change would), so running it again, or beside a payment, changes nothing a payment would not.
 */

export const FALLBACK_BACKFILL_JOB = "fallback-backfill";
/** Its job_keys key: one run per database. */
export const FALLBACK_BACKFILL_KEY = "fallback-backfill:0075";

export interface FallbackBackfill {
  /** Licenses looked at: no stored fallback, paid periods spanning 12 months. */
  checked: number;
  /** Of those, the ones that now hold a fallback (a refunded or disputed run earns none). */
  gained: number;
}

/** Recomputes every license without a stored fallback whose paid periods span 12 months; idempotent. */
export async function backfillFallbacks(): Promise<FallbackBackfill> {
  const db = getDb();
  const result = await db.execute(sql`
    select ${payments.license_id} as id from ${payments}
    join ${licenses} on ${licenses.id} = ${payments.license_id}
    where ${licenses.fallback_version} is null
      and ${payments.amount_cents} > 0 and ${payments.period_start} is not null and ${payments.period_end} is not null
    group by ${payments.license_id}
    having max(${payments.period_end}) >= min(${payments.period_start}) + make_interval(months => ${FALLBACK_MONTHS})
    order by id`);
  const candidates = (result as unknown as { rows: { id: string }[] }).rows;
  let gained = 0;
  for (const { id } of candidates) {
    const version = await db.transaction((tx) => recomputeFallback(tx, id));
    if (version !== null) gained += 1;
  }
  return { checked: candidates.length, gained };
}

/** Queues the one run (at start of every app server and worker; a no-op once its key exists). */
export const scheduleFallbackBackfill = () => enqueue(FALLBACK_BACKFILL_JOB, {}, { key: FALLBACK_BACKFILL_KEY });

export const fallbackBackfillJob: JobDefinition<Record<string, never>> = {
  payload: JOB_PAYLOADS[FALLBACK_BACKFILL_JOB],
  retryLimit: 5,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 3600,
  handle: async () => {
    const done = await backfillFallbacks();
    getLogger().info(done, "perpetual fallback backfill");
    return done;
  },
};
