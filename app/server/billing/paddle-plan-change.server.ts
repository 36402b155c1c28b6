import type { Paddle, SubscriptionPreview } from "@paddle/paddle-node-sdk";
import { addMonths } from "~/domain/extension";
import { getPlan } from "~/domain/plans";
import type { PlanSwitchPreview } from "~/domain/plan-switch";
import { planSwitchEffect } from "~/domain/plan-switch";
import { ProviderError, type PaymentProvider, type PlanChangeInput } from "./payment-provider.server";

/**
 * A plan switch with Paddle (decision 0061): PATCH /subscriptions/{id}/preview to show it, PATCH
 * /subscriptions/{id} to make it, both with the whole new `items` (one item, the new plan's price)
 * and the proration_billing_mode (a team's: its seats as the item's quantity, decision 0074). The
 * preview's answer is read into the site's own shape.
 */

const cents = (amount: string | null | undefined) => {
  const value = Number(amount ?? 0);
  return Number.isFinite(value) ? Math.round(value) : 0;
};

const body = ({ priceId, proration, quantity }: PlanChangeInput) => ({
  items: [{ priceId, quantity: quantity ?? 1 }],
  prorationBillingMode: proration,
});

/** Paddle's preview of a switch as the card shows it: charged or credited now, the next charge, the license after. */
export function readPaddlePreview(input: PlanChangeInput, preview: SubscriptionPreview): PlanSwitchPreview {
  const summary = preview.updateSummary;
  const next = preview.nextTransaction;
  const nextChargeAt = preview.nextBilledAt ?? next?.billingPeriod.startsAt ?? preview.currentBillingPeriod?.endsAt;
  const periodEnd = preview.currentBillingPeriod?.endsAt ?? nextChargeAt;
  if (!nextChargeAt || !periodEnd) throw new ProviderError("Paddle's preview has no next billing date");
  return {
    from: input.from,
    to: input.to,
    effect: planSwitchEffect(input.from, input.to),
    chargedNowCents: summary?.result.action === "charge" ? cents(summary.result.amount) : 0,
    creditCents: cents(summary?.credit.amount),
    currency: preview.currencyCode,
    nextChargeCents: cents(next?.details.totals.grandTotal ?? next?.details.totals.total),
    nextChargeAt: new Date(nextChargeAt).toISOString(),
    becomes: {
      plan: input.to,
      endDate: addMonths(new Date(periodEnd), input.extendedMonths).toISOString(),
      machines: getPlan(input.to).machines,
      ...(input.quantity === undefined ? {} : { seats: input.quantity }),
    },
  };
}

export function paddlePlanChange(
  paddle: () => Paddle,
  call: <T>(what: string, run: () => Promise<T>) => Promise<T>,
): Pick<PaymentProvider, "previewPlanChange" | "changePlan"> {
  return {
    previewPlanChange: async (input) => {
      const preview = await call("plan change preview", () =>
        paddle().subscriptions.previewUpdate(input.subscriptionId, body(input)),
      );
      return readPaddlePreview(input, preview);
    },
    changePlan: async (input) => {
      await call("plan change", () => paddle().subscriptions.update(input.subscriptionId, body(input)));
    },
  };
}
