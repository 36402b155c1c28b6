import { getPaymentProvider } from "../billing/configured-provider.server";
import { markCancellationRequested } from "../licenses/renewal.server";
import type { StopRenewalData } from "./enqueue-stop-renewal.server";
import type { JobDefinition } from "./jobs.server";

/**
 * Tells the payment provider to stop renewing a subscription, retried until it agrees: about
 * four days of attempts (12 retries, the wait doubling from a minute), then the job is failed
 * and shown on the admin page.
 */
export const stopRenewalJob: JobDefinition<StopRenewalData> = {
  retryLimit: 12,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: async ({ licenseId, subscriptionId, record }) => {
    await getPaymentProvider().cancelAtPeriodEnd(subscriptionId);
    if (record) await markCancellationRequested(licenseId);
    return { stopped: subscriptionId, at: new Date().toISOString() };
  },
};
