import { formatDate } from "./format-date";
import { licenseState, type LicenseState, type LicenseStateFacts } from "./license-state";
import { graceEndsAt } from "./past-due";

/**
 * What support sees of a license (issue 24): the customer's exact badge and status line, the
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
  return { state, details };
}
