import { formatMoney } from "./billing";
import { refundOfCharge } from "./refund-ledger";

/**
 * Support's refund of one payment (decision 0036): the policy amount (95%, as the customer's own refund)
 * or all of it, with a reason, allowed outside the customer's refund window. Pure: the admin page's
 * dialog and the server's checks read the same rules and texts.
 */

export const STAFF_REFUND_REASON_MAX = 500;

export const STAFF_REFUND_TEXTS = {
  reasonRequired: "Enter the reason for this refund.",
  reasonTooLong: `The reason can be at most ${STAFF_REFUND_REASON_MAX} characters.`,
  unknownPayment: "This payment was not found for this user.",
  nothingPaid: "Nothing was paid in this transaction, so there is nothing to refund.",
  alreadyRefunded: "This payment was refunded already, or a refund of it is pending.",
  chargedBack: "This payment was charged back: the customer's bank returned it already, so there is nothing to refund.",
  badAmount: "Choose the amount to refund.",
  tooMuch: (paid: string) => `The refund cannot be more than was paid (${paid}).`,
  failed: "Failed to process refund",
  done: (amount: string) => ({
    title: "Refund requested",
    description: `A refund of ${amount} was sent to the payment provider.`,
  }),
} as const;

/** What the rules read of a payment. */
export interface StaffRefundPayment {
  amount_cents: number;
  currency: string;
  refunded_cents: number;
  pending_refund_cents: number;
  refund_request: string | null;
  /**
   * The admin page's status of the row: a renewal charge that failed ("failed") was never paid and
   * has no transaction to refund; absent for a stored payment (always settled).
   */
  status?: string;
  /** The payment's dispute: a charged-back payment's money went back through the bank already. */
  dispute_status?: string | null;
}

/** The two amounts support can choose: the policy's 95% and the full amount. */
export function staffRefundChoices(payment: Pick<StaffRefundPayment, "amount_cents">) {
  return [
    { kind: "policy" as const, label: "Policy amount (95%)", cents: refundOfCharge(payment.amount_cents) },
    { kind: "full" as const, label: "Full amount", cents: payment.amount_cents },
  ];
}

/** Whether a payment can be refunded by support at all (paid, untouched by a refund). */
export function staffRefundable(payment: StaffRefundPayment): boolean {
  return (
    (payment.status === undefined || payment.status === "paid") &&
    payment.dispute_status !== "charged_back" &&
    payment.amount_cents > 0 &&
    payment.refunded_cents === 0 &&
    payment.pending_refund_cents === 0 &&
    payment.refund_request !== "requesting" &&
    payment.refund_request !== "requested"
  );
}

export type StaffRefundCheck =
  | { ok: true; amountCents: number; full: boolean; reason: string }
  | { ok: false; status: 400 | 409; message: string; field?: "amount" | "reason" };

/** Checks support's request against the payment: an amount paid and not refunded yet, a reason. */
export function checkStaffRefund(
  payment: StaffRefundPayment,
  input: { amount: unknown; reason: unknown },
): StaffRefundCheck {
  const reason = typeof input.reason === "string" ? input.reason.trim() : "";
  if (!reason) return { ok: false, status: 400, message: STAFF_REFUND_TEXTS.reasonRequired, field: "reason" };
  if (reason.length > STAFF_REFUND_REASON_MAX)
    return { ok: false, status: 400, message: STAFF_REFUND_TEXTS.reasonTooLong, field: "reason" };
  const raw = typeof input.amount === "string" ? input.amount.trim() : "";
  const amountCents = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(amountCents) || amountCents <= 0)
    return { ok: false, status: 400, message: STAFF_REFUND_TEXTS.badAmount, field: "amount" };
  if (payment.amount_cents <= 0) return { ok: false, status: 409, message: STAFF_REFUND_TEXTS.nothingPaid };
  if (payment.dispute_status === "charged_back")
    return { ok: false, status: 409, message: STAFF_REFUND_TEXTS.chargedBack };
  if (!staffRefundable(payment)) return { ok: false, status: 409, message: STAFF_REFUND_TEXTS.alreadyRefunded };
  if (amountCents > payment.amount_cents)
    return {
      ok: false,
      status: 400,
      message: STAFF_REFUND_TEXTS.tooMuch(formatMoney(payment.amount_cents, payment.currency)),
      field: "amount",
    };
  return { ok: true, amountCents, full: amountCents === payment.amount_cents, reason };
}
