import { addMonths } from "~/domain/extension";
import { getPlan, isPlanId } from "~/domain/plans";
import type { PaddleSubscription } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoShapes, subscriptionCharge } from "./demo-shapes.server";

/**
 * "Start paid plan now" in the demo, as Paddle's POST /subscriptions/{id}/activate does it: only a
 * trialing subscription; it is charged the plan's price now, its billing period starts now, and
 * the charge is announced as transaction.completed and subscription.activated, through the same
 * webhook path as every other payment.
 */
export function demoTrial({ load, save, deliver }: DemoParts): Pick<DemoProvider, "activateTrial"> {
  return {
    async activateTrial(subscriptionId) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      if (sub.status !== "trialing")
        throw new ProviderError(
          `Only subscriptions which have status 'trialing' can be activated. Subscription status is '${sub.status}'`,
        );
      const planId = sub.custom_data?.plan_type;
      if (!isPlanId(planId)) throw new ProviderError(`subscription ${sub.id} has no plan`);
      const plan = getPlan(planId);
      const now = new Date();
      const period = { starts_at: now.toISOString(), ends_at: addMonths(now, plan.months).toISOString() };
      const active: PaddleSubscription & Record<string, unknown> = {
        ...sub,
        status: "active",
        first_billed_at: now.toISOString(),
        current_billing_period: period,
        next_billed_at: period.ends_at,
        items: sub.items.map((item) => ({ ...item, status: "active" })),
      };
      // The plan's price in the subscription's currency (its buyer's country, decision 0072).
      const charge = subscriptionCharge(sub, planId);
      const txn = demoShapes.transaction({
        subscriptionId: sub.id,
        customData: sub.custom_data ?? {},
        priceId: sub.items[0]!.price.id,
        months: plan.months,
        amountCents: charge.totalMinor,
        period,
        origin: "subscription_charge",
        at: now,
        currency: charge.currency,
        taxRate: charge.taxRate,
      });
      await save("subscription", active, sub.id);
      await save("transaction", txn, sub.id);
      await deliver(
        [
          { event_type: "transaction.completed", data: txn },
          { event_type: "subscription.activated", data: active },
        ],
        now,
      );
      return { nextBilledAt: period.ends_at };
    },
  };
}
