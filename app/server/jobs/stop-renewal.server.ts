import { getPaymentProvider } from "../billing/configured-provider.server";
import type { Transaction } from "../db/client.server";
import { markCancellationRequested } from "../licenses/renewal.server";
import type { JobDefinition } from "./jobs.server";
import { enqueue } from "./jobs.server";

export interface StopRenewalData {
  licenseId: string;
  subscriptionId: string;
  /**
   * Record the provider's agreement on the license (auto_renew off, cancellation_requested) once
   * it agreed: after a refund request or a revoke. Webhook follow-ups leave the row as their
   * event set it.
   */
  record: boolean;
}

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

/**
 * Queues the stop in the transaction of the change that implies it, so the job exists if and
 * only if that change commits. `occasion` names that change (a revoke, a refund request, the
 * event's transaction or adjustment): each occasion asks the provider once.
 */
export function enqueueStopRenewal(tx: Transaction, data: StopRenewalData, occasion: string): Promise<string | null> {
  return enqueue("stop-renewal", data, { key: `stop-renewal:${data.subscriptionId}:${occasion}`, tx });
}
