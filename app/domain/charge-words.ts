import { formatMoney } from "./billing";
import { formatDate } from "./format-date";

/**
 * How the site words a charge and its refund (decision 0030): "Renews on Dec 23, 2026 for $9.00",
 * "Refunded $8.55 (95%)". Pure: the license cards, /billing, the invoice and the e-mails read these.
 */

/** "renews on Dec 23, 2026 for $9.00" (inside a sentence); without an amount, "renews on Dec 23, 2026". */
export function renewalPhrase(at: Date | string, cents: number | null, currency = "USD"): string {
  return `renews on ${formatDate(at)}${cents === null ? "" : ` for ${formatMoney(cents, currency)}`}`;
}

/** "Renews on Dec 23, 2026 for $9.00": the phrase on its own. */
export function renewalText(at: Date | string, cents: number | null, currency = "USD"): string {
  const phrase = renewalPhrase(at, cents, currency);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** The share a refund gave back, in whole percent, never 100 unless it gave back all of it. */
export function refundPercent(paidCents: number, refundedCents: number): number {
  if (paidCents <= 0) return 0;
  if (refundedCents >= paidCents) return 100;
  return Math.min(99, Math.round((refundedCents / paidCents) * 100));
}

/** What a payment's status reads, from what approved and pending refunds gave back of it. */
export interface ChargeRefunds {
  amount_cents: number;
  refunded_cents: number;
  pending_refund_cents?: number;
  currency: string;
}

export type ChargeStatus = "paid" | "refund-pending" | "partially-refunded" | "refunded";

export function chargeStatus(payment: ChargeRefunds): ChargeStatus {
  if (payment.refunded_cents > 0)
    return payment.refunded_cents >= payment.amount_cents ? "refunded" : "partially-refunded";
  return (payment.pending_refund_cents ?? 0) > 0 ? "refund-pending" : "paid";
}

/**
 * "Paid", "Refunded $8.55 (95%)", "Refunded $9.00" (all of it), "Refund of $8.55 pending": the amount,
 * never a vague "Partially refunded".
 */
export function chargeStatusText(payment: ChargeRefunds): string {
  const money = (cents: number) => formatMoney(cents, payment.currency);
  switch (chargeStatus(payment)) {
    case "paid":
      // A trial's start is a $0 transaction: nothing was paid, so it does not read "Paid".
      return payment.amount_cents === 0 ? "Nothing charged" : "Paid";
    case "refund-pending":
      return `Refund of ${money(payment.pending_refund_cents ?? 0)} pending`;
    case "refunded":
      return `Refunded ${money(payment.refunded_cents)}`;
    case "partially-refunded":
      return `Refunded ${money(payment.refunded_cents)} (${refundPercent(payment.amount_cents, payment.refunded_cents)}%)`;
  }
}
