import { and, eq, gt, isNotNull, sql } from "drizzle-orm";
import { fallbackFor, FALLBACK_MONTHS, isReversed, type FallbackRelease, type PaidPeriod } from "~/domain/fallback";
import type { Transaction } from "../db/client.server";
import { licenses, payments, releases } from "../db/schema";

/**
 * The stored perpetual fallback (decisions 0066 and 0070): `licenses.fallback_version` is
 * `fallbackFor` of the license's paid periods and the release list, written in the transaction of
 * every payment, refund, dispute and release change that can move it, so the desktop API, the file,
 * the update check and the pages read a column they already load.
 *
 * Locking: the license row is locked before its payments or the releases are read. A payment, refund
 * or dispute holds its license's lock already; a release change locks the licenses it recomputes, so
 * a payment committed meanwhile is waited for and then read, and a payment that starts after the
 * release change's lock reads the releases once the change committed.
 */

/** The release list the rule reads (every release: the rule leaves out drafts, betas and yanked ones). */
export async function fallbackReleases(tx: Transaction): Promise<FallbackRelease[]> {
  return tx
    .select({
      version: releases.version,
      channel: releases.channel,
      published_at: releases.published_at,
      yanked_at: releases.yanked_at,
    })
    .from(releases);
}

/** A license's paid periods: the payments that paid something for a known period. */
async function paidPeriods(tx: Transaction, licenseId: string): Promise<PaidPeriod[]> {
  const rows = await tx
    .select({
      start: payments.period_start,
      end: payments.period_end,
      refund_status: payments.refund_status,
      dispute_status: payments.dispute_status,
    })
    .from(payments)
    .where(
      and(
        eq(payments.license_id, licenseId),
        gt(payments.amount_cents, 0),
        isNotNull(payments.period_start),
        isNotNull(payments.period_end),
      ),
    );
  return rows.map((row) => ({ start: row.start!, end: row.end!, voided: isReversed(row) }));
}

/**
 * Recomputes one license's fallback and stores it when it changed (the license row locked first).
 * `known`: the release list when the caller has read it already (a release change recomputing many).
 */
export async function recomputeFallback(
  tx: Transaction,
  licenseId: string,
  known?: readonly FallbackRelease[],
): Promise<string | null> {
  const [license] = await tx
    .select({ fallback_version: licenses.fallback_version })
    .from(licenses)
    .where(eq(licenses.id, licenseId))
    .for("update");
  if (!license) return null;
  const fallback = fallbackFor(await paidPeriods(tx, licenseId), known ?? (await fallbackReleases(tx)));
  const version = fallback?.version ?? null;
  if (version !== license.fallback_version)
    await tx.update(licenses).set({ fallback_version: version }).where(eq(licenses.id, licenseId));
  return version;
}

/** Recomputes the fallback of the license a payment (a transaction id) belongs to, if we know it. */
export async function recomputeFallbackOfPayment(tx: Transaction, paymentId: string): Promise<void> {
  const [paid] = await tx.select({ license_id: payments.license_id }).from(payments).where(eq(payments.id, paymentId));
  if (paid) await recomputeFallback(tx, paid.license_id);
}

/**
 * After a release change (publish, yank, edit, delete): every license that may have a fallback is
 * recomputed, those whose paid periods span 12 months or more and those that hold one now. In id
 * order, so two such changes lock licenses in the same order.
 */
export async function recomputeEveryFallback(tx: Transaction): Promise<void> {
  const result = await tx.execute(sql`
    select ${payments.license_id} as id from ${payments}
    where ${payments.amount_cents} > 0 and ${payments.period_start} is not null and ${payments.period_end} is not null
    group by ${payments.license_id}
    having max(${payments.period_end}) >= min(${payments.period_start}) + make_interval(months => ${FALLBACK_MONTHS})
    union
    select ${licenses.id} as id from ${licenses} where ${licenses.fallback_version} is not null
    order by id`);
  const candidates = (result as unknown as { rows: { id: string }[] }).rows;
  if (candidates.length === 0) return;
  const known = await fallbackReleases(tx);
  for (const { id } of candidates) await recomputeFallback(tx, id, known);
}
