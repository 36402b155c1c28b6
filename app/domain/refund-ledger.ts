import { formatMoney, isFirstPaidRenewal, paymentDescription, type PaymentKindName } from "./billing";
import { formatDate } from "./format-date";
import { licenseState, type LicenseStateFacts } from "./license-state";
import { REFUND_PERCENT, REFUND_WINDOW_DAYS } from "./plans";

/**
 * The refund ledger (decision 0036): what a refund of a license gives back. Within the refund window it
 * covers the license's plan payment (the newest paid purchase or renewal: the refund window opens
 * again with each) and every extension payment (extension months are still to come), each at 95%
 * rounded up to the cent, each at most once. Pure: the confirmation, the request, the billing page
 * and the tests read the same plan.
 */

/** One payment of the license as the ledger reads it. */
export interface LedgerPayment {
  /** The provider's transaction id. */
  id: string;
  kind: PaymentKindName;
  license_type: string;
  amount_cents: number;
  currency: string;
  /** The units it billed (a team's seats); null or absent when not recorded. */
  quantity?: number | null;
  /** The discount code's discount it was charged with, if any (decision 0073). */
  discount_id?: string | null;
  billed_at: Date | string;
  /** What approved refunds gave back of it. */
  refunded_cents: number;
  /** What a refund requested but not yet approved will give back of it (0 or absent: none). */
  pending_refund_cents?: number;
}

/** One transaction the refund covers, and what it gives back. */
export interface RefundLine {
  transactionId: string;
  kind: PaymentKindName;
  /** "Monthly license", "Extension of a Monthly license". */
  description: string;
  currency: string;
  paidCents: number;
  refundCents: number;
  /** One key per transaction: a retried request never refunds a transaction twice. */
  idempotencyKey: string;
}

export type RefundRefusal =
  | "revoked"
  | "refunded"
  | "refund-requested"
  | "trial"
  | "tester"
  | "expired"
  | "no-window"
  | "window-passed"
  | "nothing-paid"
  | "already-refunded";

export type RefundPlan =
  | { ok: true; lines: RefundLine[]; totals: { currency: string; paidCents: number; refundCents: number }[] }
  | { ok: false; reason: RefundRefusal; message: string };

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** 95% of a charge, rounded up to the cent (docs/product.md, "Licenses": the in-app refund), never more than it. */
export function refundOfCharge(amountCents: number): number {
  return Math.min(amountCents, Math.ceil((amountCents * REFUND_PERCENT) / 100));
}

/** The key a provider adjustment for one transaction of a license's refund is made with. */
export function refundIdempotencyKey(licenseId: string, transactionId: string): string {
  return `refund:${licenseId}:${transactionId}`;
}

/** Whether any refund, approved or pending, touches the payment already. */
export function isTouchedByRefund(payment: Pick<LedgerPayment, "refunded_cents" | "pending_refund_cents">): boolean {
  return payment.refunded_cents > 0 || (payment.pending_refund_cents ?? 0) > 0;
}

/** Why a license cannot be refunded now, in the customer's words; null when the license allows one. */
export function refundRefusal(
  license: LicenseStateFacts,
  now: Date,
): { reason: RefundRefusal; message: string } | null {
  const { state, code } = licenseState(license, now);
  if (state === "revoked")
    return { reason: "revoked", message: "This license was revoked. Contact support about a refund." };
  if (state === "refunded") return { reason: "refunded", message: "This license was refunded already." };
  if (state === "refund-requested")
    return { reason: "refund-requested", message: "A refund was already requested for this license." };
  if (license.license_type === "tester")
    return { reason: "tester", message: "Tester licenses are free: there is nothing to refund." };
  if (license.is_trial || license.license_type === "trial")
    return {
      reason: "trial",
      message: "A trial is free: there is nothing to refund. Cancel it before it ends and you are not charged.",
    };
  if (code !== "VALID") return { reason: "expired", message: "This license has expired, so it cannot be refunded." };
  if (!license.refund_eligible_until)
    return { reason: "no-window", message: "This license was not bought here, so it cannot be refunded here." };
  const until = toDate(license.refund_eligible_until);
  if (until <= now)
    return {
      reason: "window-passed",
      message: `The refund window ended on ${formatDate(until)}: a refund is possible for ${REFUND_WINDOW_DAYS} days after a purchase or renewal.`,
    };
  return null;
}

/** The payments a refund of the license covers: the newest paid plan payment and every paid extension. */
export function coveredPayments<T extends LedgerPayment>(payments: readonly T[]): T[] {
  const paid = payments.filter((p) => p.amount_cents > 0);
  const plans = paid
    .filter((p) => p.kind === "purchase" || p.kind === "renewal")
    .sort((a, b) => toDate(b.billed_at).getTime() - toDate(a.billed_at).getTime() || (a.id < b.id ? 1 : -1));
  const covered = [...plans.slice(0, 1), ...paid.filter((p) => p.kind === "extension")];
  return covered.sort((a, b) => toDate(a.billed_at).getTime() - toDate(b.billed_at).getTime());
}

/**
 * Each currency's paid and refunded totals, in the order the currencies first appear: a euro plan and a
 * US-dollar extension are never added up.
 */
export function totalsOf(lines: readonly Pick<RefundLine, "currency" | "paidCents" | "refundCents">[]) {
  const totals = new Map<string, { currency: string; paidCents: number; refundCents: number }>();
  for (const line of lines) {
    const total = totals.get(line.currency) ?? { currency: line.currency, paidCents: 0, refundCents: 0 };
    total.paidCents += line.paidCents;
    total.refundCents += line.refundCents;
    totals.set(line.currency, total);
  }
  return [...totals.values()];
}

/**
 * What refunding the license would give back now: a line per covered transaction not touched by a
 * refund yet, or why there is nothing to refund.
 */
export function planRefund(
  license: LicenseStateFacts & { id: string },
  payments: readonly LedgerPayment[],
  now: Date,
): RefundPlan {
  const refusal = refundRefusal(license, now);
  if (refusal) return { ok: false, ...refusal };
  const covered = coveredPayments(payments);
  if (covered.length === 0)
    return {
      ok: false,
      reason: "nothing-paid",
      message: "Nothing was paid for this license, so there is nothing to refund.",
    };
  const open = covered.filter((p) => !isTouchedByRefund(p));
  if (open.length === 0)
    return { ok: false, reason: "already-refunded", message: "Every payment for this license was refunded already." };
  const lines = open.map((p) => ({
    transactionId: p.id,
    kind: p.kind,
    description: paymentDescription({ ...p, first_paid: isFirstPaidRenewal(p, payments) }),
    currency: p.currency,
    paidCents: p.amount_cents,
    refundCents: refundOfCharge(p.amount_cents),
    idempotencyKey: refundIdempotencyKey(license.id, p.id),
  }));
  return { ok: true, lines, totals: totalsOf(lines) };
}

/**
 * The payments once the refund's adjustments are requested: each line's transaction gets its
 * pending refund. Re-applying the same lines changes nothing (a transaction touched by a refund is
 * left alone), so a retried request never refunds twice.
 */
export function applyRefund<T extends LedgerPayment>(payments: readonly T[], lines: readonly RefundLine[]): T[] {
  const byId = new Map(lines.map((line) => [line.transactionId, line]));
  return payments.map((payment) => {
    const line = byId.get(payment.id);
    if (!line || isTouchedByRefund(payment)) return payment;
    return { ...payment, pending_refund_cents: Math.min(line.refundCents, payment.amount_cents) };
  });
}

/** The confirmation's words: one line per charge, then the total ("Refund $17.10 of $18.00 (95% of each charge)"). */
export function refundConfirmation(plan: Extract<RefundPlan, { ok: true }>): { items: string[]; total: string } {
  const items = plan.lines.map(
    (line) =>
      `${line.description}: paid ${formatMoney(line.paidCents, line.currency)}, refund ${formatMoney(line.refundCents, line.currency)}`,
  );
  const total = plan.totals
    .map((t) => `${formatMoney(t.refundCents, t.currency)} of ${formatMoney(t.paidCents, t.currency)}`)
    .join(" and ");
  return { items, total: `Refund ${total} (${REFUND_PERCENT}% of each charge)` };
}
