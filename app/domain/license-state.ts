import { formatMoney } from "./billing";
import { renewalPhrase } from "./charge-words";
import { formatDate } from "./format-date";
import type { LicenseFacts } from "./license-status";
import { accessEndsAt, graceEndsAt } from "./past-due";
import { renewalCharge } from "./renewal-charge";
import type { SubscriptionCharge } from "./subscription-prices";

// Where callers have long imported them from; the rule lives in renewal-charge.ts.
export { renewalPriceCents } from "./renewal-charge";
export type { SubscriptionCharge } from "./subscription-prices";

/**
 * One license truth (decision 0030): the one state a license is in at a moment, and everything that
 * names it — the customer's badge and status line, the desktop API's code, the words e-mails,
 * exports and the billing page use, and the admin's support details. Every page and answer reads
 * this function, so the customer, support and the desktop tool never disagree.
 */

export type BadgeTone = "success" | "warning" | "secondary" | "destructive" | "outline" | "info";

/** The desktop API's codes that follow from the license alone (NOT_FOUND and MACHINE_MISMATCH do not). */
export type LicenseStateCode = "REVOKED" | "REFUNDED" | "REFUND_REQUESTED" | "TRIAL_EXPIRED" | "EXPIRED" | "VALID";

/** Where a license card sits and what it offers: the display status (docs/product.md, "License states and types") or the refund state. */
export type LicenseKind =
  "revoked" | "refund-requested" | "refunded" | "trial-active" | "trial-expired" | "active" | "expired";

export const LICENSE_STATE_NAMES = [
  "charged-back",
  "revoked",
  "refunded",
  "refund-requested",
  "trial-expired",
  "trial-converting",
  "trial-active",
  "expired",
  "payment-failed",
  "renewing",
  "renewal-cancelled",
  "active-until",
] as const;
export type LicenseStateName = (typeof LICENSE_STATE_NAMES)[number];

/** The license fields the state reads: the display facts plus the refund's date and amount. */
export type LicenseStateFacts = LicenseFacts & {
  refunded_at?: Date | string | null;
  refund_amount?: number | null;
  /** A payment of the license was charged back (decision 0056): revoked for that reason. */
  charged_back_at?: Date | string | null;
  /**
   * The license's payments, oldest first, where the caller has them (the licenses page): their
   * currency is the subscription's, in which its renewal is priced (decision 0072).
   */
  charges?: readonly SubscriptionCharge[];
};

/** What the line of a state is built from. */
interface LineContext {
  /** The date the state is about (renewal, end, trial end, grace end, refund), when it has one. */
  date: string;
  at: Date | null;
  /** The renewal's or first charge's amount ("$9.00"), or null when not known (no plan price). */
  charge: string | null;
  chargeCents: number | null;
  /** The currency of `chargeCents` (the subscription's); US dollars when absent. */
  currency?: string;
}

interface StateRow {
  kind: LicenseKind;
  badge: { label: string; tone: BadgeTone };
  code: LicenseStateCode;
  line: (context: LineContext) => string;
  /** A short lower-case phrase for sentences and exports ("refunded", "payment failed"). */
  word: string;
}

/**
 * The table: for every state, the card's group, its badge, the desktop API's code and the status
 * line. The order of LICENSE_STATE_NAMES is the order they are decided (see licenseState).
 */
export const LICENSE_STATE_TABLE: Record<LicenseStateName, StateRow> = {
  // A payment disputed with the customer's bank and lost (decision 0056): revoked, with its own words;
  // the desktop tool reads REVOKED (its reason "chargeback" beside it), so its contract is unchanged.
  "charged-back": {
    kind: "revoked",
    badge: { label: "Charged back", tone: "destructive" },
    code: "REVOKED",
    line: ({ date }) =>
      date
        ? `Revoked on ${date}: a payment for it was disputed with the bank (a chargeback).`
        : "Revoked: a payment for it was disputed with the bank (a chargeback).",
    word: "charged back",
  },
  revoked: {
    kind: "revoked",
    badge: { label: "Revoked", tone: "destructive" },
    code: "REVOKED",
    line: () => "Revoked: this license no longer works.",
    word: "revoked",
  },
  refunded: {
    kind: "refunded",
    badge: { label: "Refunded", tone: "secondary" },
    code: "REFUNDED",
    line: ({ date }) => (date ? `Refunded on ${date}` : "Refunded"),
    word: "refunded",
  },
  "refund-requested": {
    kind: "refund-requested",
    badge: { label: "Refund requested", tone: "warning" },
    code: "REFUND_REQUESTED",
    line: () => "Refund requested: it is being processed.",
    word: "refund requested",
  },
  "trial-expired": {
    kind: "trial-expired",
    badge: { label: "Trial Expired", tone: "outline" },
    code: "TRIAL_EXPIRED",
    line: ({ date }) => `Trial Expired on ${date}`,
    word: "trial expired",
  },
  // A trial wears its own badge, not a paid license's green "Active" (decision 0040).
  "trial-converting": {
    kind: "trial-active",
    badge: { label: "Trial", tone: "info" },
    code: "VALID",
    line: ({ date, charge }) =>
      charge
        ? `Active, trial until ${date}; first charge ${charge} on ${date}, then renews automatically`
        : `Active, trial until ${date}, then renews automatically`,
    word: "trial",
  },
  "trial-active": {
    kind: "trial-active",
    badge: { label: "Trial", tone: "info" },
    code: "VALID",
    line: ({ date }) => `Active, trial until ${date}`,
    word: "trial",
  },
  expired: {
    kind: "expired",
    badge: { label: "Expired", tone: "outline" },
    code: "EXPIRED",
    line: ({ date }) => `Expired on ${date}`,
    word: "expired",
  },
  // A renewal that could not be charged (decision 0023): working through the grace period, and
  // renewing only once a payment goes through.
  "payment-failed": {
    kind: "active",
    badge: { label: "Payment failed", tone: "warning" },
    code: "VALID",
    line: ({ date }) => `Payment failed: active until ${date} unless a payment goes through`,
    word: "payment failed",
  },
  renewing: {
    kind: "active",
    badge: { label: "Active", tone: "success" },
    code: "VALID",
    line: ({ date, at, chargeCents, currency }) =>
      at ? `Active, ${renewalPhrase(at, chargeCents, currency)}` : `Active, renews ${date}`,
    word: "active",
  },
  "renewal-cancelled": {
    kind: "active",
    badge: { label: "Active", tone: "success" },
    code: "VALID",
    line: ({ date }) => `Active until ${date}; automatic renewal is cancelled`,
    word: "active",
  },
  "active-until": {
    kind: "active",
    badge: { label: "Active", tone: "success" },
    code: "VALID",
    line: ({ date }) => `Active, until ${date}`,
    word: "active",
  },
};

/** A license's state now, with everything that names it. */
export interface LicenseState {
  state: LicenseStateName;
  kind: LicenseKind;
  badge: { label: string; tone: BadgeTone };
  /** The one status line: the state and its date. */
  line: string;
  /** The desktop API's code for this state (before the machine is compared). */
  code: LicenseStateCode;
  /** The date the line names, or null (revoked, refund requested, a refund without a date). */
  date: Date | null;
  /** The amount the next charge takes, in minor units, when one is coming (renewing, a converting trial). */
  nextChargeCents: number | null;
  /** Its currency: the subscription's (decision 0072), US dollars unless its payments say otherwise. */
  nextChargeCurrency: string;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** Which state, and the date it is about. Decided in LICENSE_STATE_NAMES order. */
function decide(license: LicenseStateFacts, now: Date): { state: LicenseStateName; date: Date | null } {
  if (license.status === "revoked")
    return license.charged_back_at
      ? { state: "charged-back", date: toDate(license.charged_back_at) }
      : { state: "revoked", date: null };
  if (license.refunded || license.status === "refunded")
    return { state: "refunded", date: license.refunded_at ? toDate(license.refunded_at) : null };
  if (license.status === "refund_requested") return { state: "refund-requested", date: null };
  const accessEnd = accessEndsAt(license);
  const renewing = license.auto_renew && !license.cancellation_requested;
  if (license.is_trial && license.trial_ends_at) {
    const trialEnd = toDate(license.trial_ends_at);
    if (trialEnd <= now) return { state: "trial-expired", date: trialEnd };
    // A trial whose end date is behind it does not work (the desktop tool says EXPIRED): say so.
    if (accessEnd <= now) return { state: "expired", date: toDate(license.end_date) };
    return { state: renewing && license.has_subscription ? "trial-converting" : "trial-active", date: trialEnd };
  }
  if (accessEnd <= now) return { state: "expired", date: toDate(license.end_date) };
  const graceEnd = graceEndsAt(license);
  if (graceEnd) return { state: "payment-failed", date: graceEnd };
  const end = toDate(license.end_date);
  if (renewing) return { state: "renewing", date: end };
  return { state: license.cancellation_requested ? "renewal-cancelled" : "active-until", date: end };
}

/** The one state function: what a license is now, for the customer, support and the desktop tool. */
export function licenseState(license: LicenseStateFacts, now: Date): LicenseState {
  const { state, date } = decide(license, now);
  const row = LICENSE_STATE_TABLE[state];
  const charging = state === "renewing" || state === "trial-converting";
  const next = charging ? renewalCharge(license) : { cents: null, currency: "USD" };
  const nextChargeCents = next.cents;
  const charge = nextChargeCents === null ? null : formatMoney(nextChargeCents, next.currency);
  return {
    state,
    kind: row.kind,
    badge: row.badge,
    line: row.line({
      date: date ? formatDate(date) : "",
      at: date,
      charge,
      chargeCents: nextChargeCents,
      currency: next.currency,
    }),
    code: row.code,
    date,
    nextChargeCents,
    nextChargeCurrency: next.currency,
  };
}

/**
 * The desktop API's code of the state (the same decision as `licenseState`, without building the
 * customer's line: no dates or money formatted, for the API's hottest path).
 */
export function licenseStateCode(license: LicenseStateFacts, now: Date): LicenseStateCode {
  return LICENSE_STATE_TABLE[decide(license, now).state].code;
}

/** The state's short phrase for sentences and exports: "refunded", "payment failed", "active". */
export function licenseStateWord(license: LicenseStateFacts, now: Date): string {
  return LICENSE_STATE_TABLE[decide(license, now).state].word;
}

/** The state as one field (e-mails, the audit CSV, the billing page): "Refunded — Refunded on Jun 13, 2026". */
export function licenseStateText(license: LicenseStateFacts, now: Date): string {
  const { badge, line } = licenseState(license, now);
  return line.startsWith(badge.label) ? line : `${badge.label} — ${line}`;
}

/**
 * What an audit entry records of a license's state when something is done to it (a revoke, a
 * refund request): the customer's badge and line and the desktop tool's code, so the audit log and
 * its CSV name the state in the same words as the pages.
 */
export function auditLicenseState(license: LicenseStateFacts, now: Date) {
  const { badge, line, code } = licenseState(license, now);
  return { license_state: badge.label, license_status_line: line, desktop_code: code };
}
