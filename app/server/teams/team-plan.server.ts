import { licenseFacts } from "~/domain/license-status";
import { checkPlanSwitchTarget, planSwitchStamp, type PlanSwitchPreview } from "~/domain/plan-switch";
import { PLAN_SWITCH_TEXTS } from "~/domain/plan-switch-texts";
import { teamPlanChangeRefusal } from "~/domain/team-plan-change";
import { ActionError } from "../action-error.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { getDb } from "../db/db.server";
import { changeInput, makePlanSwitch, planSwitchDetails } from "../licenses/plan-switch.server";
import { askProvider } from "../licenses/renewal.server";
import { billingLicenseOf } from "./seat-license.server";
import { lockTeam, roleIn } from "./team-access.server";
import { auditTeamChange } from "./team-audit.server";

/**
 * The owner changes the team's plan on /team (decision 0074): the personal switch (decision 0061,
 * licenses/plan-switch.server.ts) made on the team's subscription license, with the subscription's
 * seats as the item's quantity, so every seat changes at once. The seats follow the subscription
 * license when the provider's events move it to the new plan (apply-plan-change.server.ts).
 */

interface Asked {
  teamId: string;
  actorId: string;
  plan: unknown;
}

/** The team, its subscription license and the provider's input, or the 4xx that refuses it. */
async function decide({ teamId, actorId, plan }: Asked, now: Date) {
  return getDb().transaction(async (tx) => {
    const team = await lockTeam(tx, teamId);
    const role = await roleIn(tx, team.id, actorId);
    const billing = await billingLicenseOf(tx, team.id);
    const facts = billing ? licenseFacts(billing) : null;
    const refused = teamPlanChangeRefusal(role, facts, now, team.seats_next_renewal);
    if (refused) throw new ActionError(role === null ? 404 : role === "owner" ? 409 : 403, refused);
    const target = checkPlanSwitchTarget(facts!, plan);
    if (!target.ok) throw new ActionError(target.status, target.message);
    return { team, billing: billing!, input: { ...changeInput(billing!, target.to), quantity: team.seats_paid } };
  });
}

export interface TeamPlanQuote {
  preview: PlanSwitchPreview;
  /** The subscription's state the preview was made of: the confirmation carries it back. */
  stamp: string;
}

/** What changing the team to `plan` would do, from the provider; changes nothing. */
export async function previewTeamPlanChange(asked: Asked): Promise<TeamPlanQuote> {
  const { billing, input } = await decide(asked, new Date());
  const preview = await askProvider(PLAN_SWITCH_TEXTS.previewFailed, () =>
    getPaymentProvider().previewPlanChange(input),
  );
  return { preview, stamp: planSwitchStamp(billing) };
}

/** Makes the change the owner saw previewed (refused when stale), audited as the team's. */
export async function changeTeamPlan(asked: Asked & { stamp: unknown }): Promise<PlanSwitchPreview> {
  const { team, billing, input } = await decide(asked, new Date());
  return makePlanSwitch(billing, input, asked.stamp, async (tx, preview) => {
    await auditTeamChange(tx, asked.actorId, team, "team.plan", {
      ...planSwitchDetails(input, preview),
      seats: input.quantity,
    });
  });
}
