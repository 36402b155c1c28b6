import type { PaddleSubscription } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";

/** The subscriber's changes to a demo subscription: a cancellation scheduled at the period's end, or taken back. */
export function demoSubscriptionChanges({
  load,
  save,
  deliver,
}: DemoParts): Pick<DemoProvider, "cancelAtPeriodEnd" | "removeScheduledCancel"> {
  async function updateSubscription(subscriptionId: string, change: (sub: PaddleSubscription) => PaddleSubscription) {
    const sub = change(await load<PaddleSubscription>(subscriptionId, "subscription"));
    await save("subscription", sub, sub.id);
    await deliver([{ event_type: "subscription.updated", data: sub }]);
  }

  return {
    async cancelAtPeriodEnd(subscriptionId) {
      await updateSubscription(subscriptionId, (sub) => {
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
        if (sub.status === "canceled") throw new ProviderError(`subscription ${sub.id} is canceled`);
        return { ...sub, scheduled_change: null };
      });
    },
  };
}
