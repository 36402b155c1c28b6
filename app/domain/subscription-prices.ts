import { getPlan, type PlanId, type QuotedPrices } from "./plans";

/**
 * What a subscription's prices are in (decision 0072): the currency its payments say, and a plan's price
 * in it. Pure: the renewal's amount, the plan switch's list, the cancel step's offers and the trial read it.
 */

/** What the renewal's price reads of a payment. */
export interface SubscriptionCharge {
  kind: string;
  amount_cents: number;
  currency: string;
  /** The units it billed (a team's seats); null or absent when not recorded. */
  quantity?: number | null;
  /** The discount code's discount it was charged with (decision 0073): then it is not the full price. */
  discount_id?: string | null;
}

/** What the license's subscription charges in: the currency of its latest payment (an extension is not one), else US dollars. */
export function subscriptionCurrency(license: { charges?: readonly SubscriptionCharge[] }): string {
  return (license.charges ?? []).filter((c) => c.kind !== "extension").at(-1)?.currency ?? "USD";
}

/**
 * A plan's price in the subscription's currency (decision 0072): the plan table's in US dollars; in another
 * currency the provider's quote kept from the checkout, when it was in that currency; else null (not known).
 */
export function planPriceIn(
  license: { quoted_prices?: QuotedPrices | null },
  plan: PlanId,
  currency: string,
): number | null {
  if (currency === "USD") return getPlan(plan).priceCents;
  const quoted = license.quoted_prices;
  const cents = quoted?.currency === currency ? quoted.plans[plan] : undefined;
  return typeof cents === "number" && Number.isInteger(cents) && cents > 0 ? cents : null;
}
