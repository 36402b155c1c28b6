import { DEMO_DISCOUNTS, discountedCents, pricedCountry } from "~/domain/discount-codes";
import { demoCharge } from "~/domain/demo-prices";
import { getPlan, isPlanId, TRIAL_DAYS } from "~/domain/plans";
import type { PaddleTransaction } from "../paddle-events.server";
import { ProviderError, type PlanCheckoutInput } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoId, demoShapes, subscriptionCharge, type DemoCountry } from "./demo-shapes.server";

/**
 * A plan's transaction ready to pay, as Paddle's transaction for a checkout is; the subscription exists
 * once paid. Priced by the demo's table for the buyer's country (decision 0072), as Paddle prices it by
 * the buyer's address: the currency, each seat's amount and its tax.
 */
function readyCheckout({
  checkoutId,
  userId,
  planId,
  priceId,
  trial,
  quantity = 1,
  teamName,
  discount,
  country = null,
}: PlanCheckoutInput) {
  const team = teamName === undefined ? {} : { kind: "team", team_name: teamName };
  const known = discount ? DEMO_DISCOUNTS.find((d) => d.id === discount.id) : undefined;
  if (discount && !known) throw new ProviderError(`demo discount ${discount.id} does not exist`);
  const priced = pricedCountry(country, known);
  const charge = demoCharge(priced, planId);
  const full = trial ? 0 : charge.totalMinor * quantity;
  return {
    ...demoShapes.transaction({
      subscriptionId: null,
      customData: {
        user_id: userId,
        plan_type: planId,
        checkout_id: checkoutId,
        ...team,
        ...(discount ? { discount_code: discount.code } : {}),
      },
      priceId,
      trialPeriod: trial ? { interval: "day", frequency: TRIAL_DAYS } : null,
      months: getPlan(planId).months,
      amountCents: known ? discountedCents(known, full, quantity) : full,
      quantity,
      period: null,
      origin: "web",
      at: new Date(),
      currency: charge.currency,
      taxRate: charge.taxRate,
    }),
    status: "ready",
    demo_country: priced,
    // As Paddle's transaction names the discount it was created with.
    discount_id: discount?.id ?? null,
  };
}

/** The demo's checkouts: a plan's transaction ready to pay, and the overlay's Pay for it. */
export function demoCheckout({
  load,
  save,
  completeReady,
  deliver,
}: DemoParts): Pick<DemoProvider, "createPlanCheckout" | "payCheckout" | "findDiscount"> {
  return {
    // The demo's own codes (~/domain/discount-codes): WELCOME20, SAVE5, and two that are refused.
    findDiscount: async (code) => DEMO_DISCOUNTS.find((d) => d.code === code.toUpperCase()) ?? null,

    async createPlanCheckout(input) {
      const txn = readyCheckout(input);
      await save("transaction", txn, null);
      return { transactionId: txn.id };
    },

    async payCheckout(transactionId) {
      const ready = await load<PaddleTransaction>(transactionId, "transaction");
      const userId = ready.custom_data?.user_id;
      const planId = ready.custom_data?.plan_type;
      if (ready.status !== "ready") throw new ProviderError(`transaction ${transactionId} was paid already`);
      if (ready.subscription_id !== null && ready.subscription_id !== undefined)
        throw new ProviderError(`transaction ${transactionId} is not a checkout`);
      if (typeof userId !== "string" || !isPlanId(planId))
        throw new ProviderError(`transaction ${transactionId} is not a plan checkout`);
      const now = new Date();
      const price = ready.items[0]!.price;
      const trial = Boolean(price.trial_period);
      const quantity = ready.items[0]!.quantity;
      const { checkout_id: _checkout, ...subscriptionData } = ready.custom_data ?? {};
      const country = (ready as DemoCountry).demo_country ?? null;
      const sub = demoShapes.subscription({
        id: demoId("sub"),
        userId,
        planId,
        priceId: price.id,
        trial,
        start: now,
        quantity,
        customData: subscriptionData,
        country,
      });
      const txn = {
        ...demoShapes.transaction({
          id: ready.id,
          subscriptionId: sub.id,
          customData: ready.custom_data ?? {},
          priceId: price.id,
          trialPeriod: price.trial_period ?? null,
          months: getPlan(planId).months,
          amountCents: Number(ready.details.totals.total),
          period: sub.current_billing_period!,
          origin: "web",
          at: now,
          quantity,
          currency: ready.details.totals.currency_code,
          taxRate: subscriptionCharge(sub, planId).taxRate,
        }),
        discount_id: ready.discount_id ?? null,
      };
      await completeReady(txn, sub.id);
      await save("subscription", sub, sub.id);
      await deliver(
        [
          { event_type: "subscription.created", data: sub },
          { event_type: trial ? "subscription.trialing" : "subscription.activated", data: sub },
          { event_type: "transaction.completed", data: txn },
        ],
        now,
      );
      return { transactionId: txn.id, subscriptionId: sub.id };
    },
  };
}
