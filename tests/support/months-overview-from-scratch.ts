// The admin overview's last six months as they were counted before their summaries (decision 0078): from the
// rows themselves at each view. The integration tests compare the summaries' figures with these.
import { and, eq, gt, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  leavingByMonth,
  monthsStart,
  movementByMonth,
  type MonthsOverview,
  type MovementFact,
} from "~/domain/mrr-movement";
import { PLAN_IDS } from "~/domain/plans";
import { getDb } from "~/server/db/db.server";
import { cancel_answers, licenses, payments, user_events } from "~/server/db/schema";

/**
 * The admin overview's last six months (decision 0065): the cancel step's answers by reason and
 * offer outcome, and MRR movement split into new, expansion, contraction and churn. The database
 * counts (one grouped query per kind of fact, whatever the number of licenses); the pure rules of
 * ~/domain/mrr-movement price and shape them.
 * - new: a personal license's first paid payment (a purchase, or the renewal that ends a trial), at its plan;
 * - expansion and contraction: plan switches (`license.plan_changed` on the customer's timeline);
 * - churn: a personal paid license whose renewal was cancelled and which ended in the month.
 */

type Db = ReturnType<typeof getDb>;

/** A timestamp column's UTC month, "2026-11". */
const monthOf = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC'), 'YYYY-MM')`;

const cancelAnswers = (db: Db, since: Date) =>
  db
    .select({
      month: monthOf(cancel_answers.created_at),
      reason: cancel_answers.reason,
      outcome: cancel_answers.outcome,
      count: sql<number>`count(*)::int`,
    })
    .from(cancel_answers)
    .where(gte(cancel_answers.created_at, since))
    .groupBy(monthOf(cancel_answers.created_at), cancel_answers.reason, cancel_answers.outcome);

/** First paid payments of personal licenses, by month and the license's plan. */
const newSubscriptions = (db: Db, since: Date) => {
  const earlier = alias(payments, "earlier");
  const paidBefore = db
    .select({ one: sql`1` })
    .from(earlier)
    .where(
      and(
        eq(earlier.license_id, payments.license_id),
        gt(earlier.amount_cents, 0),
        lt(earlier.billed_at, payments.billed_at),
      ),
    );
  return db
    .select({ month: monthOf(payments.billed_at), plan: licenses.license_type, count: sql<number>`count(*)::int` })
    .from(payments)
    .innerJoin(licenses, eq(licenses.id, payments.license_id))
    .where(
      and(
        gte(payments.billed_at, since),
        inArray(payments.kind, ["purchase", "renewal"]),
        gt(payments.amount_cents, 0),
        isNull(licenses.team_role),
        sql`not exists (${paidBefore})`,
      ),
    )
    .groupBy(monthOf(payments.billed_at), licenses.license_type);
};

/** Plan switches from the customers' timelines (partial index of migration 0034), by month and plans. */
const planChanges = (db: Db, since: Date) => {
  const from = sql<string>`${user_events.details}->>'from'`;
  const to = sql<string>`${user_events.details}->>'to'`;
  return db
    .select({ month: monthOf(user_events.at), from, to, count: sql<number>`count(*)::int` })
    .from(user_events)
    .where(and(eq(user_events.kind, "license.plan_changed"), gte(user_events.at, since)))
    .groupBy(monthOf(user_events.at), from, to);
};

/** Personal paid licenses whose renewal was cancelled and that ended in the window (partial index of migration 0034). */
const endedSubscriptions = (db: Db, since: Date, now: Date) =>
  db
    .select({ month: monthOf(licenses.end_date), plan: licenses.license_type, count: sql<number>`count(*)::int` })
    .from(licenses)
    .where(
      and(
        inArray(licenses.license_type, [...PLAN_IDS]),
        eq(licenses.is_trial, false),
        eq(licenses.cancellation_requested, true),
        isNull(licenses.team_role),
        gte(licenses.end_date, since),
        lte(licenses.end_date, now),
      ),
    )
    .groupBy(monthOf(licenses.end_date), licenses.license_type);

export async function monthsOverviewFromScratch(now = new Date()): Promise<MonthsOverview> {
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
