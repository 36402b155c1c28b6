/**
 * Prices in the buyer's currency (decision 0072): what the payment provider says it would charge in a
 * country (its pricing preview), read into the pricing page's shape. Pure: the provider's answer comes
 * in, the page's prices and tax note go out. Unknown country, or no usable answer: the plan table's
 * US-dollar prices.
 */
import { formatPrice } from "./billing";
import { countryName, type CountryCode } from "./countries";
import { getPlan, PLAN_IDS, type PlanId } from "./plans";

/** A provider's pricing preview, in its own terms: one line per price asked about. */
export interface PricePreview {
  /** ISO 4217 code of what it would charge ("EUR"). */
  currency: string;
  lines: readonly PricePreviewLine[];
}

export interface PricePreviewLine {
  priceId: string;
  /** What one license costs, tax included where tax applies, in the currency's minor units. */
  totalMinor: number;
  /** The provider's own writing of it ("€10.71"), when it gives one. */
  formattedTotal: string | null;
  /** The tax in it, in minor units. */
  taxMinor: number;
  /** The tax rate as a fraction ("0.19"). */
  taxRate: string;
}

/** A plan's price as the card shows it. */
export interface PlanPrice {
  amountMinor: number;
  /** "€10.71", "$9". */
  amount: string;
}

/** The pricing page's prices: every plan in one currency, and the note under them. */
export interface LocalizedPrices {
  /** The country priced; null for the plan table's US-dollar prices (country unknown, provider down). */
  country: CountryCode | null;
  currency: string;
  plans: Record<PlanId, PlanPrice>;
  /** What the prices are and what they say about tax ("Germany: prices in EUR, including 19% tax."). */
  note: string;
}

export const PRICES_IN_USD_NOTE = "Prices in US dollars. Taxes are added at checkout where they apply.";

/** The plan table's prices in US dollars: an unknown country, or a provider that did not answer. */
export function tablePrices(): LocalizedPrices {
  const plans = Object.fromEntries(
    PLAN_IDS.map((id) => [
      id,
      { amountMinor: getPlan(id).priceCents, amount: formatPrice(getPlan(id).priceCents, "USD") },
    ]),
  ) as Record<PlanId, PlanPrice>;
  return { country: null, currency: "USD", plans, note: PRICES_IN_USD_NOTE };
}

/** "19%", "7.7%": a rate given as a fraction ("0.19"), in percent. */
function percent(rate: number): string {
  return `${Math.round(rate * 10000) / 100}%`;
}

/** What the prices say about tax, from the provider's lines: the rate they include, or none yet. */
export function pricesNote(country: CountryCode, currency: string, lines: readonly PricePreviewLine[]): string {
  const where = `${countryName(country)}: prices in ${currency}`;
  const rates = new Set(lines.filter((line) => line.taxMinor > 0).map((line) => Number(line.taxRate)));
  const [rate] = [...rates];
  if (rates.size === 1 && rate !== undefined && Number.isFinite(rate) && rate > 0)
    return `${where}, including ${percent(rate)} tax.`;
  if (rates.size > 1) return `${where}, including tax.`;
  return `${where}. Taxes are added at checkout where they apply.`;
}

/**
 * The page's prices from a provider's preview of the plans' price ids, or null when the answer cannot
 * be shown as it is (a plan's price missing, an amount that is not a positive whole number): the
 * caller then shows the plan table's US-dollar prices rather than a wrong one.
 */
export function readPricePreview(
  country: CountryCode,
  priceIds: Record<PlanId, string>,
  preview: PricePreview,
): LocalizedPrices | null {
  if (!/^[A-Z]{3}$/.test(preview.currency)) return null;
  const plans: Partial<Record<PlanId, PlanPrice>> = {};
  const used: PricePreviewLine[] = [];
  for (const id of PLAN_IDS) {
    const line = preview.lines.find((l) => l.priceId === priceIds[id]);
    if (!line || !Number.isSafeInteger(line.totalMinor) || line.totalMinor <= 0) return null;
    used.push(line);
    plans[id] = {
      amountMinor: line.totalMinor,
      amount: line.formattedTotal || formatPrice(line.totalMinor, preview.currency),
    };
  }
  return {
    country,
    currency: preview.currency,
    plans: plans as Record<PlanId, PlanPrice>,
    note: pricesNote(country, preview.currency, used),
  };
}

/** A card's price lines: the price, what it comes to per month (longer plans) and the saving against monthly. */
export function planPriceLines(
  prices: LocalizedPrices,
  id: PlanId,
): { amount: string; perMonth: string | null; savingsPercent: number } {
  const { months } = getPlan(id);
  const price = prices.plans[id].amountMinor;
  const monthly = prices.plans.monthly.amountMinor * months;
  // Per month in whole minor units, as the currency writes them (¥1,167; €8.33).
  const perMonth = months > 1 ? formatPrice(Math.round(price / months), prices.currency) : null;
  return {
    amount: prices.plans[id].amount,
    perMonth,
    savingsPercent: months > 1 && monthly > 0 ? Math.max(0, Math.round(((monthly - price) / monthly) * 100)) : 0,
  };
}
