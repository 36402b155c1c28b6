import { getPlan, isPlanId, LICENSE_TYPE_LABELS, LICENSE_TYPES, PLAN_IDS } from "./plans";
import { formatMoney } from "./billing";

/**
 * The admin overview's arithmetic (decision 0025): pure, so the server's SQL only counts and these
 * rules are unit-tested. Days are UTC calendar days (YYYY-MM-DD).
 */

export const OVERVIEW_DAYS = 90;
export const CONVERSION_DAYS = 30;

export const DAILY_SERIES = ["purchases", "renewals", "refunds", "revokes"] as const;
export type DailySeries = (typeof DAILY_SERIES)[number];
export const DAILY_SERIES_LABELS: Record<DailySeries, string> = {
  purchases: "New purchases",
  renewals: "Renewals",
  refunds: "Refunds",
  revokes: "Revokes",
};

export type DayPoint = { day: string } & Record<DailySeries, number>;

export interface OverviewView {
  generatedAt: string;
  activeByKind: { kind: string; label: string; count: number }[];
  activeTotal: number;
  trialsRunning: number;
  trialsEnded: number;
  trialsConverted: number;
  mrrCents: number;
  renewingByPlan: { plan: string; label: string; count: number }[];
  days: DayPoint[];
  totals: Record<DailySeries, number>;
  /** Refunds per paid purchase or renewal over the 90 days, in percent with one decimal; null with none paid. */
  refundRatePercent: number | null;
  /**
   * Disputed payments over the 90 days, by where each dispute stands now (decision 0056): charged back
   * (the license revoked), warned of (a chargeback coming), reversed (the license restored).
   */
  disputes: { chargedBack: number; warnings: number; reversed: number };
}

/**
 * Monthly recurring revenue in cents from the renewing subscriptions by plan: a plan's price over
 * its months (monthly 9, 6 months 49.50 / 6, yearly 90 / 12 USD a month), rounded to the cent once.
 */
export function monthlyRecurringRevenueCents(renewingByPlan: Record<string, number>): number {
  let total = 0;
  for (const [plan, count] of Object.entries(renewingByPlan)) {
    if (!isPlanId(plan) || !Number.isFinite(count) || count <= 0) continue;
    const { priceCents, months } = getPlan(plan);
    total += (priceCents * count) / months;
  }
  return Math.round(total);
}

/** "2026-11-23" for the UTC day of a date. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first instant of the window: midnight UTC, `days - 1` days before today (today included). */
export function windowStart(now: Date, days = OVERVIEW_DAYS): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return start;
}

/** Every day of the window, oldest first, with the counted rows filled in and zero elsewhere. */
export function fillDays(
  rows: { day: string; series: DailySeries; count: number }[],
  now: Date,
  days = OVERVIEW_DAYS,
): DayPoint[] {
  const byDay = new Map<string, DayPoint>();
  const start = windowStart(now, days);
  for (let i = 0; i < days; i++) {
    const day = utcDay(new Date(start.getTime() + i * 86_400_000));
    byDay.set(day, { day, purchases: 0, renewals: 0, refunds: 0, revokes: 0 });
  }
  for (const row of rows) {
    const point = byDay.get(row.day);
    if (point && (DAILY_SERIES as readonly string[]).includes(row.series)) point[row.series] += Number(row.count);
  }
  return [...byDay.values()];
}

export function seriesTotals(days: DayPoint[]): Record<DailySeries, number> {
  const totals = { purchases: 0, renewals: 0, refunds: 0, revokes: 0 };
  for (const day of days) for (const series of DAILY_SERIES) totals[series] += day[series];
  return totals;
}

/** Refunds over paid purchases and renewals, in percent rounded to one decimal; null when nothing was paid. */
export function refundRatePercent(refunds: number, paid: number): number | null {
  if (paid <= 0) return null;
  return Math.round((refunds / paid) * 1000) / 10;
}

/**
 * Active licenses by type in the plan table's order, every type listed (zero when none); a license
 * still in its trial counts as "trial".
 */
export function activeByKind(counts: Record<string, number>) {
  return LICENSE_TYPES.map((kind) => ({ kind, label: LICENSE_TYPE_LABELS[kind], count: counts[kind] ?? 0 }));
}

export function renewingByPlan(counts: Record<string, number>) {
  return PLAN_IDS.map((plan) => ({ plan, label: LICENSE_TYPE_LABELS[plan], count: counts[plan] ?? 0 }));
}

/** "$1,234.50" */
export function formatUsdCents(cents: number): string {
  return formatMoney(cents, "USD");
}
