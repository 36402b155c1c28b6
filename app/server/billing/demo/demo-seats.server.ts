import { refusePastDue } from "./demo-subscription-changes.server";
import { proratedCents } from "~/domain/team-seats";
import { getPlan, isPlanId } from "~/domain/plans";
import type { PaddleSubscription } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoShapes, subscriptionCharge } from "./demo-shapes.server";

/**
 * The prorated charge's line as Paddle's subscription_update transaction shows it: the added
 * quantity, charged for the part of the period left (details.line_items[].proration).
 */
function prorationShape<T extends { details?: unknown }>(
  txn: T,
  added: number,
  range: { start: Date; end: Date },
  now: Date,
): T {
  const details = txn.details as { line_items: Record<string, unknown>[] };
  const [line, ...rest] = details.line_items;
  const total = range.end.getTime() - range.start.getTime();
  const rate = total > 0 ? Math.max(0, Math.min(1, (range.end.getTime() - now.getTime()) / total)) : 0;
  const billing_period = { starts_at: now.toISOString(), ends_at: range.end.toISOString() };
  const proration = { rate: rate.toFixed(4), billing_period };
  return { ...txn, details: { ...details, line_items: [{ ...line, quantity: added, proration }, ...rest] } };
}

/**
 * A team subscription's seat count changed in the demo, as Paddle's subscription update does: the
 * item's quantity; with proration_billing_mode prorated_immediately, a transaction (origin
 * subscription_update) for the added seats' share of the period left, paid at once.
 */
export function demoSeats({ load, save, deliver }: DemoParts): Pick<DemoProvider, "updateSeats"> {
  return {
    async updateSeats({ subscriptionId, priceId, quantity, proration }) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      const period = sub.current_billing_period;
      refusePastDue(sub);
      if (sub.status === "canceled" || !period) throw new ProviderError(`subscription ${sub.id} is ${sub.status}`);
      const item = sub.items[0] as (PaddleSubscription["items"][number] & { quantity?: number }) | undefined;
      const before = Number(item?.quantity ?? 1);
      const now = new Date();
      const updated: PaddleSubscription = {
        ...sub,
        items: sub.items.map((it, index) => (index === 0 ? { ...it, quantity } : it)),
      };
      await save("subscription", updated, sub.id);
      const planId = sub.custom_data?.plan_type;
      if (proration === "prorated_immediately" && quantity > before && isPlanId(planId)) {
        const range = { start: new Date(period.starts_at), end: new Date(period.ends_at) };
        // A seat's price in the subscription's currency (its buyer's country, decision 0072).
        const charge = subscriptionCharge(sub, planId);
        const charged = demoShapes.transaction({
          subscriptionId,
          customData: sub.custom_data ?? {},
          priceId,
          months: getPlan(planId).months,
          amountCents: proratedCents(charge.totalMinor, quantity - before, range, now),
          period,
          origin: "subscription_update",
          at: now,
          quantity,
          currency: charge.currency,
          taxRate: charge.taxRate,
        });
        const txn = prorationShape(charged, quantity - before, range, now);
        await save("transaction", txn, sub.id);
        await deliver(
          [
            { event_type: "subscription.updated", data: updated },
            { event_type: "transaction.completed", data: txn },
          ],
          now,
        );
        return;
      }
      await deliver([{ event_type: "subscription.updated", data: updated }], now);
    },
  };
}
