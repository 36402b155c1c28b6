import { graceEndsAt } from "./past-due";
import { isPlanId, refundAmountCents, type QuotedPrices } from "./plans";

/** The license fields the display and eligibility rules read (dates as Date or ISO strings). */
export interface LicenseFacts {
  license_type: string;
  status: string;
  end_date: Date | string;
  is_trial: boolean;
  trial_ends_at: Date | string | null;
  auto_renew: boolean;
  cancellation_requested: boolean;
  /** The license is backed by a provider subscription (its id stays on the server). */
  has_subscription: boolean;
  refunded: boolean;
  refund_eligible_until: Date | string | null;
  /** A renewal payment failed (decision 0023): the license keeps working for a grace period. */
  past_due_since?: Date | string | null;
  /**
   * The license's part in a team, when it has one: the team's subscription ("billing",
   * owned by the team's owner, who pays for every seat) or a member's seat ("seat": its member pays
   * nothing). Absent or null for a person's own license.
   */
  team_role?: string | null;
  /**
   * On a team's subscription ("billing"): the seats its next renewal bills (the fewer seats
   * scheduled from the next renewal, else the paid seats). Read with the team; see renewalPriceCents.
   */
  renewal_seats?: number | null;
  /** A switch to a shorter plan waiting for the next renewal (decision 0061): that renewal bills it. */
  plan_next_renewal?: string | null;
  /** The percent the cancel step's discount takes off the next renewal (decision 0065); null when none. */
  renewal_discount_percent?: number | null;
  /** Every plan's price in the subscription's currency as quoted at checkout (decision 0072); null when not kept. */
  quoted_prices?: QuotedPrices | null;
}

/** A stored license as the rules read it: whether it has a subscription, not the subscription's id. */
export function licenseFacts<T extends { paddle_subscription_id: string | null }>(
  row: T,
): T & { has_subscription: boolean } {
  return { ...row, has_subscription: Boolean(row.paddle_subscription_id) };
}

export type LicenseDisplayStatus =
  | { kind: "revoked"; label: "Revoked" }
  | { kind: "trial-active"; label: "Active"; detail: "trial until"; date: Date }
  | { kind: "trial-expired"; label: "Trial Expired"; date: Date }
  | { kind: "active"; label: "Active"; detail: "renews at" | "until"; date: Date }
  | { kind: "expired"; label: "Expired"; date: Date };

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * The display status (docs/product.md, "License states and types"): revoked first; a trial with a trial end date is
 * active before that date and "Trial Expired" after; otherwise active while the end date is
 * ahead (renewing or not), else expired.
 */
export function getLicenseDisplayStatus(license: LicenseFacts, now: Date = new Date()): LicenseDisplayStatus {
  if (license.status === "revoked") return { kind: "revoked", label: "Revoked" };
  if (license.is_trial && license.trial_ends_at) {
    const trialEnd = toDate(license.trial_ends_at);
    return now < trialEnd
      ? { kind: "trial-active", label: "Active", detail: "trial until", date: trialEnd }
      : { kind: "trial-expired", label: "Trial Expired", date: trialEnd };
  }
  const end = toDate(license.end_date);
  if (end > now)
    return { kind: "active", label: "Active", detail: license.auto_renew ? "renews at" : "until", date: end };
  // A renewal payment failed: still active until the grace period ends (decision 0023).
  const graceEnd = graceEndsAt(license);
  if (graceEnd && graceEnd > now) return { kind: "active", label: "Active", detail: "until", date: graceEnd };
  return { kind: "expired", label: "Expired", date: end };
}

export function isExpired(license: LicenseFacts, now: Date = new Date()): boolean {
  const kind = getLicenseDisplayStatus(license, now).kind;
  return kind === "expired" || kind === "trial-expired";
}

/** Refunded, or waiting for a refund: the key and offline data are hidden. */
export function isRefundLocked(license: Pick<LicenseFacts, "status" | "refunded">): boolean {
  return license.refunded || license.status === "refunded" || license.status === "refund_requested";
}

/** Refund: not expired, not refunded, not trial, not tester, and now before refund_eligible_until. */
export function isRefundEligible(license: LicenseFacts, now: Date = new Date()): boolean {
  if (license.status !== "active") return false;
  if (license.refunded || license.is_trial || license.license_type === "trial" || license.license_type === "tester")
    return false;
  if (!license.refund_eligible_until || !isPlanId(license.license_type)) return false;
  if (isExpired(license, now)) return false;
  return now < toDate(license.refund_eligible_until);
}

/** The in-app refund for a license: 95% of its plan's price, rounded up to the cent. */
export function licenseRefundCents(license: Pick<LicenseFacts, "license_type">): number | null {
  return isPlanId(license.license_type) ? refundAmountCents(license.license_type) : null;
}

/**
 * Tester and trial licenses have no subscription section (docs/product.md, "Licenses"). A plan bought with the
 * first-time buyer's 7-day trial is a subscription that bills when the trial ends, so it keeps
 * its section: its owner can cancel before being charged (docs/decisions/0013).
 */
export function hasSubscriptionSection(
  license: Pick<LicenseFacts, "license_type" | "is_trial" | "has_subscription">,
): boolean {
  if (license.license_type === "trial" || license.license_type === "tester") return false;
  return !license.is_trial || license.has_subscription;
}

/** Cancel allowed: auto-renewing, no cancellation requested yet, and a subscription id. */
export function canCancelRenewal(license: LicenseFacts): boolean {
  return license.auto_renew && !license.cancellation_requested && license.has_subscription;
}

/** Re-enable allowed: a cancellation was requested. */
export function canReenableRenewal(license: LicenseFacts): boolean {
  return license.cancellation_requested;
}
