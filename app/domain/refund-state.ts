/**
 * Where a license's refund stands, from what the provider reported about each of its transactions
 * (decision 0036). Each payment keeps one refund adjustment: the newest event by its time
 * wins, so events delivered in any order end in the same state; the license's status is then read
 * from all its payments together. Pure: the webhook, the refund request and the tests share it.
 */

export type AdjustmentStatus = "pending_approval" | "approved" | "rejected" | "reversed";
export type RefundRequestState = "requesting" | "requested" | "abandoned";

/** How far along an adjustment is: at the same moment, the further one wins. */
const RANK: Record<AdjustmentStatus, number> = { pending_approval: 0, approved: 1, rejected: 1, reversed: 2 };

/** Whether an adjustment event replaces what the payment holds: newer by its time, or further along at the same time. */
export function adjustmentEventWins(
  stored: { status: AdjustmentStatus | null; at: Date | null },
  incoming: { status: AdjustmentStatus; at: Date },
): boolean {
  if (!stored.status || !stored.at) return true;
  const newer = incoming.at.getTime() - stored.at.getTime();
  return newer !== 0 ? newer > 0 : RANK[incoming.status] >= RANK[stored.status];
}

/** What a payment holds about its refund. */
export interface PaymentRefundFacts {
  amount_cents: number;
  refunded_cents: number;
  refund_cents: number | null;
  refund_status: AdjustmentStatus | null;
  refund_request: RefundRequestState | null;
}

/**
 * What the payment's refund gave back and will give back. An approved adjustment always counts
 * (money moved); a pending one counts unless the site's request of it is still asking the provider
 * or failed (all-or-nothing: a failed request shows nothing pending). Null: no adjustment was ever
 * reported, the payment keeps what it has.
 */
export function paymentRefundAmounts(
  payment: PaymentRefundFacts,
): { refunded_cents: number; pending_refund_cents: number } | null {
  if (!payment.refund_status) return null;
  const cents = Math.max(0, Math.min(payment.amount_cents, payment.refund_cents ?? 0));
  const held = payment.refund_request === "requesting" || payment.refund_request === "abandoned";
  return {
    refunded_cents: payment.refund_status === "approved" ? cents : 0,
    pending_refund_cents: payment.refund_status === "pending_approval" && !held ? cents : 0,
  };
}

/** The license fields a refund changes. */
export interface LicenseRefundFields {
  status: string;
  refunded: boolean;
  refund_amount: number | null;
  refunded_at: Date | null;
}

/** A payment of the license once its amounts are settled. */
export interface SettledPayment {
  refunded_cents: number;
  pending_refund_cents: number;
  refund_status: AdjustmentStatus | null;
  refund_status_at: Date | null;
}

/**
 * The license's refund fields from all its payments: refunded once any adjustment is approved
 * (the amount is what every payment gave back, the date the latest approval's), waiting while one
 * is pending, active again when none is left. A revoked license stays revoked; a license refunded
 * before adjustments were kept per payment stays as it is. Null: nothing to change.
 */
export function licenseRefundOutcome(
  license: LicenseRefundFields,
  payments: readonly SettledPayment[],
): LicenseRefundFields | null {
  if (license.status === "revoked") return null;
  const approved = payments.filter((p) => p.refund_status === "approved" && p.refunded_cents > 0);
  if (approved.length > 0) {
    const at = approved.reduce<Date | null>(
      (latest, p) => (p.refund_status_at && (!latest || p.refund_status_at > latest) ? p.refund_status_at : latest),
      null,
    );
    return {
      status: "refunded",
      refunded: true,
      refund_amount: payments.reduce((sum, p) => sum + p.refunded_cents, 0),
      refunded_at: at ?? license.refunded_at,
    };
  }
  if (license.refunded) return null;
  if (payments.some((p) => p.pending_refund_cents > 0)) return { ...license, status: "refund_requested" };
  return license.status === "refund_requested" ? { ...license, status: "active" } : null;
}

/** Whether a refund of the license is complete: refunded, with nothing pending or still being asked. */
export function refundComplete(
  license: Pick<LicenseRefundFields, "refunded">,
  payments: readonly (SettledPayment & { refund_request: RefundRequestState | null })[],
): boolean {
  return license.refunded && payments.every((p) => p.pending_refund_cents === 0 && p.refund_request !== "requesting");
}
