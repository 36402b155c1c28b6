import { PLAN_IDS, type PlanId, type PriceIds } from "~/domain/plans";
import { getEnv } from "../env.server";

/** The two price-id sets, from configuration. */
export function configuredPriceIds(): PriceIds {
  const env = getEnv();
  return {
    trial: { monthly: env.PRICE_MONTHLY_TRIAL, "6_months": env.PRICE_6_MONTHS_TRIAL, yearly: env.PRICE_YEARLY_TRIAL },
    regular: { monthly: env.PRICE_MONTHLY, "6_months": env.PRICE_6_MONTHS, yearly: env.PRICE_YEARLY },
  };
}

/** The plan a configured price id belongs to (either set), or null for an unknown price. */
export function planForPriceId(priceId: string): PlanId | null {
  const ids = configuredPriceIds();
  return PLAN_IDS.find((plan) => ids.trial[plan] === priceId || ids.regular[plan] === priceId) ?? null;
}

/** Whether a price id is one of the first-time-buyer (trial) set. */
export function isTrialPriceId(priceId: string): boolean {
  const ids = configuredPriceIds();
  return PLAN_IDS.some((plan) => ids.trial[plan] === priceId);
}
