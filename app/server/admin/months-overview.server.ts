import { and, eq, gt, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import {
  leavingByMonth,
  monthsStart,
  movementByMonth,
  type MonthsOverview,
  type MovementFact,
} from "~/domain/mrr-movement";
import { PLAN_IDS } from "~/domain/plans";
import { getDb } from "../db/db.server";
import {
  admin_cancel_months,
  admin_license_days,
  admin_new_months,
  admin_plan_change_months,
  licenses,
} from "../db/schema";

/**
 * The admin overview's last six months (decision 0065): the cancel step's answers by reason and
 * offer outcome, and MRR movement split into new, expansion, contraction and churn. The database
 * keeps them counted by month as the rows change (decision 0078, migration 0041): the card reads a few
 * dozen summary rows, and today's ended subscriptions; the pure rules of ~/domain/mrr-movement price
 * and shape them.
 * - new: a personal license's first paid payment (a purchase, or the renewal that ends a trial), at its plan;
 * - expansion and contraction: plan switches (`license.plan_changed` on the customer's timeline);
 * - churn: a personal paid license whose renewal was cancelled and which ended in the month.
 */

type Db = ReturnType<typeof getDb>;

/** A timestamp column's UTC month, "2026-11". */
const monthOf = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC'), 'YYYY-MM')`;
/** The summaries' month of a moment, "2026-11". */
const monthKey = (at: Date) => at.toISOString().slice(0, 7);
const DAY = 86_400_000;

const cancelAnswers = (db: Db, since: Date) =>
  db
    .select({
      month: admin_cancel_months.month,
      reason: admin_cancel_months.reason,
      outcome: admin_cancel_months.outcome,
      count: admin_cancel_months.count,
    })
    .from(admin_cancel_months)
    .where(and(gte(admin_cancel_months.month, monthKey(since)), gt(admin_cancel_months.count, 0)));

/** First paid payments of personal licenses, by month and the license's plan. */
const newSubscriptions = (db: Db, since: Date) =>
  db
    .select({ month: admin_new_months.month, plan: admin_new_months.license_type, count: admin_new_months.count })
    .from(admin_new_months)
    .where(and(gte(admin_new_months.month, monthKey(since)), gt(admin_new_months.count, 0)));

/** Plan switches from the customers' timelines, by month and plans. */
const planChanges = (db: Db, since: Date) =>
  db
    .select({
      month: admin_plan_change_months.month,
      // As the timeline's details hold them (a switch always names both plans).
      from: sql<string>`${admin_plan_change_months.from_plan}`,
      to: sql<string>`${admin_plan_change_months.to_plan}`,
      count: admin_plan_change_months.count,
    })
    .from(admin_plan_change_months)
    .where(and(gte(admin_plan_change_months.month, monthKey(since)), gt(admin_plan_change_months.count, 0)));

/**
 * Personal paid licenses whose renewal was cancelled and that ended in the window: the days before
 * today from the summary, today's (ended by `now`) from the licenses (partial index of migration 0034).
 */
const endedSubscriptions = async (db: Db, since: Date, now: Date) => {
  const today = new Date(Math.floor(now.getTime() / DAY) * DAY);
  const days = admin_license_days;
  const [before, todays] = await Promise.all([
    db
      .select({
        month: sql<string>`to_char(${days.end_day}, 'YYYY-MM')`,
        plan: days.license_type,
        count: sql<number>`sum(${days.count})::int`,
      })
      .from(days)
      .where(
        and(
          inArray(days.license_type, [...PLAN_IDS]),
          eq(days.is_trial, false),
          eq(days.cancellation_requested, true),
          eq(days.personal, true),
          gte(days.end_day, since.toISOString().slice(0, 10)),
          lt(days.end_day, today.toISOString().slice(0, 10)),
        ),
      )
      .groupBy(sql`to_char(${days.end_day}, 'YYYY-MM')`, days.license_type),
    db
      .select({ month: monthOf(licenses.end_date), plan: licenses.license_type, count: sql<number>`count(*)::int` })
      .from(licenses)
      .where(
        and(
          inArray(licenses.license_type, [...PLAN_IDS]),
          eq(licenses.is_trial, false),
          eq(licenses.cancellation_requested, true),
          isNull(licenses.team_role),
          gte(licenses.end_date, today > since ? today : since),
          lte(licenses.end_date, now),
        ),
      )
      .groupBy(monthOf(licenses.end_date), licenses.license_type),
  ]);
  return [...before, ...todays];
};

export async function getMonthsOverview(now = new Date()): Promise<MonthsOverview> {
  const db = getDb();
  const since = monthsStart(now);
  const [answers, started, switched, ended] = await Promise.all([
    cancelAnswers(db, since),
    newSubscriptions(db, since),
    planChanges(db, since),
    endedSubscriptions(db, since, now),
  ]);
  const facts: { month: string; fact: MovementFact; count: number }[] = [
    ...started.map((r) => ({ month: r.month, fact: { kind: "new", plan: r.plan } as const, count: r.count })),
    ...switched.map((r) => ({
      month: r.month,
      fact: { kind: "plan-change", from: r.from, to: r.to } as const,
      count: r.count,
    })),
    ...ended.map((r) => ({ month: r.month, fact: { kind: "churn", plan: r.plan } as const, count: r.count })),
  ];
  return { movement: movementByMonth(facts, now), leaving: leavingByMonth(answers, now) };
}
