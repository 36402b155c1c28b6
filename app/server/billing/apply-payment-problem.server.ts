import { eq } from "drizzle-orm";
import { graceEndsAt, nextPaymentState, type PaymentEvent } from "~/domain/past-due";
import type { Transaction } from "../db/client.server";
import { licenses, payments, type License } from "../db/schema";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { PaddleSubscription, PaddleTransaction } from "./paddle-events.server";
import { licenseForSubscription } from "./sync-subscription.server";

/**
 * Payment problems (decision 0023): a renewal that could not be charged makes the license past
 * due; a later successful payment, or the subscription active (or ended) again, clears it. The
 * newest event wins, whatever the order Paddle delivers them in.
 */

/** Applies one payment event to a license; true when it made a paid-up license past due. */
export async function applyPaymentEvent(tx: Transaction, license: License, event: PaymentEvent): Promise<boolean> {
  const next = nextPaymentState(license, event);
  if (!next) return false;
  await tx.update(licenses).set(next).where(eq(licenses.id, license.id));
  if (event.kind === "failed") {
    // Once per failure (its time): a redelivered event records nothing new.
    await recordEvent(
      tx,
      "payment.failed",
      licenseEvent(license, { failed_at: event.at.toISOString(), past_due_since: next.past_due_since ?? null }),
      { key: `payment.failed:${license.id}:${event.at.toISOString()}`, occurredAt: event.at },
    );
  }
  const newlyPastDue = license.past_due_since === null && next.past_due_since !== null;
  if (newlyPastDue) {
    getLogger().info({ licenseId: license.id }, "a renewal payment failed: the license is past due");
    // The customer hears of it once per episode (keyed by its first failure), from this
    // transaction: a redelivered or retried failure sends nothing new.
    const graceUntil = graceEndsAt({ end_date: license.end_date, past_due_since: next.past_due_since });
    await queueCustomerMail(tx, {
      kind: "payment-failed",
      licenseId: license.id,
      key: next.past_due_since!.toISOString(),
      details: graceUntil ? { graceUntil: graceUntil.toISOString() } : {},
    });
  }
  return newlyPastDue;
}

/** transaction.payment_failed / transaction.past_due: a subscription's charge did not go through. */
export async function applyTransactionFailed(tx: Transaction, txn: PaddleTransaction, occurredAt: Date): Promise<void> {
  // A failed checkout (no subscription yet) is reported to the buyer by the overlay itself.
  if (!txn.subscription_id) return;
  // Paid since: this failure is old news.
  const [paid] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, txn.id));
  if (paid) return;
  const license = await licenseForSubscription(tx, txn.subscription_id);
  if (!license) {
    getLogger().warn({ transaction: txn.id }, "payment failure for a subscription without a license");
    return;
  }
  await applyPaymentEvent(tx, license, { kind: "failed", at: occurredAt });
}

/** A subscription event's status: past_due is a failed payment; active, trialing, paused or canceled settle it. */
export async function applySubscriptionPaymentState(
  tx: Transaction,
  sub: PaddleSubscription,
  occurredAt: Date,
): Promise<void> {
  const license = await licenseForSubscription(tx, sub.id);
  if (!license) return;
  await applyPaymentEvent(tx, license, { kind: sub.status === "past_due" ? "failed" : "settled", at: occurredAt });
}
