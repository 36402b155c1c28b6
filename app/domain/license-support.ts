import { formatDate } from "./format-date";
import { licenseState, type LicenseState, type LicenseStateFacts } from "./license-state";
import { graceEndsAt, PAYMENT_PROBLEM_TEXTS } from "./past-due";

/**
 * What support sees of a license (decision 0030): the customer's exact badge and status line, the
 * desktop API's code, and the details that help answer a customer (subscription, renewal, grace
 * end, payment method, refund window). Pure: the admin's user page and search results render it
 * straight from their license views (AdminLicenseView carries every fact it reads).
 */

export type SupportFacts = Omit<LicenseStateFacts, "has_subscription"> & {
  /** The provider subscription's id (support may read it; the customer's pages never carry it). */
  paddle_subscription_id: string | null;
  /** The payment method the provider has on file ("Visa •••• 4242"), when the caller fetched it. */
  payment_method?: string | null;
  /** The card the provider last charged for the license, as its webhooks said (brand, last 4). */
  payment_card_brand?: string | null;
  payment_card_last4?: string | null;
  /** The license's short id, to name its card ("FK-AB12-CD34"). */
  short_id?: string;
  /** The provider's reason for the last declined charge ("insufficient funds", `declineReasonOf`), when stored. */
  decline_reason?: string | null;
  /** How many attempts of the failed charge were declined, and when the last was, when stored. */
  failed_attempts?: number | null;
  last_failed_attempt_at?: Date | string | null;
};

const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  american_express: "American Express",
  amex: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners_club: "Diners Club",
  maestro: "Maestro",
  union_pay: "UnionPay",
};

/** "Visa •••• 4242"; null when the provider did not say. */
export function paymentMethodText(brand: string | null | undefined, last4: string | null | undefined): string | null {
  if (!brand || !last4) return null;
  const name = CARD_BRANDS[brand.toLowerCase()] ?? brand.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  return `${name} •••• ${last4}`;
}

export interface SupportDetail {
  label: string;
  value: string;
}

export interface SupportView {
  /** The customer's own badge, line and the desktop tool's code: the same state function. */
  state: LicenseState;
  details: SupportDetail[];
  /** A failed payment explained for support (decision 0057): why, the next try, what the customer does; null when paid up. */
  paymentProblem: string[] | null;
}

/**
 * A failed renewal explained for support (decision 0057): when it failed and why (the provider's
 * reason when one is stored, else said to be unavailable), when the license stops unless a payment
 * goes through (the grace end: the provider's retries fall inside it, decision 0023; it does not
 * announce their dates, so support is told how often it tried and when it last did), and what the
 * customer does: "Update payment method" on the license's card.
 */
export function paymentProblemLines(license: SupportFacts, now: Date): string[] | null {
  const graceEnd = graceEndsAt(license);
  if (!license.past_due_since || !graceEnd) return null;
  const reason = license.decline_reason?.trim();
  const stopped = graceEnd <= now;
  const attempts = license.failed_attempts ?? 0;
  const lastAttempt = license.last_failed_attempt_at ? toDate(license.last_failed_attempt_at) : null;
  return [
    `The renewal charge failed on ${formatDate(license.past_due_since)}.`,
    ...(attempts > 0 && lastAttempt
      ? [`Declined attempts so far: ${attempts}, the last on ${formatDate(lastAttempt)}.`]
      : []),
    reason
      ? `Decline reason from the provider: ${reason}.`
      : "Decline reason: not available (the provider's failure event is not stored, or named none).",
    stopped
      ? `The license stopped working on ${formatDate(graceEnd)}: no payment went through in the grace period.`
      : `The provider retries the charge automatically until ${formatDate(graceEnd)}; it does not announce the dates of its retries. If no payment goes through by then, the license stops working and its subscription ends.`,
    `What the customer does: on /licenses, "${PAYMENT_PROBLEM_TEXTS.button}" on ${license.short_id ? `the card of license ${license.short_id}` : "the license's card"}; the renewal is charged at once and the license runs on.`,
  ];
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function renewalDetail(license: SupportFacts, state: LicenseState): string {
  if (!license.paddle_subscription_id) return "No subscription";
  if (state.kind === "revoked" || state.kind === "refunded" || state.kind === "refund-requested") return "Stopped";
  if (license.cancellation_requested) return `Cancelled, ends on ${formatDate(license.end_date)}`;
  if (!license.auto_renew) return "Not renewing";
  if (state.state === "payment-failed") return "Renewal payment failed; the provider retries";
  return state.date ? `Renews on ${formatDate(state.date)}` : "Renewing";
}

function refundWindowDetail(license: SupportFacts, now: Date): string {
  if (!license.refund_eligible_until) return "None";
  const until = toDate(license.refund_eligible_until);
  return until > now ? `Open until ${formatDate(until)}` : `Closed on ${formatDate(until)}`;
}

/** The support block for one license: its state as the customer sees it, and the details. */
export function supportView(license: SupportFacts, now: Date): SupportView {
  const state = licenseState({ ...license, has_subscription: Boolean(license.paddle_subscription_id) }, now);
  const graceEnd = graceEndsAt(license);
  const details: SupportDetail[] = [
    { label: "Subscription", value: license.paddle_subscription_id ?? "None" },
    { label: "Renewal", value: renewalDetail(license, state) },
    {
      label: "Grace period ends",
      value: graceEnd ? formatDate(graceEnd) : "Not past due",
    },
    {
      label: "Payment method",
      value:
        license.payment_method?.trim() ||
        paymentMethodText(license.payment_card_brand, license.payment_card_last4) ||
        "Not on file",
    },
    { label: "Refund window", value: refundWindowDetail(license, now) },
    { label: "Desktop API code", value: state.code },
  ];
  return { state, details, paymentProblem: paymentProblemLines(license, now) };
}
