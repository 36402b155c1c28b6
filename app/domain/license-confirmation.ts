import { formatDate } from "./format-date";
import { canCancelRenewal } from "./license-status";
import type { LicenseStateFacts } from "./license-state";
import { canChangeTrial, paidPlanNow, TRIAL_TEXTS, trialConversion } from "./trial-conversion";

/**
 * The license card's actions that ask first (cancel auto-renewal, start the paid plan now, cancel a
 * trial): the question, what it does, and the two answers. With JavaScript they are the card's
 * dialogs; without it, the button is a link to a page asking the same (/licenses/confirm), whose
 * form posts the action. One text for both, so the two ways never say different things.
 */

export const CONFIRMED_INTENTS = ["cancel-renewal", "start-paid-plan", "cancel-trial"] as const;
export type ConfirmedIntent = (typeof CONFIRMED_INTENTS)[number];

export interface Confirmation {
  title: string;
  body: string;
  confirm: string;
  keep: string;
  /** The confirm button is red: it stops something. */
  destructive: boolean;
}

export const CANCEL_RENEWAL_CONFIRMATION = {
  title: "Cancel automatic renewal?",
  body: (endDate: Date | string) =>
    `Your license stays active until ${formatDate(endDate)} and is not charged again. You can turn renewal back on until then.`,
  confirm: "Cancel renewal",
  keep: "Keep renewing",
} as const;

export function isConfirmedIntent(value: unknown): value is ConfirmedIntent {
  return CONFIRMED_INTENTS.includes(value as ConfirmedIntent);
}

type ConfirmationFacts = LicenseStateFacts & { end_date: Date | string };

/** What the action asks before it runs, or null when the license's state does not allow it. */
export function confirmationFor(intent: ConfirmedIntent, license: ConfirmationFacts, now: Date): Confirmation | null {
  if (intent === "cancel-renewal") {
    // A trial is cancelled with "Cancel trial", which says what it does.
    if (!canCancelRenewal(license) || license.is_trial) return null;
    const { title, body, confirm, keep } = CANCEL_RENEWAL_CONFIRMATION;
    return { title, body: body(license.end_date), confirm, keep, destructive: true };
  }
  if (!canChangeTrial(license, now)) return null;
  if (intent === "cancel-trial") {
    const trial = trialConversion(license, now);
    if (trial?.state !== "converting") return null;
    const { cancelTitle, cancelBody, cancelConfirm, cancelKeep } = TRIAL_TEXTS;
    return {
      title: cancelTitle,
      body: cancelBody(trial.firstChargeAt),
      confirm: cancelConfirm,
      keep: cancelKeep,
      destructive: true,
    };
  }
  const paid = paidPlanNow(license, now)!;
  return {
    title: TRIAL_TEXTS.startTitle(paid.amountCents, paid.currency),
    body: TRIAL_TEXTS.startBody(paid.amountCents, paid.currency, paid.planName, paid.periodEnd),
    confirm: TRIAL_TEXTS.startConfirm,
    keep: TRIAL_TEXTS.startKeep,
    destructive: false,
  };
}

/** The page that asks, for a browser without JavaScript. */
export function confirmationHref(intent: ConfirmedIntent, licenseId: string): string {
  return `/licenses/confirm?${new URLSearchParams({ intent, license: licenseId })}`;
}
