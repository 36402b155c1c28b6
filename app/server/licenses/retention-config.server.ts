import type { RetentionConfig } from "~/domain/retention-offer";
import { getEnv } from "../env.server";

/** The vendor's cancel-step offer (RETENTION_DISCOUNT_ID, RETENTION_DISCOUNT_PERCENT; decision 0065). */
export function retentionConfig(): RetentionConfig {
  const env = getEnv();
  return { discountId: env.RETENTION_DISCOUNT_ID ?? null, discountPercent: env.RETENTION_DISCOUNT_PERCENT };
}
