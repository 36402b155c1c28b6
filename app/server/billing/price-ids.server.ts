import type { PriceIds } from "~/domain/plans";
import { getEnv } from "../env.server";

/** The two price-id sets, from configuration. */
export function configuredPriceIds(): PriceIds {
  const env = getEnv();
  return {
    trial: { monthly: env.PRICE_MONTHLY_TRIAL, "6_months": env.PRICE_6_MONTHS_TRIAL, yearly: env.PRICE_YEARLY_TRIAL },
    regular: { monthly: env.PRICE_MONTHLY, "6_months": env.PRICE_6_MONTHS, yearly: env.PRICE_YEARLY },
  };
}
