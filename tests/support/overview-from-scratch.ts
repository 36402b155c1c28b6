// The admin overview as it was counted before its summaries (decision 0078): every figure from the rows
// themselves at each view. The integration tests compare the summaries' figures with these after a mix of events.
import { and, eq, gt, gte, inArray, isNotNull, lte, sql } from "drizzle-orm";
import {
  activeByKind,
  CONVERSION_DAYS,
  fillDays,
  monthlyRecurringRevenueCents,
  OVERVIEW_DAYS,
  refundRatePercent,
  renewingByPlan,
  seriesTotals,
  windowStart,
  type DailySeries,
  type OverviewView,
} from "~/domain/admin-overview";
import { isPlanId } from "~/domain/plans";
import { getDb } from "~/server/db/db.server";
import { audit_log, licenses, payments } from "~/server/db/schema";

const DAY = 86_400_000;

/** A timestamp column's UTC calendar day (a date: cheap to group by; formatted once per group). */
const utcDayOf = (column: unknown) => sql`((${column} at time zone 'UTC')::date)`;
const dayText = (day: ReturnType<typeof utcDayOf>) => sql<string>`to_char(${day}, 'YYYY-MM-DD')`;

type Db = ReturnType<typeof getDb>;

/** Active, not yet ended licenses per type and trial flag, with how many of them renew. */
const activeLicenses = (db: Db, now: Date) =>
  db
    .select({
      type: licenses.license_type,
      trial: licenses.is_trial,
      count: sql<number>`count(*)::int`,
      renewing: sql<number>`(count(*) filter (where ${licenses.auto_renew}))::int`,
    })
    .from(licenses)
    .where(and(eq(licenses.status, "active"), gt(licenses.end_date, now)))
    .groupBy(licenses.license_type, licenses.is_trial);

/** Trials that ended in the conversion window, and how many of them were then paid for. */
const endedTrials = (db: Db, now: Date) =>
  db
    .select({
      ended: sql<number>`count(*)::int`,
      converted: sql<number>`(count(*) filter (where not ${licenses.is_trial}))::int`,
    })
    .from(licenses)
    .where(
      and(
        isNotNull(licenses.trial_starts_at),
        gte(licenses.trial_ends_at, new Date(now.getTime() - CONVERSION_DAYS * DAY)),
        lte(licenses.trial_ends_at, now),
      ),
    );

/** Paid purchases and renewals per UTC day since the window's start. */
const paidPerDay = (db: Db, since: Date) =>
  db
    .select({ day: dayText(utcDayOf(payments.billed_at)), kind: payments.kind, count: sql<number>`count(*)::int` })
    .from(payments)
    .where(
      and(
        gte(payments.billed_at, since),
        inArray(payments.kind, ["purchase", "renewal"]),
        gt(payments.amount_cents, 0),
      ),
    )
    .groupBy(utcDayOf(payments.billed_at), payments.kind);

/** Refunds per UTC day since the window's start. */
const refundsPerDay = (db: Db, since: Date) =>
  db
    .select({ day: dayText(utcDayOf(licenses.refunded_at)), count: sql<number>`count(*)::int` })
    .from(licenses)
    .where(and(isNotNull(licenses.refunded_at), gte(licenses.refunded_at, since)))
    .groupBy(utcDayOf(licenses.refunded_at));

/** Revokes (from the audit log) per UTC day since the window's start. */
const revokesPerDay = (db: Db, since: Date) =>
  db
    .select({ day: dayText(utcDayOf(audit_log.created_at)), count: sql<number>`count(*)::int` })
    .from(audit_log)
    .where(and(eq(audit_log.action, "license.revoke"), gte(audit_log.created_at, since)))
    .groupBy(utcDayOf(audit_log.created_at));

/** Payments disputed in the window, by where their dispute stands now (decision 0056). */
const disputesSince = (db: Db, since: Date) =>
  db
    .select({ status: payments.dispute_status, count: sql<number>`count(*)::int` })
    .from(payments)
    .where(and(isNotNull(payments.dispute_status), gte(payments.dispute_at, since)))
    .groupBy(payments.dispute_status);

/** Active licenses per kind (trials as "trial"), running trials, and renewing licenses per plan. */
function tallyActive(active: Awaited<ReturnType<typeof activeLicenses>>) {
  const activeCounts: Record<string, number> = {};
  const renewingCounts: Record<string, number> = {};
  let trialsRunning = 0;
  for (const row of active) {
    // A license still in its trial counts as a trial; a renewing one past it counts for MRR.
    const kind = row.trial ? "trial" : row.type;
    activeCounts[kind] = (activeCounts[kind] ?? 0) + Number(row.count);
    if (row.trial || row.type === "trial") trialsRunning += Number(row.count);
    else if (isPlanId(row.type)) {
      renewingCounts[row.type] = (renewingCounts[row.type] ?? 0) + Number(row.renewing);
    }
  }
  return { activeCounts, renewingCounts, trialsRunning };
}

/**
 * The overview's figures (decision 0025), each counted by the database (grouped and aggregated in SQL,
 * through the overview's indexes of migration 0012), then shaped by the pure rules of
 * ~/domain/admin-overview:
 * - active licenses: status active and not yet ended; one still in its trial counts as a trial;
 * - renewing subscriptions (MRR): active, not ended, renewing, past the trial, of a plan;
 * - trials converted: trials that ended in the last 30 days and were then paid for;
 * - per day for 90 days: paid purchases and renewals (payments), refunds (refunded_at), revokes (audit log);
 * - disputes over 90 days: payments whose chargeback, warning or reversal arrived in the window.
 */
export async function overviewFromScratch(now = new Date()): Promise<OverviewView> {
  const db = getDb();
  const since = windowStart(now, OVERVIEW_DAYS);
  const [active, trials, paid, refunds, revokes, disputed] = await Promise.all([
    activeLicenses(db, now),
    endedTrials(db, now),
    paidPerDay(db, since),
    refundsPerDay(db, since),
    revokesPerDay(db, since),
    disputesSince(db, since),
  ]);
  const disputes = (status: string) => Number(disputed.find((r) => r.status === status)?.count ?? 0);

  const { activeCounts, renewingCounts, trialsRunning } = tallyActive(active);
  const rows: { day: string; series: DailySeries; count: number }[] = [
    ...paid.map((r) => ({
      day: r.day,
      series: (r.kind === "purchase" ? "purchases" : "renewals") as DailySeries,
      count: Number(r.count),
    })),
    ...refunds.map((r) => ({ day: r.day, series: "refunds" as const, count: Number(r.count) })),
    ...revokes.map((r) => ({ day: r.day, series: "revokes" as const, count: Number(r.count) })),
  ];
  const days = fillDays(rows, now, OVERVIEW_DAYS);
  const totals = seriesTotals(days);
  const byKind = activeByKind(activeCounts);
  return {
    generatedAt: now.toISOString(),
    activeByKind: byKind,
    activeTotal: byKind.reduce((sum, k) => sum + k.count, 0),
    trialsRunning,
    trialsEnded: Number(trials[0]?.ended ?? 0),
    trialsConverted: Number(trials[0]?.converted ?? 0),
    mrrCents: monthlyRecurringRevenueCents(renewingCounts),
    renewingByPlan: renewingByPlan(renewingCounts),
    days,
    totals,
    refundRatePercent: refundRatePercent(totals.refunds, totals.purchases + totals.renewals),
    disputes: { chargedBack: disputes("charged_back"), warnings: disputes("warning"), reversed: disputes("reversed") },
  };
}
