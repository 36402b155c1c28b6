import type { PaddleSubscription } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";

/** The subscriber's changes to a demo subscription: a cancellation scheduled at the period's end, or taken back. */
export function demoSubscriptionChanges({
  load,
  save,
  deliver,
}: DemoParts): Pick<DemoProvider, "cancelAtPeriodEnd" | "removeScheduledCancel" | "cancelNow" | "applyDiscount"> {
  async function updateSubscription(subscriptionId: string, change: (sub: PaddleSubscription) => PaddleSubscription) {
    const sub = change(await load<PaddleSubscription>(subscriptionId, "subscription"));
    await save("subscription", sub, sub.id);
    await deliver([{ event_type: "subscription.updated", data: sub }]);
  }

  return {
    async cancelAtPeriodEnd(subscriptionId) {
      await updateSubscription(subscriptionId, (sub) => {
        refusePastDue(sub);
        if (sub.status === "canceled" || !sub.current_billing_period)
          throw new ProviderError(`subscription ${sub.id} is ${sub.status}`);
        return {
          ...sub,
          scheduled_change: { action: "cancel", effective_at: sub.current_billing_period.ends_at, resume_at: null },
        };
      });
    },

    async removeScheduledCancel(subscriptionId) {
      await updateSubscription(subscriptionId, (sub) => {
        refusePastDue(sub);
        if (sub.status === "canceled") throw new ProviderError(`subscription ${sub.id} is canceled`);
        return { ...sub, scheduled_change: null };
      });
    },

    // Paddle's discount from the next billing period (decision 0065); the demo keeps its percent
    // beside it, which the next renewal takes off its charge (demo-renewals.server.ts), once.
    async applyDiscount({ subscriptionId, discountId, percent }) {
      await updateSubscription(subscriptionId, (sub) => {
        refusePastDue(sub);
        if (sub.status !== "active" || !sub.current_billing_period)
          throw new ProviderError(`subscription ${sub.id} is ${sub.status}`);
        const discount: DemoDiscount = {
          id: discountId,
          starts_at: sub.current_billing_period.ends_at,
          ends_at: null,
          demo_percent: percent,
        };
        return { ...sub, discount } as PaddleSubscription;
      });
    },

    // Paddle's immediate cancel: accepted for an active or past-due subscription; its past-due
    // renewal is not charged any more. Announced as Paddle does, subscription.canceled.
    async cancelNow(subscriptionId) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      if (sub.status === "canceled") throw new ProviderError(`subscription ${sub.id} is canceled`);
      const now = new Date().toISOString();
      const canceled: PaddleSubscription = {
        ...sub,
        status: "canceled",
        canceled_at: now,
        next_billed_at: null,
        scheduled_change: null,
      };
      await save("subscription", canceled, sub.id);
      await deliver([{ event_type: "subscription.canceled", data: canceled }]);
    },
  };
}

/** A subscription's discount as Paddle shows it, with the percent the demo's renewal takes off. */
export interface DemoDiscount {
  id: string;
  starts_at: string;
  ends_at: string | null;
  demo_percent: number;
}

/** Paddle refuses every change to a past-due subscription but an immediate cancel; so does the demo. */
export function refusePastDue(sub: PaddleSubscription): void {
  if (sub.status === "past_due")
    throw new ProviderError(`subscription_update_when_past_due: subscription ${sub.id} is past due`);
}
