import { planSwitchOptions, planSwitchRefusal, type PlanSwitchFacts, type PlanSwitchOption } from "./plan-switch";
import { refusal, type TeamRoleName } from "./team-roles";

/**
 * Changing a team's plan on /team (decision 0074): the personal plan switch's rules (decision 0061)
 * read on the team's subscription license, for all its seats at once, and only by the team's owner.
 * Pure: the team page's section, the team action and their tests read the same rule.
 */

export const TEAM_PLAN_REFUSALS = {
  noSubscription: "The team has no subscription whose plan could change.",
} as const;

/** The subscription license's facts, read as the personal rule reads a license of one's own. */
const asOwn = (billing: PlanSwitchFacts): PlanSwitchFacts => ({ ...billing, team_role: null });

/**
 * Why the team's plan cannot change for this viewer now, or null when it can: not a member (404's
 * text), not the owner, no subscription, then every refusal of the personal switch (a trial, a
 * payment problem, renewal off, ended, refunded, a change already waiting for the renewal).
 */
export function teamPlanChangeRefusal(
  role: TeamRoleName | null,
  billing: PlanSwitchFacts | null,
  now: Date = new Date(),
): string | null {
  const byRole = refusal(role, "change-plan");
  if (byRole) return byRole;
  if (!billing || billing.team_role !== "billing") return TEAM_PLAN_REFUSALS.noSubscription;
  return planSwitchRefusal(asOwn(billing), now);
}

/** The plans the team may change to (none when it may not), as the personal switch offers them. */
export function teamPlanOptions(
  role: TeamRoleName | null,
  billing: PlanSwitchFacts | null,
  now: Date = new Date(),
): PlanSwitchOption[] {
  if (!billing || teamPlanChangeRefusal(role, billing, now) !== null) return [];
  return planSwitchOptions(asOwn(billing), now);
}
