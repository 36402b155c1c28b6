import { and, eq, sql } from "drizzle-orm";
import { addMonths } from "~/domain/extension";
import { getPlan, type PlanId } from "~/domain/plans";
import { discountedCents } from "~/domain/renewal-charge";
import { demo_billing } from "../../db/schema";
import type { PaddleSubscription } from "../paddle-events.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider, RenewOutcome } from "./demo-provider-type.server";
import { demoShapes, subscriptionCharge } from "./demo-shapes.server";
import type { DemoDiscount } from "./demo-subscription-changes.server";

/**
 * The demo's renewals: each live subscription billed for its next period (or ended, when its
 * cancellation was scheduled). A past-due one is left to the provider's recover (demo-past-due).
 */
export function demoRenewals(parts: DemoParts, provider: () => DemoProvider): Pick<DemoProvider, "renew" | "renewAll"> {
  return {
    async renew(subscriptionId, now = new Date()) {
      const sub = await parts.load<PaddleSubscription>(subscriptionId, "subscription");
      // A past-due subscription is charged again for the renewal it owes, not for a new period.
      if (sub.status === "past_due") return provider().recover(subscriptionId, now);
      if (sub.status === "canceled" || sub.status === "paused" || !sub.current_billing_period) {
        return { subscriptionId, outcome: "skipped", reason: `the subscription is ${sub.status}` };
      }
      if (sub.scheduled_change?.action === "cancel") return endSubscription(parts, sub, now);
      return billNextPeriod(parts, sub, now);
    },

    async renewAll(now = new Date()) {
      const rows = await parts
        .db()
        .select({ id: demo_billing.id })
        .from(demo_billing)
        .where(
          and(
            eq(demo_billing.kind, "subscription"),
            sql`${demo_billing.data} ->> 'status' in ('active', 'trialing', 'past_due')`,
          ),
        );
      const outcomes: RenewOutcome[] = [];
      for (const row of rows) outcomes.push(await provider().renew(row.id, now));
      return outcomes;
    },
  };
}

/** A subscription whose cancellation was scheduled ends at its period's end. */
async function endSubscription(
  { save, deliver }: DemoParts,
  sub: PaddleSubscription,
  now: Date,
): Promise<RenewOutcome> {
  const canceled: PaddleSubscription = {
    ...sub,
    status: "canceled",
    canceled_at: sub.current_billing_period!.ends_at,
    scheduled_change: null,
    next_billed_at: null,
    current_billing_period: null,
    items: sub.items.map((item) => ({ ...item, status: "inactive" })),
  };
  await save("subscription", canceled, sub.id);
  await deliver([{ event_type: "subscription.canceled", data: canceled }], now);
  return { subscriptionId: sub.id, outcome: "canceled" };
}

/** The next period, paid: a recurring transaction and the subscription moved on (a trial becomes active). */
async function billNextPeriod({ save, deliver }: DemoParts, sub: PaddleSubscription, now: Date): Promise<RenewOutcome> {
  const subscriptionId = sub.id;
  const periodEnd = sub.current_billing_period!.ends_at;
  const planId = sub.custom_data?.plan_type as PlanId;
  const plan = getPlan(planId);
  const start = new Date(periodEnd);
  const period = { starts_at: start.toISOString(), ends_at: addMonths(start, plan.months).toISOString() };
  const wasTrialing = sub.status === "trialing";
  // A team's subscription bills each seat.
  const quantity = Number((sub.items[0] as { quantity?: unknown } | undefined)?.quantity ?? 1) || 1;
  // A discount given from this period (the cancel step's offer, decision 0065) takes its percent off, once.
  const { discount, ...rest } = sub as PaddleSubscription & { discount?: DemoDiscount | null };
  // The plan's price in the subscription's currency (its buyer's country, decision 0072).
  const charge = subscriptionCharge(sub, planId);
  const priceCents = discount ? discountedCents(charge.totalMinor, discount.demo_percent) : charge.totalMinor;
  const renewed: PaddleSubscription = {
    ...rest,
    status: "active",
    current_billing_period: period,
    next_billed_at: period.ends_at,
    items: sub.items.map((item) => ({ ...item, status: "active" })),
  };
  const txn = demoShapes.transaction({
    subscriptionId,
    customData: sub.custom_data ?? {},
    priceId: sub.items[0]!.price.id,
    months: plan.months,
    amountCents: priceCents * quantity,
    period,
    origin: "subscription_recurring",
    at: now,
    quantity,
    currency: charge.currency,
    taxRate: charge.taxRate,
  });
  await save("subscription", renewed, sub.id);
  await save("transaction", txn, sub.id);
  await deliver(
    [
      { event_type: "transaction.completed", data: txn },
      { event_type: wasTrialing ? "subscription.activated" : "subscription.updated", data: renewed },
    ],
    now,
  );
  return { subscriptionId, outcome: "renewed", transactionId: txn.id, periodEnd: period.ends_at };
}
