import { addMonths } from "./extension";
import { isExpired, isRefundLocked, type LicenseFacts } from "./license-status";
import { subscriptionChangesRefused } from "./past-due";
import { formatPrice } from "./billing";
import { PLANS, getPlan, isPlanId, licenseKindRow, type PlanId } from "./plans";
import { planPriceIn, subscriptionCurrency, type SubscriptionCharge } from "./subscription-prices";

/**
 * Switching a paid license's plan (decision 0061): which licenses may switch, to which plans, how
 * the provider is asked to bill it, and the preview the demo provider computes as Paddle would.
 * Pure: the card, the confirmation page, the action and the demo provider read the same rules.
 */

/** The license fields the rule reads: the display rules' facts, with a switch waiting for the renewal. */
export type PlanSwitchFacts = LicenseFacts & { charges?: readonly SubscriptionCharge[] };

/** Why a license offers no plan change, said to its owner with what to do instead. */
export const PLAN_SWITCH_REFUSALS = {
  notPaid: "Only a paid plan's license can change plans.",
  trial: "This license is in its free trial: start the paid plan first, or buy the plan you want when the trial ends.",
  tester: "A tester license has no plan to change.",
  teamSeat: "This seat's plan is its team's: the team's owner changes it on the team page (/team).",
  teamSubscription: "Change your team's plan on the team page (/team): it changes every seat at once.",
  pastDue: "The last renewal payment failed: update the payment method before changing plans.",
  renewalCancelled: "Automatic renewal is off: re-enable it before changing plans.",
  ended: "This license has ended: buy a new plan instead.",
  refund: "This license is refunded or waiting for a refund: its plan cannot change.",
  revoked: "This license is revoked: its plan cannot change.",
  noSubscription: "This license has no subscription to change.",
  pending: (plan: string) => `A switch to ${plan} is already waiting for the next renewal: no other change until then.`,
} as const;

/** What was asked for that the rule refuses, as the action's 4xx says it. */
export const PLAN_SWITCH_INPUT_ERRORS = {
  unknownPlan: (value: string) =>
    `"${value.slice(0, 40)}" is not a plan: choose ${PLANS.map((plan) => plan.name).join(", ")}.`,
  samePlan: (plan: string) => `This license is already on the ${plan} plan: choose another plan.`,
  stalePreview: "The subscription changed since this preview was made: look at the new preview before confirming.",
  missingPreview: "Preview the change first: the preview says what is charged before anything changes.",
} as const;

/** The reason a license offers no plan change, or null when it does. */
export function planSwitchRefusal(license: PlanSwitchFacts, now: Date = new Date()): string | null {
  if (license.team_role === "seat") return PLAN_SWITCH_REFUSALS.teamSeat;
  if (license.team_role === "billing") return PLAN_SWITCH_REFUSALS.teamSubscription;
  if (license.license_type === "tester") return PLAN_SWITCH_REFUSALS.tester;
  if (license.license_type === "trial" || license.is_trial) return PLAN_SWITCH_REFUSALS.trial;
  if (!isPlanId(license.license_type)) return PLAN_SWITCH_REFUSALS.notPaid;
  if (license.status === "revoked") return PLAN_SWITCH_REFUSALS.revoked;
  if (isRefundLocked(license)) return PLAN_SWITCH_REFUSALS.refund;
  if (!license.has_subscription) return PLAN_SWITCH_REFUSALS.noSubscription;
  // The provider refuses any change to a past-due subscription (subscription_update_when_past_due).
  if (subscriptionChangesRefused(license)) return PLAN_SWITCH_REFUSALS.pastDue;
  if (isExpired(license, now)) return PLAN_SWITCH_REFUSALS.ended;
  if (license.cancellation_requested || !license.auto_renew) return PLAN_SWITCH_REFUSALS.renewalCancelled;
  if (license.plan_next_renewal)
    return PLAN_SWITCH_REFUSALS.pending(licenseKindRow(planOr(license.plan_next_renewal)).name);
  return null;
}

const planOr = (value: string): PlanId => (isPlanId(value) ? value : "monthly");

/** Now (a longer period: the difference charged at once) or at the next renewal (a shorter one). */
export type PlanSwitchEffect = "now" | "next-renewal";

/**
 * One plan the card offers: its name, price and period, and when the switch takes effect. The price is in
 * the subscription's currency (decision 0072); null where it is not known there (the preview says it).
 */
export interface PlanSwitchOption {
  id: PlanId;
  name: string;
  price: string | null;
  period: string;
  effect: PlanSwitchEffect;
}

const priceOrNull = (cents: number | null, currency: string) => (cents === null ? null : formatPrice(cents, currency));

/** "€9.99 per month", or "per month" where the price is not known in the subscription's currency. */
export const optionPriceText = (option: Pick<PlanSwitchOption, "price" | "period">) =>
  option.price ? `${option.price} ${option.period}` : option.period;

/** The other plans a license may switch to, in the plan table's order; none when it may not switch. */
export function planSwitchOptions(license: PlanSwitchFacts, now: Date = new Date()): PlanSwitchOption[] {
  if (planSwitchRefusal(license, now) !== null || !isPlanId(license.license_type)) return [];
  const from = license.license_type;
  const currency = subscriptionCurrency(license);
  return PLANS.filter((plan) => plan.id !== from).map((plan) => ({
    id: plan.id,
    name: plan.name,
    price: priceOrNull(planPriceIn(license, plan.id, currency), currency),
    period: plan.period,
    effect: planSwitchEffect(from, plan.id),
  }));
}

/** A longer period is an upgrade, billed now; a shorter one starts when the current period ends. */
export function planSwitchEffect(from: PlanId, to: PlanId): PlanSwitchEffect {
  return getPlan(to).months > getPlan(from).months ? "now" : "next-renewal";
}

/** The provider's proration_billing_mode for a switch (decision 0061). */
export function prorationFor(effect: PlanSwitchEffect): "prorated_immediately" | "do_not_bill" {
  return effect === "now" ? "prorated_immediately" : "do_not_bill";
}

/** The plan asked for, checked against the license: a plan of the table, not the one it has. */
export function checkPlanSwitchTarget(
  license: PlanSwitchFacts,
  value: unknown,
): { ok: true; to: PlanId } | { ok: false; status: 400 | 409; message: string } {
  const text = typeof value === "string" ? value : "";
  if (!isPlanId(text)) return { ok: false, status: 400, message: PLAN_SWITCH_INPUT_ERRORS.unknownPlan(text) };
  if (text === license.license_type)
    return { ok: false, status: 409, message: PLAN_SWITCH_INPUT_ERRORS.samePlan(getPlan(text).name) };
  return { ok: true, to: text };
}

/** What a switch does, as the provider previewed it (amounts in minor units, dates ISO). */
export interface PlanSwitchPreview {
  from: PlanId;
  to: PlanId;
  effect: PlanSwitchEffect;
  /** Charged now (the new plan less the unused part of the current period); 0 when nothing is. */
  chargedNowCents: number;
  /** The unused part of the current period counted towards the new plan. */
  creditCents: number;
  currency: string;
  nextChargeCents: number;
  nextChargeAt: string;
  /** What the license becomes: its plan, end date and machines (a team's: every seat, `seats` of them). */
  becomes: { plan: PlanId; endDate: string; machines: number; seats?: number };
}

/**
 * The preview of a switch as the demo provider computes it, the way Paddle bills it: an upgrade
 * credits the unused share of the current period's price, charges the new plan's price and starts
 * a new period now; a switch to a shorter period bills nothing now and the new price from the
 * period's end. `extendedMonths` (bought extensions) stay added to the license's end. A team's
 * subscription (`seats` > 1) is billed per seat: every amount times its seats. A subscription in
 * another currency (decision 0072) passes its prices (`prices`): each plan's price there, in its minor units.
 */
export function computePlanSwitchPreview(input: {
  from: PlanId;
  to: PlanId;
  period: { start: Date; end: Date };
  now: Date;
  extendedMonths?: number;
  seats?: number;
  prices?: { currency: string; of: (plan: PlanId) => number };
}): PlanSwitchPreview {
  const { from, to, period, now } = input;
  const effect = planSwitchEffect(from, to);
  const seats = input.seats ?? 1;
  const currency = input.prices?.currency ?? "USD";
  const priceOf = input.prices?.of ?? ((plan: PlanId) => getPlan(plan).priceCents);
  const target = { ...getPlan(to), priceCents: priceOf(to) * seats };
  const extra = input.extendedMonths ?? 0;
  const becomes = (end: Date) => ({
    plan: to,
    endDate: addMonths(end, extra).toISOString(),
    machines: target.machines,
    ...(input.seats === undefined ? {} : { seats }),
  });
  if (effect === "next-renewal") {
    return {
      ...{ from, to, effect, chargedNowCents: 0, creditCents: 0, currency },
      nextChargeCents: target.priceCents,
      nextChargeAt: period.end.toISOString(),
      becomes: becomes(period.end),
    };
  }
  const creditCents = unusedCents(priceOf(from) * seats, period, now);
  const newEnd = addMonths(now, target.months);
  return {
    ...{ from, to, effect, creditCents, currency },
    chargedNowCents: Math.max(0, target.priceCents - creditCents),
    nextChargeCents: target.priceCents,
    nextChargeAt: newEnd.toISOString(),
    becomes: becomes(newEnd),
  };
}

/** The share of a period's price not yet used at `now`, rounded to the cent. */
export function unusedCents(priceCents: number, period: { start: Date; end: Date }, now: Date): number {
  const total = period.end.getTime() - period.start.getTime();
  if (total <= 0) return 0;
  const left = Math.max(0, Math.min(total, period.end.getTime() - now.getTime()));
  return Math.round((priceCents * left) / total);
}

/**
 * What the license's subscription looked like when a preview was made: a confirmation carrying an
 * older one is refused, since the amounts it showed may no longer hold.
 */
export function planSwitchStamp(license: {
  license_type: string;
  end_date: Date | string;
  subscription_synced_at?: Date | string | null;
}): string {
  const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : 0);
  return `${license.license_type}.${time(license.end_date)}.${time(license.subscription_synced_at)}`;
}
