import { computePlanSwitchPreview } from "~/domain/plan-switch";
import { getPlan } from "~/domain/plans";
import type { PaddleSubscription } from "../paddle-events.server";
import { ProviderError, type PlanChangeInput } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoShapes, subscriptionCharge } from "./demo-shapes.server";
import { refusePastDue } from "./demo-subscription-changes.server";

/**
 * A plan switch in the demo, as Paddle's PATCH /subscriptions/{id}(/preview) does it (decision
 * 0061): the preview computed by the same rule the site shows; the change replaces the item's price.
 * prorated_immediately starts a new period of the new plan now and charges it less the unused part
 * of the old one (a transaction with origin subscription_update); do_not_bill keeps the period and
 * bills the new price from its end. A team's subscription keeps its seats (the item's quantity).
 * Announced as Paddle's events, through the same webhook path.
 */
export function demoPlanChange({
  load,
  save,
  deliver,
}: DemoParts): Pick<DemoProvider, "previewPlanChange" | "changePlan"> {
  async function preview(input: PlanChangeInput, now: Date) {
    const sub = await load<PaddleSubscription>(input.subscriptionId, "subscription");
    refusePastDue(sub);
    const period = sub.current_billing_period;
    if (sub.status !== "active" || !period) throw new ProviderError(`subscription ${sub.id} is ${sub.status}`);
    const range = { start: new Date(period.starts_at), end: new Date(period.ends_at) };
    const result = computePlanSwitchPreview({
      ...input,
      period: range,
      now,
      extendedMonths: input.extendedMonths,
      seats: input.quantity,
      // The plans' prices in the subscription's currency (its buyer's country, decision 0072).
      prices: {
        currency: subscriptionCharge(sub, input.to).currency,
        of: (plan) => subscriptionCharge(sub, plan).totalMinor,
      },
    });
    return { sub, result };
  }

  return {
    async previewPlanChange(input) {
      return (await preview(input, new Date())).result;
    },

    async changePlan(input) {
      const now = new Date();
      const { sub, result } = await preview(input, now);
      const plan = getPlan(input.to);
      const immediate = input.proration === "prorated_immediately";
      const period = immediate
        ? { starts_at: now.toISOString(), ends_at: result.nextChargeAt }
        : sub.current_billing_period!;
      const updated: PaddleSubscription & Record<string, unknown> = {
        ...sub,
        // The demo's renewals bill the plan its custom data names: the new one from now on.
        custom_data: { ...sub.custom_data, plan_type: input.to },
        billing_cycle: { interval: "month", frequency: plan.months },
        current_billing_period: period,
        next_billed_at: period.ends_at,
        items: sub.items.map((item, index) =>
          index === 0 ? { ...item, price: { ...item.price, id: input.priceId, trial_period: null } } : item,
        ),
      };
      await save("subscription", updated, sub.id);
      if (!immediate) {
        await deliver([{ event_type: "subscription.updated", data: updated }], now);
        return;
      }
      const txn = demoShapes.transaction({
        subscriptionId: sub.id,
        customData: updated.custom_data ?? {},
        priceId: input.priceId,
        months: plan.months,
        amountCents: result.chargedNowCents,
        period,
        origin: "subscription_update",
        at: now,
        quantity: input.quantity ?? 1,
        currency: result.currency,
        taxRate: subscriptionCharge(sub, input.to).taxRate,
      });
      await save("transaction", txn, sub.id);
      await deliver(
        [
          { event_type: "subscription.updated", data: updated },
          { event_type: "transaction.completed", data: txn },
        ],
        now,
      );
    },
  };
}
