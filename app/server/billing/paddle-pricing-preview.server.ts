import type { CountryCode as PaddleCountry, Paddle, PricingPreview } from "@paddle/paddle-node-sdk";
import type { PricePreview } from "~/domain/localized-prices";
import { ProviderError, type PaymentProvider } from "./payment-provider.server";

/**
 * Prices in the buyer's currency with Paddle (decision 0072): POST /pricing-preview with the prices as
 * `items` (quantity 1 each, or a team's seats) and the country as `address.country_code`, the same calculation Paddle's
 * checkout makes there (a price's override for the country, or Paddle's conversion, and the tax).
 * Each line item's `unit_totals` (minor units as strings) and `formatted_unit_totals` are read.
 */

const minor = (amount: string | null | undefined): number => {
  const value = Number(amount);
  if (amount == null || amount === "" || !Number.isSafeInteger(value))
    throw new ProviderError(`Paddle's pricing preview has an amount that is not whole: ${String(amount)}`);
  return value;
};

/** Paddle's preview as the site reads it: the currency, each price's total, tax and tax rate. */
export function readPaddlePricingPreview(preview: PricingPreview): PricePreview {
  return {
    currency: preview.currencyCode,
    lines: preview.details.lineItems.map((line) => ({
      priceId: line.price.id,
      totalMinor: minor(line.unitTotals.total),
      formattedTotal: line.formattedUnitTotals.total || null,
      taxMinor: minor(line.unitTotals.tax),
      taxRate: line.taxRate,
    })),
  };
}

export function paddlePricingPreview(
  paddle: () => Paddle,
  call: <T>(what: string, run: () => Promise<T>) => Promise<T>,
): Pick<PaymentProvider, "previewPrices"> {
  return {
    previewPrices: async ({ priceIds, country, quantity = 1 }) => {
      const preview = await call("pricing preview", () =>
        paddle().pricingPreview.preview({
          // A team's seats as the quantity: Paddle checks it against the price's limits; unit_totals stay one seat's.
          items: priceIds.map((priceId) => ({ priceId, quantity })),
          // A country Paddle does not sell in is refused (400): the caller falls back to US dollars.
          address: { countryCode: country as string as PaddleCountry },
        }),
      );
      return readPaddlePricingPreview(preview);
    },
  };
}
