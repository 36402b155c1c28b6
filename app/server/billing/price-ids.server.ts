import { PLAN_IDS, priceEnvNames, type PlanId, type PriceIds } from "~/domain/plans";
import { getEnv } from "../env.server";

/** The two price-id sets, from configuration (PRICE_<PLAN>_TRIAL and PRICE_<PLAN> of each plan). */
export function configuredPriceIds(): PriceIds {
  const env = getEnv();
  const set = (which: "trial" | "regular") =>
    Object.fromEntries(PLAN_IDS.map((plan) => [plan, env[priceEnvNames(plan)[which]]])) as Record<PlanId, string>;
  return { trial: set("trial"), regular: set("regular") };
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
