import { and, eq, gt, gte, isNotNull, lt, lte, sql } from "drizzle-orm";
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
import { getDb } from "../db/db.server";
import {
  admin_license_days,
  admin_payment_days,
  admin_refund_days,
  admin_trial_days,
  audit_log,
  licenses,
  payments,
} from "../db/schema";

const DAY = 86_400_000;

/** A timestamp column's UTC calendar day (a date: cheap to group by; formatted once per group). */
const utcDayOf = (column: unknown) => sql`((${column} at time zone 'UTC')::date)`;
const dayText = (day: ReturnType<typeof utcDayOf>) => sql<string>`to_char(${day}, 'YYYY-MM-DD')`;

type Db = ReturnType<typeof getDb>;

/** A UTC day as the summaries key it, "2026-11-28". */
const dayKey = (at: Date) => at.toISOString().slice(0, 10);
/** The start of `at`'s UTC day. */
const dayStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * Active, not yet ended licenses per type and trial flag, with how many of them renew: those ending
 * after today from the summary, today's from the licenses themselves (those not ended by `now`).
 */
const activeLicenses = (db: Db, now: Date) => {
  const tomorrow = new Date(dayStart(now).getTime() + DAY);
  // One statement: a round trip each is most of the cost on the embedded database.
  return db
    .select({
      type: admin_license_days.license_type,
      trial: admin_license_days.is_trial,
      count: sql<number>`sum(${admin_license_days.count})::int`,
      renewing: sql<number>`coalesce(sum(${admin_license_days.count}) filter (where ${admin_license_days.auto_renew}), 0)::int`,
    })
    .from(admin_license_days)
    .where(and(eq(admin_license_days.status, "active"), gte(admin_license_days.end_day, dayKey(tomorrow))))
    .groupBy(admin_license_days.license_type, admin_license_days.is_trial)
    .unionAll(
      db
        .select({
          type: licenses.license_type,
          trial: licenses.is_trial,
          count: sql<number>`count(*)::int`,
          renewing: sql<number>`(count(*) filter (where ${licenses.auto_renew}))::int`,
        })
        .from(licenses)
        .where(and(eq(licenses.status, "active"), gt(licenses.end_date, now), lt(licenses.end_date, tomorrow)))
        .groupBy(licenses.license_type, licenses.is_trial),
    );
};

/**
 * Trials that ended in the conversion window, and how many of them were then paid for: the whole days
 * between its ends from the summary, the partial first day and today from the licenses themselves.
 */
const endedTrials = async (db: Db, now: Date) => {
  const from = new Date(now.getTime() - CONVERSION_DAYS * DAY);
  const fromNextDay = new Date(dayStart(from).getTime() + DAY);
  const today = dayStart(now);
  const live = (after: Date, before: Date, beforeIncluded: boolean) =>
    db
      .select({
        ended: sql<number>`count(*)::int`,
        converted: sql<number>`(count(*) filter (where not ${licenses.is_trial}))::int`,
      })
      .from(licenses)
      .where(
        and(
          isNotNull(licenses.trial_starts_at),
          gte(licenses.trial_ends_at, after),
          beforeIncluded ? lte(licenses.trial_ends_at, before) : lt(licenses.trial_ends_at, before),
        ),
      );
  const rows = await live(from, fromNextDay, false).unionAll(
    db
      .select({
        ended: sql<number>`coalesce(sum(${admin_trial_days.count}), 0)::int`,
        converted: sql<number>`coalesce(sum(${admin_trial_days.count}) filter (where not ${admin_trial_days.is_trial}), 0)::int`,
      })
      .from(admin_trial_days)
      .where(
        and(
          gte(admin_trial_days.trial_end_day, dayKey(fromNextDay)),
          lt(admin_trial_days.trial_end_day, dayKey(today)),
        ),
      )
      .unionAll(live(today, now, true)),
  );
  return {
    ended: rows.reduce((sum, row) => sum + Number(row.ended), 0),
    converted: rows.reduce((sum, row) => sum + Number(row.converted), 0),
  };
};

/** Paid purchases and renewals, and refunds ("refund"), per UTC day since the window's start (summaries). */
const paidAndRefundedPerDay = (db: Db, since: Date) =>
  db
    .select({
      day: sql<string>`to_char(${admin_payment_days.day}, 'YYYY-MM-DD')`,
      kind: sql<string>`${admin_payment_days.kind}`,
      count: admin_payment_days.count,
    })
    .from(admin_payment_days)
    .where(and(gte(admin_payment_days.day, dayKey(since)), gt(admin_payment_days.count, 0)))
    .unionAll(
      db
        .select({
          day: sql<string>`to_char(${admin_refund_days.day}, 'YYYY-MM-DD')`,
          kind: sql<string>`'refund'`,
          count: admin_refund_days.count,
        })
        .from(admin_refund_days)
        .where(and(gte(admin_refund_days.day, dayKey(since)), gt(admin_refund_days.count, 0))),
    );

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
 * The overview's figures (decision 0025), read from the summaries the database keeps as licenses and
 * payments change (decision 0078, migration 0041) and, for today and the few rows a summary cannot
 * hold, counted through the overview's indexes of migration 0012; then shaped by the pure rules of
 * ~/domain/admin-overview:
 * - active licenses: status active and not yet ended; one still in its trial counts as a trial;
 * - renewing subscriptions (MRR): active, not ended, renewing, past the trial, of a plan;
 * - trials converted: trials that ended in the last 30 days and were then paid for;
 * - per day for 90 days: paid purchases and renewals (payments), refunds (refunded_at), revokes (audit log);
 * - disputes over 90 days: payments whose chargeback, warning or reversal arrived in the window.
 */
export async function getOverview(now = new Date()): Promise<OverviewView> {
  const db = getDb();
  const since = windowStart(now, OVERVIEW_DAYS);
  const [active, trials, perDay, revokes, disputed] = await Promise.all([
    activeLicenses(db, now),
    endedTrials(db, now),
    paidAndRefundedPerDay(db, since),
    revokesPerDay(db, since),
    disputesSince(db, since),
  ]);
  const paid = perDay.filter((r) => r.kind !== "refund");
  const refunds = perDay.filter((r) => r.kind === "refund");
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
    trialsEnded: trials.ended,
    trialsConverted: trials.converted,
    mrrCents: monthlyRecurringRevenueCents(renewingCounts),
    renewingByPlan: renewingByPlan(renewingCounts),
    days,
    totals,
    refundRatePercent: refundRatePercent(totals.refunds, totals.purchases + totals.renewals),
    disputes: { chargedBack: disputes("charged_back"), warnings: disputes("warning"), reversed: disputes("reversed") },
  };
}
