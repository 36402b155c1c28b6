import { eq } from "drizzle-orm";
import { licenseRefundOutcome, paymentRefundAmounts, refundComplete } from "~/domain/refund-state";
import type { Transaction } from "../db/client.server";
import { licenses, payments, type License } from "../db/schema";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { FollowUp } from "./payment-provider.server";

/**
 * Brings a license and its payments in line with the refund adjustments its payments hold
 * (app/domain/refund-state.ts, decision 0036), in the caller's transaction: each payment's refunded
 * and pending amounts, then the license's status. Run after an adjustment event is stored and after
 * the site's own refund request succeeds or fails; the result depends on what is stored, never on
 * the order it arrived in. Once the refund is complete (approved, nothing pending), the "Refund
 * processed" e-mail is queued, once per set of approved adjustments.
 */
export async function settleLicenseRefund(tx: Transaction, licenseId: string): Promise<FollowUp[]> {
  const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
  if (!license) return [];
  const rows = await tx.select().from(payments).where(eq(payments.license_id, licenseId));
  const settled = [];
  for (const payment of rows) {
    const amounts = paymentRefundAmounts(payment);
    if (
      amounts &&
      (amounts.refunded_cents !== payment.refunded_cents ||
        amounts.pending_refund_cents !== payment.pending_refund_cents)
    ) {
      await tx.update(payments).set(amounts).where(eq(payments.id, payment.id));
    }
    settled.push({ ...payment, ...amounts });
  }
  const outcome = licenseRefundOutcome(license, settled);
  const followUps: FollowUp[] = [];
  const becameRefunded = outcome?.refunded === true && !license.refunded;
  if (
    outcome &&
    (outcome.status !== license.status ||
      outcome.refund_amount !== license.refund_amount ||
      outcome.refunded_at?.getTime() !== license.refunded_at?.getTime())
  ) {
    await tx
      .update(licenses)
      .set({
        ...outcome,
        // The outcome is one of the license statuses (active, refund_requested, refunded).
        status: outcome.status as License["status"],
        // A refunded license never renews.
        ...(becameRefunded
          ? { auto_renew: false, cancellation_requested: false, cancellation_requested_at: null }
          : {}),
      })
      .where(eq(licenses.id, license.id));
  }
  await recordRefundEvents(tx, license, outcome);
  // A refund approved without the site's request (e.g. in Paddle's dashboard): stop renewal too.
  if (becameRefunded && license.auto_renew && !license.cancellation_requested && license.paddle_subscription_id) {
    const occasion = settled.find((p) => p.refund_status === "approved")?.refund_adjustment_id ?? license.id;
    followUps.push({
      kind: "stop-renewal",
      licenseId: license.id,
      subscriptionId: license.paddle_subscription_id,
      occasion,
    });
  }
  const after = { ...license, ...outcome };
  if (refundComplete(after, settled)) {
    const approved = settled.filter((p) => p.refund_status === "approved" && p.refunded_cents > 0);
    const ids = approved.map((p) => p.refund_adjustment_id ?? p.id).sort();
    if (ids.length > 0)
      await queueCustomerMail(tx, {
        kind: "refund-processed",
        licenseId: license.id,
        key: ids.join(","),
        details: { currency: approved[0]!.currency },
      });
  }
  return followUps;
}

/** license.refund_requested and license.refunded, when the license's status became so in this transaction. */
async function recordRefundEvents(
  tx: Transaction,
  license: License,
  outcome: ReturnType<typeof licenseRefundOutcome>,
): Promise<void> {
  if (!outcome || outcome.status === license.status) return;
  const after = { ...license, ...outcome, status: outcome.status as License["status"] };
  const amount = { refund_amount_cents: outcome.refund_amount ?? null };
  if (outcome.status === "refund_requested")
    await recordEvent(tx, "license.refund_requested", licenseEvent(after, amount));
  if (outcome.status === "refunded") await recordEvent(tx, "license.refunded", licenseEvent(after, amount));
}
