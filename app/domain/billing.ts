import { formatUsd, licenseTypeLabel, writeDollars } from "./plans";

/**
 * The billing history (docs/product.md): what each payment paid for, its status and its
 * invoice. Pure: the /billing page renders these, the invoice PDF prints the same words.
 */

/**
 * "seats": the prorated charge for seats added to a team; "plan_change": the charge of a switch to a
 * longer plan, less the unused part of the period before it (decision 0061).
 */
export type PaymentKindName = "purchase" | "renewal" | "extension" | "seats" | "plan_change";
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
  /** The payment is a team subscription's (decision 0046): "Yearly team subscription", not "Yearly license". */
  team?: boolean;
  /** A renewal that is the license's first paid charge: its free trial turned into the paid plan. */
  first_paid?: boolean;
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
 * Monthly team". The provider bills a trial's end as the subscription's first renewal, but for the
 * customer it is the plan's purchase: "Monthly license, first payment after the free trial".
 */
export function paymentDescription(payment: {
  kind: PaymentKindName;
  license_type: string;
  amount_cents: number;
  team?: boolean;
  first_paid?: boolean;
}): string {
  const plan = licenseTypeLabel(payment.license_type);
  const what = payment.team ? `${plan} team subscription` : `${plan} license`;
  switch (payment.kind) {
    case "purchase":
      return payment.amount_cents === 0 ? `${what}, free trial` : what;
    case "renewal":
      return payment.first_paid ? `${what}, first payment after the free trial` : `${what} renewal`;
    case "extension":
      return `Extension of a ${plan} license`;
    case "seats":
      return `Added seats, ${plan} team`;
    case "plan_change":
      return `Switch to a ${plan} license (unused time credited)`;
  }
}

/**
 * Whether a payment is its license's first paid charge although the provider bills it as a
 * renewal: a trial's end (no charge above zero before it on the license). The same rule as the
 * billing history's query (billing-history.server.ts, `first_paid`), for the places that hold a
 * license's payments: the refund ledger, the staff refund, its dialog and the refund e-mail (decision 0057).
 */
export function isFirstPaidRenewal(
  payment: { kind: string; billed_at: Date | string },
  licensePayments: readonly { amount_cents: number; billed_at: Date | string }[],
): boolean {
  if (payment.kind !== "renewal") return false;
  const at = new Date(payment.billed_at).getTime();
  return !licensePayments.some((p) => p.amount_cents > 0 && new Date(p.billed_at).getTime() < at);
}

/** Paddle has no invoice for a zero-value transaction (a trial's start); neither has the demo. */
export function hasInvoice(payment: { amount_cents: number }): boolean {
  return payment.amount_cents > 0;
}

// One formatter per currency for the process (building one costs more than the pages' other work with
// money: a licenses page formats dozens of amounts).
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

/** The currency's formatter; `whole`: one without a fraction, for a whole amount quoted as a price. */
function moneyFormat(currency: string, whole = false): Intl.NumberFormat | null {
  const key = whole ? `${currency} whole` : currency;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
      });
    } catch {
      format = null;
    }
    // Currencies come from payments and prices (a handful); a bound keeps an odd input from growing the map.
    if (moneyFormats.size < 100) moneyFormats.set(key, format);
  }
  return format;
}

// resolvedOptions() builds a new object on every call: a licenses page asked it for every amount.
const minorDigits = new Map<string, number>();

/** Digits after the decimal point of a currency's minor unit: 2 for USD and EUR, 0 for JPY (Paddle's amounts). */
export function minorUnitDigits(currency: string): number {
  if (currency === "USD") return 2;
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    digits = moneyFormat(currency)?.resolvedOptions().maximumFractionDigits ?? 2;
    if (minorDigits.size < 100) minorDigits.set(currency, digits);
  }
  return digits;
}

/** An amount in the currency's minor units (cents, or yen) as money: "$9.00", "€49.50", "¥1,400". */
export function formatMoney(minor: number, currency: string): string {
  // Dollars, the usual case, without Intl (decision 0085).
  if (currency === "USD" && Number.isSafeInteger(minor)) return writeDollars(minor, false);
  const units = minor / 10 ** minorUnitDigits(currency);
  return moneyFormat(currency)?.format(units) ?? `${units.toFixed(2)} ${currency}`;
}

/**
 * A price quoted before paying, in any currency, without a zero fraction: "$9", "€9.99", "¥1,400",
 * "₹799" (docs/voice.md). `formatUsd` is the same for US dollars.
 */
export function formatPrice(minor: number, currency: string): string {
  if (currency === "USD" && Number.isSafeInteger(minor)) return formatUsd(minor);
  const scale = 10 ** minorUnitDigits(currency);
  if (minor % scale !== 0) return formatMoney(minor, currency);
  return moneyFormat(currency, true)?.format(minor / scale) ?? `${minor / scale} ${currency}`;
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
