import { formatMoney } from "./billing";
import { addMonths } from "./extension";
import { formatDate } from "./format-date";
import { licenseState, type LicenseStateFacts } from "./license-state";
import { getPlan, isPlanId, licenseTypeLabel } from "./plans";

/**
 * Trials convert on purpose (decision 0037): a plan bought with the free trial says when and how much
 * its first charge is, and can be started now ("Start paid plan now": the provider charges at once
 * and the paid period starts today) or cancelled ("Cancel trial": nothing is charged, the license
 * works until the trial's end and is not renewed; decision 0037). Pure: the card, the licenses
 * action, the pricing page and the e-mails read these.
 */

/** A trial that will turn into its plan, or one whose conversion was cancelled; null for any other license. */
export type TrialConversion =
  | {
      state: "converting";
      firstChargeAt: Date;
      amountCents: number;
      /** The subscription's currency (decision 0072). */
      currency: string;
      planName: string;
      /** "First charge on Dec 23, 2026: $9.00". */
      text: string;
    }
  | {
      state: "cancelled";
      endsAt: Date;
      planName: string;
      /** "Trial cancelled: the license works until Dec 23, 2026, then stops. Nothing is charged." */
      text: string;
    };

/** "First charge on Dec 23, 2026: $9.00". */
export function firstChargeText(at: Date | string, cents: number, currency = "USD"): string {
  return `First charge on ${formatDate(at)}: ${formatMoney(cents, currency)}`;
}

export function trialConversion(license: LicenseStateFacts, now: Date): TrialConversion | null {
  const state = licenseState(license, now);
  if (!isPlanId(license.license_type) || !state.date) return null;
  const planName = licenseTypeLabel(license.license_type);
  if (state.state === "trial-converting" && state.nextChargeCents !== null) {
    return {
      state: "converting",
      firstChargeAt: state.date,
      amountCents: state.nextChargeCents,
      currency: state.nextChargeCurrency,
      planName,
      text: firstChargeText(state.date, state.nextChargeCents, state.nextChargeCurrency),
    };
  }
  if (state.state === "trial-active" && license.has_subscription && license.cancellation_requested) {
    return { state: "cancelled", endsAt: state.date, planName, text: TRIAL_TEXTS.cancelledLine(state.date) };
  }
  return null;
}

/**
 * What a running trial's card says about its end date when it does not turn into a plan (decision 0057):
 * it stops then, nothing is charged, and a plan is what keeps the tool working (with offline data,
 * which a trial has none of). A converting trial says its first charge instead (TrialConversion's
 * text), a cancelled one its own line; null for those and any other license.
 */
export function trialEndText(license: LicenseStateFacts, now: Date): string | null {
  const state = licenseState(license, now);
  if (state.state !== "trial-active" || !state.date || trialConversion(license, now)) return null;
  return TRIAL_TEXTS.endsLine;
}

/** "Start paid plan now" and "Cancel trial" are offered (and accepted by the server) only while the trial converts. */
export function canChangeTrial(license: LicenseStateFacts, now: Date): boolean {
  return trialConversion(license, now)?.state === "converting";
}

/**
 * What starting the paid plan now charges (the trial's first charge, in the subscription's currency) and
 * until when the first paid period runs; null unless the trial converts with a known charge.
 */
export function paidPlanNow(license: LicenseStateFacts, now: Date) {
  const trial = trialConversion(license, now);
  if (trial?.state !== "converting" || !isPlanId(license.license_type)) return null;
  const plan = getPlan(license.license_type);
  return {
    amountCents: trial.amountCents,
    currency: trial.currency,
    periodEnd: addMonths(now, plan.months),
    planName: plan.name,
  };
}

/** Every text the trial's actions show (docs/product.md, "Licenses"). */
export const TRIAL_TEXTS = {
  startButton: "Start paid plan now",
  cancelButton: "Cancel trial",
  startTitle: (cents: number, currency: string) => `Start the paid plan now for ${formatMoney(cents, currency)}?`,
  startBody: (cents: number, currency: string, planName: string, periodEnd: Date | string) =>
    `You are charged ${formatMoney(cents, currency)} now with the payment method you gave at checkout. The trial ends today and your ${planName} plan runs until ${formatDate(periodEnd)}, then renews automatically. A refund can be requested within 14 days.`,
  startConfirm: "Start paid plan",
  startKeep: "Keep the trial",
  cancelTitle: "Cancel the trial?",
  cancelBody: (trialEnd: Date | string) =>
    `Nothing is charged. The license keeps working until the trial ends on ${formatDate(trialEnd)}, then stops and is not renewed. Until then you can turn renewal back on from this card.`,
  cancelConfirm: "Cancel trial",
  cancelKeep: "Keep the trial",
  /** The date is the card's status line ("Active, trial until …"): said once. */
  endsLine:
    "When the trial ends, its key stops working and nothing is charged. Buy a plan to keep using the tool: offline data comes with it.",
  cancelledLine: (trialEnd: Date | string) =>
    `Trial cancelled: the license works until ${formatDate(trialEnd)}, then stops. Nothing is charged.`,
  started: (cents: number, currency: string, renewsOn: Date | string | null) => ({
    title: "Paid plan started",
    description: renewsOn
      ? `${formatMoney(cents, currency)} is charged now; the license renews on ${formatDate(renewsOn)}.`
      : `${formatMoney(cents, currency)} is charged now.`,
  }),
  cancelled: (trialEnd: Date | string) => ({
    title: "Trial cancelled",
    description: `Nothing is charged. The license works until ${formatDate(trialEnd)}.`,
  }),
  startFailed: "Failed to start the paid plan",
  cancelFailed: "Failed to cancel the trial",
  notConverting: "This license has no trial that converts.",
  /** On /pricing and in the checkout while a trial of the user's converts. */
  stillConverts: (shortId: string, cents: number, currency: string, at: Date | string) =>
    `Your trial license ${shortId} still converts: ${formatMoney(cents, currency)} on ${formatDate(at)}, unless you cancel the trial on your licenses page. A new license is bought on its own and does not change the trial.`,
  /** How a trial is cancelled, as the e-mails say it. */
  howToCancel: (trialEnd: Date | string) =>
    `To stop before you are charged, open your licenses page and choose "Cancel trial" before ${formatDate(trialEnd)}: nothing is charged and the license ends with the trial.`,
} as const;

/** The pricing page's and checkout's notes: one per trial of the user's that still converts. */
export function stillConvertingTrials(
  licenses: readonly (LicenseStateFacts & { short_id: string })[],
  now: Date,
): string[] {
  return licenses.flatMap((license) => {
    const trial = trialConversion(license, now);
    return trial?.state === "converting"
      ? [TRIAL_TEXTS.stillConverts(license.short_id, trial.amountCents, trial.currency, trial.firstChargeAt)]
      : [];
  });
}
