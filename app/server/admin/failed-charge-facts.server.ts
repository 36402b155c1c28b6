import { and, desc, inArray, sql } from "drizzle-orm";
import { declineReasonOf, failedAttemptsOf } from "~/domain/past-due";
import { getDb } from "../db/db.server";
import { webhook_events } from "../db/schema";

/** What support is told of a past-due subscription's declined charge (decision 0057). */
export interface FailedChargeFacts {
  /** The provider's reason ("insufficient funds"), when its event named one. */
  reason: string | null;
  /** How many attempts of the charge were declined so far, and when the last one was. */
  attempts: number;
  lastAttemptAt: string | null;
}

/**
 * Each past-due subscription's last declined charge, read from the stored failure events
 * (`transaction.payment_failed`, `transaction.past_due`): no column holds it. The newest event
 * lists every attempt of its transaction. Subscriptions whose events were pruned are left out.
 * Called only for the few past-due licenses of one user's admin page.
 */
export async function failedChargeFacts(subscriptionIds: string[]): Promise<Map<string, FailedChargeFacts>> {
  const facts = new Map<string, FailedChargeFacts>();
  if (subscriptionIds.length === 0) return facts;
  const subscription = sql<string>`${webhook_events.payload} -> 'data' ->> 'subscription_id'`;
  const rows = await getDb()
    .select({ subscription_id: subscription, payload: webhook_events.payload })
    .from(webhook_events)
    .where(
      and(
        inArray(webhook_events.event_type, ["transaction.payment_failed", "transaction.past_due"]),
        inArray(subscription, subscriptionIds),
      ),
    )
    .orderBy(desc(webhook_events.occurred_at))
    .limit(50);
  for (const row of rows) {
    const known = facts.get(row.subscription_id);
    if (known?.reason) continue;
    const reason = declineReasonOf(row.payload);
    // The newest event counts the attempts; an older one may still name the reason the newest left out.
    if (known) {
      known.reason = reason;
      continue;
    }
    const { count, lastAt } = failedAttemptsOf(row.payload);
    facts.set(row.subscription_id, { reason, attempts: count, lastAttemptAt: lastAt?.toISOString() ?? null });
  }
  return facts;
}
