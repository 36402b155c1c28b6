import type { CountryCode } from "~/domain/countries";
import { discountedCents } from "~/domain/discount-codes";
import type { PlanCheckoutView } from "~/lib/checkout";
import { getPaymentProvider } from "./configured-provider.server";
import { localizedPrices } from "./localized-prices.server";

/**
 * A plan's checkout quoted in the buyer's currency (decision 0072): with Paddle, the price its checkout
 * charges in the buyer's country (the pricing page's preview, kept per country and price set) rather
 * than the plan table's US dollars. The demo provider charges US dollars, so its checkouts stay so; a
 * team's (seats) and a provider that does not answer keep US dollars too. Only the words change: the
 * transaction is the server's, by its price id (decision 0015).
 */
export async function quotedForCountry(view: PlanCheckoutView, country: CountryCode | null): Promise<PlanCheckoutView> {
  if (!country || view.seats !== undefined || getPaymentProvider().name !== "paddle") return view;
  // A flat discount is in its own currency: the checkout is quoted in US dollars then (decision 0073).
  if (view.discount && view.discount.type !== "percentage") return view;
  const { prices, settled } = await localizedPrices({ country, trial: view.trial });
  if (!settled || prices.country === null) return view;
  const price = prices.plans[view.planId].amountMinor;
  return {
    ...view,
    currency: prices.currency,
    priceCents: price,
    dueTodayCents: view.trial ? 0 : view.discount ? discountedCents(view.discount, price) : price,
    priceNote: prices.note,
  };
}
