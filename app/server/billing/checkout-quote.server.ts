import type { CountryCode } from "~/domain/countries";
import { discountedCents, pricedCountry } from "~/domain/discount-codes";
import { seatsTotalCents } from "~/domain/team-seats";
import type { PlanCheckoutView } from "~/lib/checkout";
import { localizedPrices } from "./localized-prices.server";

/**
 * A checkout quoted in the buyer's currency (decision 0072): the price its provider charges in the
 * buyer's country (the pricing page's preview, kept per country and price set) rather than the plan
 * table's US dollars, with either provider: Paddle charges the country's price by its price id, the
 * demo provider its table's (the same table its preview answers from). A team's checkout is the seats ×
 * the country's price of one seat (the provider asked with the seats as the quantity). A checkout with
 * a flat discount, and a provider that does not answer, keep US dollars. Only the words change: the
 * transaction is the server's, by its price id (decision 0015).
 */
export async function quotedForCountry<View extends PlanCheckoutView>(
  view: View,
  country: CountryCode | null,
): Promise<View> {
  // A flat discount is in its own currency: the checkout is quoted in US dollars then (decision 0073).
  const priced = pricedCountry(country, view.discount);
  if (!priced) return view;
  const seats = view.seats;
  const { prices, settled } = await localizedPrices({ country: priced, trial: view.trial, quantity: seats ?? 1 });
  if (!settled || prices.country === null) return view;
  const unit = prices.plans[view.planId].amountMinor;
  const price = seats === undefined ? unit : seatsTotalCents(unit, seats);
  return {
    ...view,
    currency: prices.currency,
    priceCents: price,
    ...(seats === undefined ? {} : { unitCents: unit }),
    dueTodayCents: view.trial ? 0 : view.discount ? discountedCents(view.discount, price) : price,
    priceNote: prices.note,
  };
}
