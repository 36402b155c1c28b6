import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { licenses, payments } from "../db/schema";

/**
 * The card a transaction was paid (or tried) with, when the provider says (Paddle's
 * `payments[].method_details.card`; the demo provider sends the same shape): kept on the license
 * so support can name it ("Visa •••• 4242"). Nothing else of the card is read or stored.
 */
export function cardOf(txn: Record<string, unknown>): { brand: string; last4: string } | null {
  const attempts = Array.isArray(txn.payments) ? (txn.payments as unknown[]) : [];
  for (const attempt of attempts) {
    const details = (attempt as { method_details?: { type?: unknown; card?: Record<string, unknown> | null } })
      ?.method_details;
    const card = details?.card;
    const brand = typeof card?.type === "string" ? card.type : null;
    const last4 = typeof card?.last4 === "string" && /^\d{4}$/.test(card.last4) ? card.last4 : null;
    if (brand && last4) return { brand, last4 };
  }
  return null;
}

/**
 * Stores the transaction's card on the license it paid for (by subscription, or by the payment),
 * unless the stored card came from a newer event: webhooks arrive out of order, and the older
 * event's card may be one the customer has since replaced.
 */
export async function recordPaymentMethod(
  tx: Transaction,
  txn: Record<string, unknown> & { id: string; subscription_id?: string | null },
  occurredAt: Date,
): Promise<void> {
  const card = cardOf(txn);
  if (!card) return;
  const [paid] = await tx.select({ license_id: payments.license_id }).from(payments).where(eq(payments.id, txn.id));
  const bySubscription = txn.subscription_id ? eq(licenses.paddle_subscription_id, txn.subscription_id) : undefined;
  const byPayment = paid ? eq(licenses.id, paid.license_id) : undefined;
  const where = bySubscription && byPayment ? or(bySubscription, byPayment) : (bySubscription ?? byPayment);
  if (!where) return;
  const notNewer = or(isNull(licenses.payment_card_at), lte(licenses.payment_card_at, occurredAt));
  await tx
    .update(licenses)
    .set({ payment_card_brand: card.brand, payment_card_last4: card.last4, payment_card_at: occurredAt })
    .where(and(where, notNewer));
}
