import { LICENSE_TYPE_LABELS } from "./license-status";

/**
 * The billing history (issue 14, part 3): what each payment paid for, its status and its
 * invoice. Pure: the /billing page renders these, the invoice PDF prints the same words.
 */

/** "seats": the prorated charge for seats added to a team (issue 30). */
export type PaymentKindName = "purchase" | "renewal" | "extension" | "seats";
export type PaymentStatus = "paid" | "partially-refunded" | "refunded";

/** One payment as the billing history shows it (dates as ISO strings). */
export interface BillingEntryView {
  /** The provider's transaction id: also the invoice's address (/billing/invoices/:id). */
  id: string;
  billed_at: string;
  kind: PaymentKindName;
  license_type: string;
  license_short_id: string;
  amount_cents: number;
  refunded_cents: number;
  /** What a refund requested and not yet approved will give back ("Refund of $8.55 pending"). */
  pending_refund_cents?: number;
  currency: string;
  /** The payment is a team subscription's (issue 30): "Yearly team subscription", not "Yearly license". */
  team?: boolean;
}

/**
 * Paid, or refunded in part or in full (a refund of the whole amount or more is a full refund). Its
 * words, with the amount ("Refunded $8.55 (95%)"), are charge-words.ts's chargeStatusText.
 */
export function paymentStatus(payment: { amount_cents: number; refunded_cents: number }): PaymentStatus {
  if (payment.refunded_cents <= 0) return "paid";
  return payment.refunded_cents >= payment.amount_cents ? "refunded" : "partially-refunded";
}

/**
 * What a payment paid for: "Monthly license", "Monthly license renewal", "Extension of a Monthly
 * license"; a team's: "Monthly team subscription", "Monthly team subscription renewal", "Added seats,
 * Monthly team".
 */
export function paymentDescription(payment: {
  kind: PaymentKindName;
  license_type: string;
  amount_cents: number;
  team?: boolean;
}): string {
  const plan = LICENSE_TYPE_LABELS[payment.license_type] ?? payment.license_type;
  const what = payment.team ? `${plan} team subscription` : `${plan} license`;
  switch (payment.kind) {
    case "purchase":
      return payment.amount_cents === 0 ? `${what}, free trial` : what;
    case "renewal":
      return `${what} renewal`;
    case "extension":
      return `Extension of a ${plan} license`;
    case "seats":
      return `Added seats, ${plan} team`;
  }
}

/** Paddle has no invoice for a zero-value transaction (a trial's start); neither has the demo. */
export function hasInvoice(payment: { amount_cents: number }): boolean {
  return payment.amount_cents > 0;
}

/** An amount in minor units as money: "$9.00", "€49.50". */
export function formatMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** The page's texts, in one place for the page and its tests. */
export const BILLING_TEXTS = {
  title: "Billing history",
  intro: "Every payment for your licenses, with its invoice.",
  empty: "No payments yet",
  emptyDetail: "Payments for your licenses appear here with their invoices.",
  download: "Download invoice",
  noInvoice: "No invoice (nothing charged)",
  invoiceFailed: "The invoice could not be fetched. Please try again.",
} as const;
