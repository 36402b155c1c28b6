import { formatMoney, paymentDescription, type PaymentKindName } from "./billing";
import { chargeStatus, chargeStatusText } from "./charge-words";
import { licenseFallbackSentence } from "./fallback";
import { formatDate } from "./format-date";
import { licenseState, renewalPriceCents, type LicenseStateFacts } from "./license-state";
import { licenseTypeLabel } from "./plans";

/**
 * What /billing shows beyond past payments (decision 0030): the charges to come (date, amount, license),
 * renewals that failed, and refunds pending and done. Pure, read from the one license state, so
 * /billing never promises a charge the license card does not.
 */

export type OverviewLicense = LicenseStateFacts & { id: string; short_id: string };

export interface UpcomingCharge {
  licenseId: string;
  licenseShortId: string;
  /**
   * A renewal, a trial's first charge, or a failed renewal the provider still retries (past due and
   * still renewing: it is charged as soon as a payment goes through, until the grace period's end).
   */
  kind: "renewal" | "first-charge" | "retry";
  /** A retry: until when the provider retries it (the grace period's end). */
  retriedUntil?: string;
  at: string;
  amountCents: number;
  currency: string;
  /** The seats a team subscription's renewal bills; null for a person's own license. */
  seats: number | null;
  /** "Jul 5, 2026: $9.00 for the Monthly license FK-AB12-CD34 (renewal)". */
  text: string;
}

/** The charges ahead, soonest first: every renewing license and every trial that converts. */
export function upcomingCharges(licenses: readonly OverviewLicense[], now: Date): UpcomingCharge[] {
  const charges: UpcomingCharge[] = [];
  for (const license of licenses) {
    const state = licenseState(license, now);
    const retry = pendingRetry(license, state, now);
    if (retry) charges.push(retry);
    if (state.nextChargeCents === null || !state.date) continue;
    const kind = state.state === "trial-converting" ? "first-charge" : "renewal";
    const plan = licenseTypeLabel(license.license_type);
    const seats = license.team_role === "billing" && license.renewal_seats ? license.renewal_seats : null;
    const what = seats ? `${seats} seats of the ${plan} team subscription` : `the ${plan} license`;
    charges.push({
      licenseId: license.id,
      licenseShortId: license.short_id,
      kind,
      at: state.date.toISOString(),
      amountCents: state.nextChargeCents,
      currency: state.nextChargeCurrency,
      seats,
      text: `${formatDate(state.date)}: ${formatMoney(state.nextChargeCents, state.nextChargeCurrency)} for ${what} ${license.short_id} (${kind === "renewal" ? "renewal" : "first charge after the trial"})`,
    });
  }
  return charges.sort((a, b) => a.at.localeCompare(b.at) || a.licenseShortId.localeCompare(b.licenseShortId));
}

/**
 * A past-due license that still renews (decision 0023): its failed renewal is pending, retried by
 * the provider until the grace period ends; it is listed as a charge to come, never "no charges".
 */
function pendingRetry(
  license: OverviewLicense,
  state: ReturnType<typeof licenseState>,
  now: Date,
): UpcomingCharge | null {
  if (state.state !== "payment-failed" || !state.date || !license.past_due_since) return null;
  if (!license.auto_renew || license.cancellation_requested) return null;
  const cents = renewalPriceCents(license);
  if (cents === null) return null;
  const plan = licenseTypeLabel(license.license_type);
  const seats = license.team_role === "billing" && license.renewal_seats ? license.renewal_seats : null;
  const what = seats ? `${seats} seats of the ${plan} team subscription` : `the ${plan} license`;
  return {
    licenseId: license.id,
    licenseShortId: license.short_id,
    kind: "retry",
    at: (now < state.date ? now : state.date).toISOString(),
    retriedUntil: state.date.toISOString(),
    amountCents: cents,
    currency: "USD",
    seats,
    text: `Due now: ${formatMoney(cents, "USD")} for ${what} ${license.short_id} (the failed renewal, retried automatically until ${formatDate(state.date)})`,
  };
}

export interface FailedAttempt {
  licenseId: string;
  licenseShortId: string;
  since: string;
  graceEndsAt: string;
  text: string;
}

/** Renewals that could not be charged and are still due, with until when each license works. */
export function failedAttempts(licenses: readonly OverviewLicense[], now: Date): FailedAttempt[] {
  const failed: FailedAttempt[] = [];
  for (const license of licenses) {
    const state = licenseState(license, now);
    if (state.state !== "payment-failed" || !state.date || !license.past_due_since) continue;
    const since = new Date(license.past_due_since);
    failed.push({
      licenseId: license.id,
      licenseShortId: license.short_id,
      since: since.toISOString(),
      graceEndsAt: state.date.toISOString(),
      text: `The renewal of the ${licenseTypeLabel(license.license_type)} license ${license.short_id} could not be charged on ${formatDate(since)}. It works until ${formatDate(state.date)} unless a payment goes through.`,
    });
  }
  return failed.sort((a, b) => a.graceEndsAt.localeCompare(b.graceEndsAt));
}

/** A payment with what refunds gave back of it, and its license (as /billing lists payments). */
export interface RefundablePayment {
  id: string;
  kind: PaymentKindName;
  license_type: string;
  license_short_id: string;
  billed_at: string;
  amount_cents: number;
  refunded_cents: number;
  pending_refund_cents?: number;
  currency: string;
}

export interface RefundEntry {
  transactionId: string;
  licenseShortId: string;
  state: "pending" | "done";
  cents: number;
  currency: string;
  /** "Monthly license (FK-AB12-CD34): Refunded $8.55 (95%)". */
  text: string;
}

/** Refunds pending (newest payment first), then refunds done: one entry per refunded transaction. */
export function refundEntries(payments: readonly RefundablePayment[]): RefundEntry[] {
  const entries = payments
    .filter((p) => chargeStatus(p) !== "paid")
    .map((p): RefundEntry & { billed_at: string } => {
      const pending = chargeStatus(p) === "refund-pending";
      return {
        transactionId: p.id,
        licenseShortId: p.license_short_id,
        state: pending ? "pending" : "done",
        cents: pending ? (p.pending_refund_cents ?? 0) : p.refunded_cents,
        currency: p.currency,
        text: `${paymentDescription(p)} (${p.license_short_id}): ${chargeStatusText(p)}`,
        billed_at: p.billed_at,
      };
    });
  entries.sort((a, b) =>
    a.state === b.state ? b.billed_at.localeCompare(a.billed_at) : a.state === "pending" ? -1 : 1,
  );
  return entries.map(({ billed_at: _billedAt, ...entry }) => entry);
}

/** What /billing shows above the payments: charges to come, failed renewals, refunds pending and done. */
export interface BillingOverview {
  upcoming: UpcomingCharge[];
  failed: FailedAttempt[];
  refunds: RefundEntry[];
  /** What each license keeps after its subscription ends (decision 0070): one sentence per license with a fallback. */
  keeps: KeptVersion[];
}

export interface KeptVersion {
  licenseId: string;
  licenseShortId: string;
  text: string;
}

/** The licenses that keep a version after their subscription ends, with the sentence the card says too. */
export function keptVersions(
  licenses: readonly (OverviewLicense & { fallback_version?: string | null })[],
  now: Date,
): KeptVersion[] {
  return licenses.flatMap((license) => {
    const text = licenseFallbackSentence(license, now);
    return text ? [{ licenseId: license.id, licenseShortId: license.short_id, text }] : [];
  });
}
