/**
 * The demo provider's prices abroad (decision 0072): a few countries with a currency, fixed amounts
 * (tax included) and the tax rate in them, so that the pricing page's prices in the buyer's currency
 * can be seen offline. Any other country is charged the plan table's US dollars, without tax, as a
 * provider with no price for a country would. A plan added to the table must be priced here too
 * (`satisfies Record<PlanId, number>`).
 */
import type { CountryCode } from "./countries";
import type { PricePreview } from "./localized-prices";
import { getPlan, type PlanId } from "./plans";

interface DemoCountryPrices {
  currency: string;
  /** The tax in every amount, as a fraction ("0.19"). */
  taxRate: string;
  /** Per plan, in the currency's minor units, tax included. */
  amounts: Record<PlanId, number>;
}

export const DEMO_COUNTRY_PRICES: Readonly<Record<string, DemoCountryPrices>> = {
  DE: { currency: "EUR", taxRate: "0.19", amounts: { monthly: 999, "6_months": 5499, yearly: 9999 } },
  FR: { currency: "EUR", taxRate: "0.2", amounts: { monthly: 999, "6_months": 5499, yearly: 9999 } },
  GB: { currency: "GBP", taxRate: "0.2", amounts: { monthly: 899, "6_months": 4899, yearly: 8999 } },
  JP: { currency: "JPY", taxRate: "0.1", amounts: { monthly: 1400, "6_months": 7700, yearly: 14000 } },
  IN: { currency: "INR", taxRate: "0.18", amounts: { monthly: 79900, "6_months": 439900, yearly: 799900 } },
};

/** What the demo charges for one license of a plan in a country: the currency, the amount with its tax, and the rate. */
export interface DemoCharge {
  currency: string;
  /** In the currency's minor units, tax included. */
  totalMinor: number;
  /** The tax rate as a fraction ("0.19"); "0" where the demo adds no tax. */
  taxRate: string;
}

/**
 * The one price rule of the demo provider (decision 0072): a plan in the buyer's country, from the
 * table; the plan table's US dollars without tax for a country it does not list or none. Its checkout,
 * its renewals and its pricing preview all read it.
 */
export function demoCharge(country: string | null | undefined, plan: PlanId): DemoCharge {
  const row = country && Object.hasOwn(DEMO_COUNTRY_PRICES, country) ? DEMO_COUNTRY_PRICES[country] : undefined;
  if (!row) return { currency: "USD", totalMinor: getPlan(plan).priceCents, taxRate: "0" };
  return { currency: row.currency, totalMinor: row.amounts[plan], taxRate: row.taxRate };
}

/** The tax inside a tax-included amount at a rate ("0.19"): total − total / (1 + rate), to the minor unit. */
export function taxIncluded(totalMinor: number, taxRate: string): number {
  const rate = Number(taxRate);
  if (!Number.isFinite(rate) || rate <= 0) return 0;
  return totalMinor - Math.round(totalMinor / (1 + rate));
}

/**
 * The demo provider's pricing preview of some prices for a country, in the shape Paddle's answers are
 * read into: the table's amounts with their tax taken out of them, or US dollars and no tax.
 */
export function demoPricePreview(
  country: CountryCode,
  prices: readonly { priceId: string; plan: PlanId }[],
): PricePreview {
  const lines = prices.map(({ priceId, plan }) => ({ priceId, ...demoCharge(country, plan) }));
  return {
    currency: demoCharge(country, "monthly").currency,
    lines: lines.map(({ priceId, totalMinor, taxRate }) => ({
      priceId,
      totalMinor,
      formattedTotal: null,
      taxMinor: taxIncluded(totalMinor, taxRate),
      taxRate,
    })),
  };
}
