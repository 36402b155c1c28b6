import type { Transaction } from "../db/client.server";
import { enqueue } from "./jobs.server";

// Apart from the job itself (stop-renewal.server.ts), which calls the payment provider: what queues
// a stop (a webhook, a refund, a revoke) must not import the provider that delivers webhooks.

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
 * Queues the stop in the transaction of the change that implies it, so the job exists if and
 * only if that change commits. `occasion` names that change (a revoke, a refund request, the
 * event's transaction or adjustment): each occasion asks the provider once.
 */
export function enqueueStopRenewal(tx: Transaction, data: StopRenewalData, occasion: string): Promise<string | null> {
  return enqueue("stop-renewal", data, { key: `stop-renewal:${data.subscriptionId}:${occasion}`, tx });
}
