import { z } from "zod";

/**
 * The housekeeping job's settings (app/server/housekeeping/), part of the configuration schema in
 * env.server.ts: how long processed payment-provider webhook events are kept.
 */
export const retentionSettings = {
  /** Days a processed webhook event (and its payload) is kept; older ones are pruned. */
  WEBHOOK_RETENTION_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int({ message: "must be a whole number of days" })
    .min(7, { message: "must be at least 7 (days): a provider retries a webhook delivery for days" })
    .max(3650, { message: "must be at most 3650 (days)" })
    .default(90),
};
