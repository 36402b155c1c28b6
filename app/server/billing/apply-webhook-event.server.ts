import type { Transaction } from "../db/client.server";
import { applyAdjustment } from "./apply-adjustment.server";
import { applySubscriptionPaymentState, applyTransactionFailed } from "./apply-payment-problem.server";
import { applyTransactionCompleted } from "./apply-transaction.server";
import type { PaddleEvent } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { recordPaymentMethod } from "./record-payment-method.server";
import { applySubscription } from "./sync-subscription.server";
import { afterTeamEvent } from "../teams/team-billing.server";

/**
 * Applies one verified provider event to the licenses, inside the transaction that recorded
 * it. The license row follows the subscription; payments are facts keyed by transaction id;
 * an event older than what the row already reflects never moves it backwards.
 */
export async function applyWebhookEvent(tx: Transaction, event: PaddleEvent): Promise<FollowUp[]> {
  const followUps = await applyEvent(tx, event);
  // A team's seats follow its subscription license (a trigger); its members hear when it ended.
  await afterTeamEvent(tx, event);
  return followUps;
}

async function applyEvent(tx: Transaction, event: PaddleEvent): Promise<FollowUp[]> {
  const occurredAt = new Date(event.occurred_at);
  switch (event.event_type) {
    case "transaction.completed": {
      const followUps = await applyTransactionCompleted(tx, event.data, occurredAt);
      await recordPaymentMethod(tx, event.data, occurredAt);
      return followUps;
    }
    case "transaction.past_due":
    case "transaction.payment_failed":
      await applyTransactionFailed(tx, event.data, occurredAt);
      await recordPaymentMethod(tx, event.data, occurredAt);
      return [];
    case "adjustment.created":
    case "adjustment.updated":
      return applyAdjustment(tx, event.data, occurredAt);
    default:
      await applySubscription(tx, event.data, occurredAt);
      await applySubscriptionPaymentState(tx, event.data, occurredAt);
      return [];
  }
}
