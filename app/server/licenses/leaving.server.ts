import { and, eq, isNull, sql } from "drizzle-orm";
import { licenseFacts } from "~/domain/license-status";
import { planSwitchStamp } from "~/domain/plan-switch";
import {
  LEAVING_ERRORS,
  isRetentionOfferKind,
  parseCancelAnswer,
  retentionOffer,
  type CancelAnswer,
  type RetentionOffer,
} from "~/domain/retention-offer";
import { ActionError } from "../action-error.server";
import { recordAudit } from "../audit/audit.server";
import { recordUserEvent } from "../audit/user-events.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { licenseCharges } from "../billing/license-charges.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { cancel_answers, licenses, type License } from "../db/schema";
import { confirmPlanSwitch } from "./plan-switch.server";
import { getOwnBillableLicense } from "./own-license.server";
import { askProvider, cancelRenewal } from "./renewal.server";
import { retentionConfig } from "./retention-config.server";

/**
 * Leaving (decision 0065): cancelling renewal with the customer's reason and note, and the one offer
 * the cancel step makes per license, declined (the cancel goes ahead) or taken (the renewal stays on
 * with the offer applied by the provider). Audit log and timeline record both.
 */

interface Asked {
  userId: string;
  licenseId: string;
  reason: unknown;
  note: unknown;
}

function answerOf(asked: Asked): CancelAnswer {
  const parsed = parseCancelAnswer(asked);
  if (!parsed.ok) throw new ActionError(400, parsed.message);
  return parsed.answer;
}

/** The offer the license's cancel step makes now, or null (the license as its card reads it). */
export function offerFor(license: Parameters<typeof retentionOffer>[0], now = new Date()): RetentionOffer | null {
  return retentionOffer(license, retentionConfig(), now);
}

/** The license as the offer reads it: with its payments, which say the subscription's currency (decision 0072). */
async function withCharges(license: License) {
  return { ...licenseFacts(license), charges: await licenseCharges(license.id) };
}

/** The answer, audit entry and timeline event of one cancel step, in the change's transaction. */
async function recordAnswer(
  tx: Transaction,
  license: License,
  answer: CancelAnswer,
  offer: RetentionOffer | null,
  outcome: "taken" | "declined" | null,
  { alreadyClaimed = false } = {},
): Promise<void> {
  await tx.insert(cancel_answers).values({
    license_id: license.id,
    reason: answer.reason,
    note: answer.note,
    offer: offer?.kind ?? null,
    outcome,
  });
  if (offer && outcome && !alreadyClaimed) {
    // Once per license: a second cancel step of the same license makes no offer (and takes none).
    const claimed = await tx
      .update(licenses)
      .set({ retention_offer_outcome: outcome, retention_offer_at: sql`now()` })
      .where(and(eq(licenses.id, license.id), isNull(licenses.retention_offer_outcome)))
      .returning({ id: licenses.id });
    // Taken twice at once: the second is refused. Declined while another step took it: nothing to mark.
    if (claimed.length === 0 && outcome === "taken") throw new ActionError(409, LEAVING_ERRORS.offerUsed);
  }
  const details = {
    short_id: license.short_id,
    reason: answer.reason,
    note: answer.note,
    offer: offer?.kind ?? null,
    outcome,
    ...(offer && outcome === "taken"
      ? { next_charge_cents: offer.nextChargeCents, next_charge_at: offer.nextChargeAt, currency: offer.currency }
      : {}),
  };
  const taken = outcome === "taken";
  await recordAudit(
    tx,
    { id: license.user_id, email: license.email },
    {
      action: taken ? "license.retention_offer" : "license.renewal_cancel",
      target_type: "license",
      target_id: license.id,
      details,
    },
  );
  await recordUserEvent(tx, license.user_id, taken ? "retention.offer_taken" : "renewal.cancel_answer", {
    license_id: license.id,
    ...details,
  });
}

/** Cancel renewal as before (decision 0057), with the reason and note, and the offer made declined. */
export async function cancelRenewalWithAnswer(asked: Asked): Promise<License> {
  const answer = answerOf(asked);
  const license = await getOwnBillableLicense(asked.userId, asked.licenseId);
  const offer = offerFor(await withCharges(license));
  return cancelRenewal({
    userId: asked.userId,
    licenseId: asked.licenseId,
    record: (tx, current) => recordAnswer(tx, current, answer, offer, offer ? "declined" : null),
  });
}

/**
 * Takes the offer the cancel step showed (`offer`: its kind): refused before the provider is asked
 * when the license has none (409), had one already (409) or it changed (409). The provider applies
 * it (a discount from the next period, or the plan switch at the renewal); then the answer is recorded.
 */
export async function takeRetentionOffer(asked: Asked & { offer: unknown }): Promise<RetentionOffer> {
  const answer = answerOf(asked);
  if (!isRetentionOfferKind(asked.offer)) throw new ActionError(400, LEAVING_ERRORS.offerUnknown);
  const license = await getOwnBillableLicense(asked.userId, asked.licenseId);
  if (license.retention_offer_outcome) throw new ActionError(409, LEAVING_ERRORS.offerUsed);
  const offer = offerFor(await withCharges(license));
  if (!offer) throw new ActionError(409, LEAVING_ERRORS.noOffer);
  if (offer.kind !== asked.offer) throw new ActionError(409, LEAVING_ERRORS.offerChanged);
  // Claimed before the provider is asked, so two takers at once cannot both have it applied; given
  // back when the provider refuses, so the customer may try again.
  if (!(await claimOffer(license.id))) throw new ActionError(409, LEAVING_ERRORS.offerUsed);
  try {
    await applyOffer(asked.userId, license, offer);
  } catch (error) {
    await releaseOffer(license.id);
    throw error;
  }
  await getDb().transaction(async (tx) => {
    await recordAnswer(tx, license, answer, offer, "taken", { alreadyClaimed: true });
    // The card, /billing and the e-mails say the next charge with the discount off (renewal-charge.ts).
    if (offer.kind === "discount")
      await tx.update(licenses).set({ renewal_discount_percent: offer.percent }).where(eq(licenses.id, license.id));
  });
  return offer;
}

/** Marks the license's one offer taken; false when a cancel step has answered it already. */
async function claimOffer(licenseId: string): Promise<boolean> {
  const claimed = await getDb()
    .update(licenses)
    .set({ retention_offer_outcome: "taken", retention_offer_at: sql`now()` })
    .where(and(eq(licenses.id, licenseId), isNull(licenses.retention_offer_outcome)))
    .returning({ id: licenses.id });
  return claimed.length > 0;
}

async function releaseOffer(licenseId: string): Promise<void> {
  await getDb()
    .update(licenses)
    .set({ retention_offer_outcome: null, retention_offer_at: null })
    .where(and(eq(licenses.id, licenseId), eq(licenses.retention_offer_outcome, "taken")));
}

/** The provider applies the offer: a discount from the next period, or the plan switch at the renewal. */
async function applyOffer(userId: string, license: License, offer: RetentionOffer): Promise<void> {
  if (offer.kind === "discount") {
    const { discountId, percent } = offer;
    const subscriptionId = license.paddle_subscription_id!;
    await askProvider(LEAVING_TEXTS.offerFailed, () =>
      getPaymentProvider().applyDiscount({ subscriptionId, discountId, percent }),
    );
  } else {
    // The plan switch of decision 0061 to the shorter plan: nothing billed now, the new price at the renewal.
    const stamp = planSwitchStamp(license);
    await confirmPlanSwitch({ userId, licenseId: license.id, plan: offer.to, stamp });
  }
}

export const LEAVING_TEXTS = {
  offerFailed: "The offer could not be applied. Please try again in a moment.",
} as const;
