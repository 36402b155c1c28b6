import { and, eq, sql } from "drizzle-orm";
import {
  PLAN_SWITCH_INPUT_ERRORS,
  checkPlanSwitchTarget,
  planSwitchEffect,
  planSwitchRefusal,
  planSwitchStamp,
  prorationFor,
  type PlanSwitchPreview,
} from "~/domain/plan-switch";
import { PLAN_SWITCH_TEXTS } from "~/domain/plan-switch-texts";
import type { PlanId } from "~/domain/plans";
import { licenseFacts } from "~/domain/license-status";
import { ActionError } from "../action-error.server";
import { recordAudit } from "../audit/audit.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import type { PlanChangeInput } from "../billing/payment-provider.server";
import { configuredPriceIds } from "../billing/price-ids.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { licenses, type License } from "../db/schema";
import { getOwnLicense } from "./own-license.server";
import { askProvider } from "./renewal.server";

/**
 * "Change plan" on a paid license's card (decision 0061): the provider previews the switch, then
 * makes it once the owner confirmed that preview. The license follows from the provider's events
 * (apply-plan-change.server.ts); a switch to a shorter plan waits on the license for the renewal.
 */

interface Asked {
  userId: string;
  licenseId: string;
  plan: unknown;
}

/** The owner's license and the switch asked for, refused (4xx) before the provider is asked. */
async function decide({ userId, licenseId, plan }: Asked, now: Date) {
  const license = await getOwnLicense(userId, licenseId);
  const facts = licenseFacts(license);
  const refusal = planSwitchRefusal(facts, now);
  if (refusal) throw new ActionError(409, refusal);
  const target = checkPlanSwitchTarget(facts, plan);
  if (!target.ok) throw new ActionError(target.status, target.message);
  return { license, input: changeInput(license, target.to) };
}

/** What the provider is asked for a switch of `license` (a personal one, or a team's subscription) to `to`. */
export function changeInput(license: License, to: PlanId): PlanChangeInput {
  const from = license.license_type as PlanId;
  return {
    subscriptionId: license.paddle_subscription_id!,
    from,
    to,
    // The regular price: a plan switch never starts a trial.
    priceId: configuredPriceIds().regular[to],
    proration: prorationFor(planSwitchEffect(from, to)),
    extendedMonths: license.extended_months,
  };
}

export interface PlanSwitchQuote {
  license: { id: string; short_id: string; license_type: string };
  preview: PlanSwitchPreview;
  /** The subscription's state the preview was made of: the confirmation carries it back. */
  stamp: string;
}

/** What switching the license to `plan` would do, from the provider; changes nothing. */
export async function previewPlanSwitch(asked: Asked): Promise<PlanSwitchQuote> {
  const { license, input } = await decide(asked, new Date());
  const preview = await askProvider(PLAN_SWITCH_TEXTS.previewFailed, () =>
    getPaymentProvider().previewPlanChange(input),
  );
  const { id, short_id, license_type } = license;
  return { license: { id, short_id, license_type }, preview, stamp: planSwitchStamp(license) };
}

/**
 * Makes the switch the owner saw previewed: refused when the subscription changed since (the
 * preview's stamp), and for every reason the preview is. The provider is asked again for the
 * preview (what the toast says), then to change; the site records the owner's action and, for a
 * switch at the next renewal, the plan waiting for it.
 */
export async function confirmPlanSwitch(asked: Asked & { stamp: unknown }): Promise<PlanSwitchPreview> {
  const { license, input } = await decide(asked, new Date());
  return makePlanSwitch(license, input, asked.stamp, async (tx, preview) => {
    await recordAudit(
      tx,
      { id: asked.userId, email: license.email },
      {
        action: "license.plan_change",
        target_type: "license",
        target_id: license.id,
        details: planSwitchDetails(input, preview),
      },
    );
  });
}

/** What the audit log keeps of a confirmed switch. */
export function planSwitchDetails(input: PlanChangeInput, preview: PlanSwitchPreview) {
  return {
    from: input.from,
    to: input.to,
    effect: preview.effect,
    proration_billing_mode: input.proration,
    charged_now_cents: preview.chargedNowCents,
    credit_cents: preview.creditCents,
    next_charge_cents: preview.nextChargeCents,
    next_charge_at: preview.nextChargeAt,
  };
}

/**
 * The switch of a license already allowed to (a personal one, or a team's subscription, decision
 * 0074), once its preview's stamp is checked: the provider previews it again and makes it; the
 * license keeps a switch waiting for the renewal and its sync time, and `record` audits it, in one
 * transaction.
 */
export async function makePlanSwitch(
  license: License,
  input: PlanChangeInput,
  stamp: unknown,
  record: (tx: Transaction, preview: PlanSwitchPreview) => Promise<void>,
): Promise<PlanSwitchPreview> {
  if (typeof stamp !== "string" || stamp === "") throw new ActionError(400, PLAN_SWITCH_INPUT_ERRORS.missingPreview);
  if (stamp !== planSwitchStamp(license)) throw new ActionError(409, PLAN_SWITCH_INPUT_ERRORS.stalePreview);
  const provider = getPaymentProvider();
  const preview = await askProvider(PLAN_SWITCH_TEXTS.previewFailed, () => provider.previewPlanChange(input));
  await askProvider(PLAN_SWITCH_TEXTS.changeFailed, () => provider.changePlan(input));
  await getDb().transaction(async (tx) => {
    await tx
      .update(licenses)
      .set({
        ...(preview.effect === "next-renewal" ? { plan_next_renewal: input.to } : {}),
        // Provider events from before this moment must not undo it; a preview made before it is stale.
        subscription_synced_at: sql`greatest(${licenses.subscription_synced_at}, now())`,
      })
      .where(and(eq(licenses.id, license.id), eq(licenses.user_id, license.user_id)));
    await record(tx, preview);
  });
  return preview;
}
