import { and, desc, inArray, sql } from "drizzle-orm";
import { declineReasonOf } from "~/domain/past-due";
import { getDb } from "../db/db.server";
import { webhook_events } from "../db/schema";

/**
 * The provider's reason for each past-due subscription's last declined charge (decision 0057), read
 * from the stored failure events (`transaction.payment_failed`, `transaction.past_due`): no
 * column holds it. Subscriptions whose events were pruned or named no reason are left out.
 * Called only for the few past-due licenses of one user's admin page.
 */
export async function declineReasons(subscriptionIds: string[]): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  if (subscriptionIds.length === 0) return reasons;
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
    if (reasons.has(row.subscription_id)) continue;
    const reason = declineReasonOf(row.payload);
    if (reason) reasons.set(row.subscription_id, reason);
  }
  return reasons;
}
