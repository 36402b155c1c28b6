import { formatDate } from "./format-date";
import { planSwitchRefusal, type PlanSwitchFacts } from "./plan-switch";
import { formatPrice } from "./billing";
import { getPlan, isPlanId, PLANS, type PlanId } from "./plans";
import { discountedCents, renewalCharge } from "./renewal-charge";
import { planPriceIn, subscriptionCurrency } from "./subscription-prices";

/**
 * Leaving (decision 0065): why a customer cancels renewal (a reason from a short list and free text,
 * both optional), and the one offer the vendor configured that the cancel step makes, once per
 * license: a discount on the next renewal, or a switch to a shorter, cheaper period (decision 0061).
 * Pure: the card's dialog, the confirmation page, the action and the admin overview read these rules.
 */

export const CANCEL_REASONS = [
  "too-expensive",
  "not-using",
  "missing-feature",
  "switching",
  "technical-problems",
  "other",
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  "too-expensive": "It costs too much",
  "not-using": "I don't use it enough",
  "missing-feature": "A feature I need is missing",
  switching: "I'm switching to another tool",
  "technical-problems": "It doesn't work well for me",
  other: "Something else",
};

/** The free text's longest length, in characters (the form's maxlength says the same). */
export const CANCEL_NOTE_MAX = 500;

export const LEAVING_ERRORS = {
  unknownReason: (value: string) =>
    `"${value.slice(0, 40)}" is not one of the reasons: choose one of the list, or none.`,
  noteTooLong: `The note is too long: at most ${CANCEL_NOTE_MAX} characters.`,
  offerUsed: "This license's offer was already used: it is made once per license.",
  offerUnknown: "That is not an offer: choose the offer shown, or cancel renewal.",
  offerChanged: "The offer for this license changed: look at the cancel step again.",
  noOffer: "This license has no offer to take.",
} as const;

export type CancelAnswer = { reason: CancelReason | null; note: string | null };

/** The reason and note as the form sent them: empty is none; anything else checked. */
export function parseCancelAnswer(input: {
  reason: unknown;
  note: unknown;
}): { ok: true; answer: CancelAnswer } | { ok: false; message: string } {
  const reasonText = typeof input.reason === "string" ? input.reason.trim() : "";
  const noteText = typeof input.note === "string" ? input.note.trim() : "";
  if (reasonText !== "" && !(CANCEL_REASONS as readonly string[]).includes(reasonText))
    return { ok: false, message: LEAVING_ERRORS.unknownReason(reasonText) };
  if ([...noteText].length > CANCEL_NOTE_MAX) return { ok: false, message: LEAVING_ERRORS.noteTooLong };
  return {
    ok: true,
    answer: {
      reason: reasonText === "" ? null : (reasonText as CancelReason),
      note: noteText === "" ? null : noteText,
    },
  };
}

export const RETENTION_OFFER_KINDS = ["discount", "cheaper-period"] as const;
export type RetentionOfferKind = (typeof RETENTION_OFFER_KINDS)[number];

export function isRetentionOfferKind(value: unknown): value is RetentionOfferKind {
  return RETENTION_OFFER_KINDS.includes(value as RetentionOfferKind);
}

/** The vendor's offer (RETENTION_DISCOUNT_ID, RETENTION_DISCOUNT_PERCENT): no discount id, no discount. */
export interface RetentionConfig {
  discountId: string | null;
  discountPercent: number;
}

/** The one offer a cancel step makes, with what the next renewal then charges and when. */
export type RetentionOffer = (
  { kind: "discount"; discountId: string; percent: number } | { kind: "cheaper-period"; to: PlanId }
) & {
  nextChargeCents: number;
  nextChargeAt: string;
  /** The subscription's currency, which every amount is in (decision 0072). */
  currency: string;
};

/** The license fields the offer reads: the plan switch's facts and whether its offer was made already. */
export type RetentionFacts = PlanSwitchFacts & { retention_offer_outcome?: string | null };

/** The next shorter plan (yearly → 6 months → monthly): the cheaper charge; null for the shortest. */
export function cheaperPeriodOf(plan: PlanId): PlanId | null {
  const months = getPlan(plan).months;
  const shorter = PLANS.filter((p) => p.months < months).sort((a, b) => b.months - a.months);
  return shorter[0]?.id ?? null;
}

/**
 * The offer the license's cancel step makes, or null: none once one was made (taken or declined),
 * and none where the provider would refuse the change or it makes no sense (every refusal of a plan
 * switch: a trial, past due, a team's seat or subscription, a tester license, renewal already off,
 * a waiting switch, refunded, revoked or ended). The discount when configured, else the cheaper
 * period when the plan has one.
 */
export function retentionOffer(license: RetentionFacts, config: RetentionConfig, now: Date): RetentionOffer | null {
  if (license.retention_offer_outcome) return null;
  if (planSwitchRefusal(license, now) !== null || !isPlanId(license.license_type)) return null;
  const plan = getPlan(license.license_type);
  const nextChargeAt = new Date(license.end_date).toISOString();
  const percent = config.discountPercent;
  // In the subscription's currency; an offer whose charge is not known there is not made (decision 0072).
  const currency = subscriptionCurrency(license);
  if (config.discountId && percent > 0 && percent < 100) {
    const renewal = renewalCharge({ ...license, renewal_discount_percent: null }).cents;
    if (renewal === null) return null;
    const nextChargeCents = discountedCents(renewal, percent);
    return { kind: "discount", discountId: config.discountId, percent, nextChargeCents, nextChargeAt, currency };
  }
  const to = cheaperPeriodOf(plan.id);
  const price = to ? planPriceIn(license, to, currency) : null;
  if (!to || price === null) return null;
  return { kind: "cheaper-period", to, nextChargeCents: price, nextChargeAt, currency };
}

/** "€85.68 on Dec 1, 2026": the offer's next charge. */
const nextCharge = (offer: RetentionOffer) =>
  `${formatPrice(offer.nextChargeCents, offer.currency)} on ${formatDate(offer.nextChargeAt)}`;

/** What the cancel step says of the offer, and its button. */
export function retentionOfferTexts(offer: RetentionOffer): { title: string; body: string; accept: string } {
  const charge = nextCharge(offer);
  if (offer.kind === "discount") {
    return {
      title: `Stay and get ${offer.percent}% off your next renewal`,
      body: `Keep renewing and your next renewal is ${offer.percent}% off: ${charge}.`,
      accept: `Keep renewing with ${offer.percent}% off`,
    };
  }
  const plan = getPlan(offer.to);
  return {
    title: `Stay on a shorter period: ${plan.name}`,
    body: `Keep renewing ${plan.period} instead: the next charge is ${charge}, and ${formatPrice(offer.nextChargeCents, offer.currency)} ${plan.period} after that.`,
    accept: `Switch to ${plan.name} and keep renewing`,
  };
}

/** The toast after the offer was taken: the renewal stays on, and its next charge. */
export function offerTakenToast(offer: RetentionOffer): { title: string; description: string } {
  const charge = nextCharge(offer);
  return offer.kind === "discount"
    ? {
        title: "Renewal kept, with the discount",
        description: `Your next charge is ${charge} (${offer.percent}% off).`,
      }
    : {
        title: `Renewal kept, switching to ${getPlan(offer.to).name}`,
        description: `Your next charge is ${charge}.`,
      };
}
