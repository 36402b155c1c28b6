import { and, gt, eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { licenses, payments, webhook_events } from "../db/schema";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import type { PaddleAdjustment } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { licenseForSubscription } from "./sync-subscription.server";

/** A refund adjustment: pending → refund_requested, approved → refunded, rejected → active again. */
export async function applyAdjustment(
  tx: Transaction,
  adjustment: PaddleAdjustment,
  occurredAt: Date,
  eventId: string,
): Promise<FollowUp[]> {
  if (adjustment.action !== "refund") return [];
  // A later event about the same adjustment was applied already: this one is stale.
  const newer = await tx
    .select({ id: webhook_events.event_id })
    .from(webhook_events)
    .where(
      and(
        sql`${webhook_events.payload} -> 'data' ->> 'id' = ${adjustment.id}`,
        gt(webhook_events.occurred_at, occurredAt),
        sql`${webhook_events.event_id} <> ${eventId}`,
      ),
    )
    .limit(1);
  if (newer.length > 0) return [];
  const [paid] = await tx
    .select({ license_id: payments.license_id })
    .from(payments)
    .where(eq(payments.id, adjustment.transaction_id));
  const [license] = paid
    ? await tx.select().from(licenses).where(eq(licenses.id, paid.license_id)).for("update")
    : adjustment.subscription_id
      ? [await licenseForSubscription(tx, adjustment.subscription_id)]
      : [];
  if (!license) {
    getLogger().warn({ adjustment: adjustment.id }, "refund adjustment for a transaction we do not know");
    return [];
  }
  if (license.refunded) return [];
  if (adjustment.status === "approved") {
    // The billing history shows what the refund gave back of the payment it refunded.
    await tx
      .update(payments)
      .set({
        refunded_cents: sql`least(${payments.amount_cents}, ${payments.refunded_cents} + ${Math.abs(Number(adjustment.totals.total))})`,
      })
      .where(eq(payments.id, adjustment.transaction_id));
    await tx
      .update(licenses)
      .set({
        status: "refunded",
        refunded: true,
        refund_amount: Math.abs(Number(adjustment.totals.total)),
        refunded_at: occurredAt,
        auto_renew: false,
        cancellation_requested: false,
        cancellation_requested_at: null,
      })
      .where(eq(licenses.id, license.id));
    await queueCustomerMail(tx, {
      kind: "refund-processed",
      licenseId: license.id,
      key: adjustment.id,
      details: { currency: adjustment.totals.currency_code },
    });
    // A refund approved without the site's request (e.g. in Paddle's dashboard): stop renewal too.
    if (license.auto_renew && !license.cancellation_requested && license.paddle_subscription_id) {
      return [
        {
          kind: "stop-renewal",
          licenseId: license.id,
          subscriptionId: license.paddle_subscription_id,
          occasion: adjustment.id,
        },
      ];
    }
  } else if (adjustment.status === "pending_approval") {
    if (license.status === "active")
      await tx.update(licenses).set({ status: "refund_requested" }).where(eq(licenses.id, license.id));
  } else if (license.status === "refund_requested") {
    // Rejected (or reversed before approval): the license is active again.
    await tx.update(licenses).set({ status: "active" }).where(eq(licenses.id, license.id));
  }
  return [];
}
