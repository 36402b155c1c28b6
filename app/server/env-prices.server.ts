import { z } from "zod";
import { PLAN_IDS, priceEnvNames, type PriceEnvNames } from "~/domain/plans";

type PriceEnvName = PriceEnvNames["trial" | "regular"];

/**
 * The provider's price ids, part of the configuration schema in env.server.ts: two per plan of the
 * plan table (app/domain/plans.ts), PRICE_<PLAN>_TRIAL for first-time buyers (the price carries the
 * free trial) and PRICE_<PLAN> for everyone else. Unset, the demo provider's ids (pri_demo_<plan>…).
 */
export const priceSettings = Object.fromEntries(
  PLAN_IDS.flatMap((plan) => {
    const names = priceEnvNames(plan);
    return [
      [names.trial, z.string().trim().min(1).default(`pri_demo_${plan}_trial`)],
      [names.regular, z.string().trim().min(1).default(`pri_demo_${plan}`)],
    ];
  }),
) as Record<PriceEnvName, z.ZodDefault<z.ZodString>>;
