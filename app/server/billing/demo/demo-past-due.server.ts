import { and, desc, eq, sql } from "drizzle-orm";
import { addMonths } from "~/domain/extension";
import { getPlan, type PlanId } from "~/domain/plans";
import type { Database } from "../../db/client.server";
import { demo_billing, type DemoBillingKind } from "../../db/schema";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoShapes, subscriptionCharge } from "./demo-shapes.server";
import type { PaddleSubscription, PaddleTransaction } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";

/**
 * A renewal whose card is declined, as Paddle shapes it: the charge that failed, the same transaction
 * past due, and the subscription past due in the period it could not collect for.
 */
function declinedRenewal(sub: PaddleSubscription, subscriptionId: string, now: Date) {
  const planId = sub.custom_data?.plan_type as PlanId;
  const plan = getPlan(planId);
  // The plan's price in the subscription's currency (its buyer's country, decision 0072).
  const charge = subscriptionCharge(sub, planId);
  const start = new Date(sub.current_billing_period!.ends_at); // the caller checked it is there
  const period = { starts_at: start.toISOString(), ends_at: addMonths(start, plan.months).toISOString() };
  // A team's subscription bills each seat, as its paid renewal does.
  const quantity = Number((sub.items[0] as { quantity?: unknown } | undefined)?.quantity ?? 1) || 1;
  const charged = demoShapes.transaction({
    subscriptionId,
    customData: sub.custom_data ?? {},
    priceId: sub.items[0]!.price.id,
    months: plan.months,
    amountCents: charge.totalMinor * quantity,
    period,
    origin: "subscription_recurring",
    at: now,
    quantity,
    currency: charge.currency,
    taxRate: charge.taxRate,
  });
  const declined = [{ status: "error", error_code: "declined", method_details: { type: "card" } }];
  const failed = { ...charged, status: "billed", billed_at: null, payments: declined };
  const pastDueTxn = { ...failed, status: "past_due" };
  // Paddle moves a past-due subscription to the period it could not collect for.
  const pastDue: PaddleSubscription = {
    ...sub,
    status: "past_due",
    current_billing_period: period,
    next_billed_at: period.ends_at,
    items: sub.items.map((item) => ({ ...item, status: "active" })),
  };
  return { failed, pastDueTxn, pastDue };
}

/** The past-due renewal paid at last: the transaction completed and the subscription active in its period. */
function recoveredRenewal(sub: PaddleSubscription, open: PaddleTransaction, now: Date) {
  const paid = {
    ...open,
    status: "completed",
    billed_at: now.toISOString(),
    updated_at: now.toISOString(),
    payments: [{ status: "captured", method_details: { type: "card" } }],
  };
  const period = open.billing_period!;
  const active: PaddleSubscription = {
    ...sub,
    status: "active",
    current_billing_period: period,
    next_billed_at: period.ends_at,
  };
  return { paid, active, period };
}

/**
 * The demo provider's payment problems (decision 0023): a renewal whose card is declined (the
 * transaction and the subscription past due, as Paddle announces them) and its recovery, by the
 * demo overlay's new payment method or the next demo:renew.
 */
export function demoPastDue({
  load,
  save,
  deliver,
  db,
}: {
  load: <T>(id: string, kind: DemoBillingKind) => Promise<T>;
  save: (kind: DemoBillingKind, data: { id: string }, subscriptionId: string | null) => Promise<void>;
  deliver: (events: { event_type: string; data: PaddleSubscription | PaddleTransaction }[], at?: Date) => Promise<void>;
  db: () => Database;
}): Pick<DemoProvider, "failRenewal" | "recover" | "paymentMethodUpdate"> {
  /** The newest renewal of a subscription whose charge failed and is still due. */
  async function pastDueTransaction(subscriptionId: string): Promise<PaddleTransaction | undefined> {
    const [row] = await db()
      .select({ data: demo_billing.data })
      .from(demo_billing)
      .where(
        and(
          eq(demo_billing.kind, "transaction"),
          eq(demo_billing.subscription_id, subscriptionId),
          sql`${demo_billing.data} ->> 'status' = 'past_due'`,
        ),
      )
      .orderBy(desc(demo_billing.created_at))
      .limit(1);
    return row?.data as PaddleTransaction | undefined;
  }

  return {
    async failRenewal(subscriptionId, now = new Date()) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      if ((sub.status !== "active" && sub.status !== "trialing") || !sub.current_billing_period) {
        return { subscriptionId, outcome: "skipped", reason: `the subscription is ${sub.status}` };
      }
      if (sub.scheduled_change?.action === "cancel") {
        return { subscriptionId, outcome: "skipped", reason: "its cancellation is scheduled; it will not be charged" };
      }
      const { failed, pastDueTxn, pastDue } = declinedRenewal(sub, subscriptionId, now);
      await save("transaction", pastDueTxn, sub.id);
      await save("subscription", pastDue, sub.id);
      await deliver(
        [
          { event_type: "transaction.payment_failed", data: failed },
          { event_type: "transaction.past_due", data: pastDueTxn },
          { event_type: "subscription.past_due", data: pastDue },
        ],
        now,
      );
      return { subscriptionId, outcome: "payment-failed", transactionId: pastDueTxn.id };
    },

    async recover(subscriptionId, now = new Date()) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      const open = await pastDueTransaction(subscriptionId);
      if (sub.status !== "past_due" || !open) {
        return { subscriptionId, outcome: "skipped", reason: `the subscription is ${sub.status}, nothing is due` };
      }
      const { paid, active, period } = recoveredRenewal(sub, open, now);
      await save("transaction", paid, sub.id);
      await save("subscription", active, sub.id);
      await deliver(
        [
          { event_type: "transaction.completed", data: paid },
          { event_type: "subscription.updated", data: active },
        ],
        now,
      );
      return { subscriptionId, outcome: "renewed", transactionId: paid.id, periodEnd: period.ends_at };
    },

    async paymentMethodUpdate(subscriptionId) {
      const open = await pastDueTransaction(subscriptionId);
      if (!open) throw new ProviderError(`subscription ${subscriptionId} has no past-due transaction`);
      return { transactionId: open.id };
    },
  };
}
