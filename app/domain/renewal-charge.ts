import type { LicenseFacts } from "./license-status";
import { getPlan, isPlanId } from "./plans";
import { planPriceIn, subscriptionCurrency, type SubscriptionCharge } from "./subscription-prices";
import { discountedCents as discountedBy } from "./discount-codes";

type RenewalFacts = Pick<
  LicenseFacts,
  "license_type" | "team_role" | "renewal_seats" | "plan_next_renewal" | "renewal_discount_percent" | "quoted_prices"
>;

/** A renewal's price with the discount: whole percent off, by the one rule of discount codes (rounded off amount). */
export function discountedCents(priceCents: number, percent: number): number {
  return discountedBy({ type: "percentage", amount: String(percent) }, priceCents);
}

/** A price with the cancel step's discount taken off, once (decision 0065); the price itself without one. */
const withDiscount = (cents: number, percent: number | null | undefined) =>
  percent ? discountedCents(cents, percent) : cents;

/**
 * What a license's next renewal charges (decisions 0046, 0061, 0072): the plan's price, a team's
 * seats, in the subscription's currency. Read by the one state function (license-state.ts) and the
 * places that price a renewal without a state (the payment link, support's details).
 */

/**
 * What a renewal (or a trial's first charge) takes, in cents: the plan's price (the plan a switch
 * waiting for the renewal bills, decision 0061); for a team's
 * subscription the price × the seats its next renewal bills (decision 0046), null while those seats are
 * not known (never one seat's price); null for a member's seat (the owner pays), tester and trial types.
 * The cancel step's discount, when taken, comes off the personal license's next renewal.
 */
export function renewalPriceCents(license: RenewalFacts): number | null {
  if (!isPlanId(license.license_type) || license.team_role === "seat") return null;
  const plan = isPlanId(license.plan_next_renewal) ? license.plan_next_renewal : license.license_type;
  const price = getPlan(plan).priceCents;
  if (license.team_role !== "billing") return withDiscount(price, license.renewal_discount_percent);
  return license.renewal_seats ? price * license.renewal_seats : null;
}

/**
 * What the next renewal (or a trial's first charge) takes, in the subscription's currency (decision
 * 0072): the currency of the license's latest payment of its subscription (an extension is not one), US
 * dollars without one. In US dollars, the plan table's price (`renewalPriceCents`). In another
 * currency the plan table says nothing: the subscription's last full charge of its plan is what it
 * charges again; for a team's subscription, the seats its next renewal bills × what that charge took
 * for one seat (its amount ÷ the seats it billed). Where the last charge does not say it (a trial's
 * start, a switch's prorated charge, a discount code's first charge) or a switch waits for the renewal,
 * a personal license's plan is priced by the checkout's quote (`quoted_prices`). No amount, rather than
 * a wrong one, without a quote in that currency, or for a team whose seats' charge is not known.
 */
export function renewalCharge(license: RenewalFacts & { charges?: readonly SubscriptionCharge[] }): {
  cents: number | null;
  currency: string;
} {
  // An extension is a one-time charge the site prices itself (US dollars): not the subscription's.
  const charges = (license.charges ?? []).filter((c) => c.kind !== "extension");
  const currency = subscriptionCurrency(license);
  const cents = renewalPriceCents(license);
  if (currency === "USD" || cents === null) return { cents, currency };
  // A personal license's renewal of a waiting switch, or a trial's first charge: the checkout's quote of the plan.
  const quoted = () => {
    const plan = isPlanId(license.plan_next_renewal) ? license.plan_next_renewal : license.license_type;
    const price = isPlanId(plan) ? planPriceIn(license, plan, currency) : null;
    return { cents: price === null ? null : withDiscount(price, license.renewal_discount_percent), currency };
  };
  const personal = license.team_role !== "billing";
  if (isPlanId(license.plan_next_renewal)) return personal ? quoted() : { cents: null, currency };
  const periods = charges.filter((c) => ["purchase", "renewal", "plan_change"].includes(c.kind));
  const last = periods.at(-1);
  // A first charge with a discount code's discount is not what the renewal charges again (decision 0073).
  const full = last && last.kind !== "plan_change" && last.amount_cents > 0 && !last.discount_id ? last : null;
  if (full === null) return personal ? quoted() : { cents: null, currency };
  if (license.team_role === "billing") {
    // renewalPriceCents gave a number, so the seats the next renewal bills are known.
    const unit = full.quantity ? full.amount_cents / full.quantity : null;
    const seats = license.renewal_seats ?? 0;
    return { cents: unit !== null && Number.isInteger(unit) ? unit * seats : null, currency };
  }
  // The discount taken comes off the next renewal only: the last full charge is before it.
  return { cents: withDiscount(full.amount_cents, license.renewal_discount_percent), currency };
}
