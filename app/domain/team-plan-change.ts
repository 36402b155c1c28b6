import { formatMoney } from "./billing";
import { formatDate } from "./format-date";
import {
  planSwitchOptions,
  planSwitchRefusal,
  type PlanSwitchFacts,
  type PlanSwitchOption,
  type PlanSwitchPreview,
} from "./plan-switch";
import { licenseTypeLabel } from "./plans";
import { refusal, type TeamRoleName } from "./team-roles";

/**
 * Changing a team's plan on /team (decision 0074): the personal plan switch's rules (decision 0061)
 * read on the team's subscription license, for all its seats at once, and only by the team's owner.
 * Pure: the team page's section, the team action and their tests read the same rule.
 */

export const TEAM_PLAN_REFUSALS = {
  noSubscription: "The team has no subscription whose plan could change.",
  seatsPending: "Fewer seats are waiting for the next renewal: the plan can change after it.",
} as const;

/** The subscription license's facts, read as the personal rule reads a license of one's own. */
const asOwn = (billing: PlanSwitchFacts): PlanSwitchFacts => ({ ...billing, team_role: null });

/**
 * Why the team's plan cannot change for this viewer now, or null when it can: not a member (404's
 * text), not the owner, no subscription, then every refusal of the personal switch (a trial, a
 * payment problem, renewal off, ended, refunded, a change already waiting for the renewal), and a
 * seat reduction waiting for the renewal (the subscription's quantity is already the fewer seats).
 */
export function teamPlanChangeRefusal(
  role: TeamRoleName | null,
  billing: PlanSwitchFacts | null,
  now: Date = new Date(),
  seatsNextRenewal: number | null = null,
): string | null {
  const byRole = refusal(role, "change-plan");
  if (byRole) return byRole;
  if (!billing || billing.team_role !== "billing") return TEAM_PLAN_REFUSALS.noSubscription;
  return planSwitchRefusal(asOwn(billing), now) ?? (seatsNextRenewal === null ? null : TEAM_PLAN_REFUSALS.seatsPending);
}

/** The plans the team may change to (none when it may not), as the personal switch offers them. */
export function teamPlanOptions(
  role: TeamRoleName | null,
  billing: PlanSwitchFacts | null,
  now: Date = new Date(),
  seatsNextRenewal: number | null = null,
): PlanSwitchOption[] {
  if (!billing || teamPlanChangeRefusal(role, billing, now, seatsNextRenewal) !== null) return [];
  return planSwitchOptions(asOwn(billing), now);
}

/** What /team's section says (decision 0074); the preview's lines are the personal switch's. */
export const TEAM_PLAN_TEXTS = {
  title: "Plan",
  intro: (plan: string, seats: number) =>
    `The team is on ${plan} for ${seats} seat${seats === 1 ? "" : "s"}. A longer period starts now, charged less the unused time; a shorter one starts at the next renewal. Every seat changes with it.`,
  pending: (plan: string, date: string) => `Every seat switches to ${plan} at the next renewal on ${formatDate(date)}.`,
  confirm: (plan: string) => `Switch the team to ${plan}`,
  keep: "Keep the team's plan",
} as const;

/** The toast after the owner confirmed a team's change. */
export function teamPlanDoneToast(preview: PlanSwitchPreview) {
  const plan = licenseTypeLabel(preview.to);
  const seats = preview.becomes.seats ?? 1;
  return preview.effect === "now"
    ? {
        title: "Team plan changed",
        description: `The team's ${seats} seat${seats === 1 ? " is" : "s are"} now ${plan}: ${formatMoney(preview.chargedNowCents, preview.currency)} charged, next charge on ${formatDate(preview.nextChargeAt)}.`,
      }
    : {
        title: "Team plan change scheduled",
        description: `Every seat switches to ${plan} at the next renewal on ${formatDate(preview.nextChargeAt)}.`,
      };
}
