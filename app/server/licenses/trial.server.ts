import { licenseFacts } from "~/domain/license-status";
import { canChangeTrial, paidPlanNow, TRIAL_TEXTS } from "~/domain/trial-conversion";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { licenseCharges } from "../billing/license-charges.server";
import { subscriptionCancelledMail } from "../billing/sync-subscription.server";
import { getDb } from "../db/db.server";
import { ActionError } from "../action-error.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { askProvider, markCancellationRequested } from "./renewal.server";
import { getOwnLicense } from "./own-license.server";

/**
 * The trial card's two actions (decision 0037). Both take the user's own license while
 * its trial converts (404 for another's, 409 otherwise) and ask the provider first; a refusal is
 * the action's text with a 502 and changes nothing.
 */

async function convertingTrial(userId: string, licenseId: string, now: Date) {
  const license = await getOwnLicense(userId, licenseId);
  // Its payments say the subscription's currency, and so what the first charge is in (decision 0072).
  const facts = { ...licenseFacts(license), charges: await licenseCharges(license.id) };
  if (!license.paddle_subscription_id || !canChangeTrial(facts, now))
    throw new ActionError(409, TRIAL_TEXTS.notConverting);
  return { license, facts, sub: license.paddle_subscription_id };
}

/**
 * "Start paid plan now": the provider ends the trial and charges the plan's price at once (Paddle:
 * POST /subscriptions/{id}/activate). The license becomes a paid one when that charge arrives as
 * transaction.completed, through the webhook path every payment takes (at once in the demo).
 */
export async function startPaidPlan({ userId, licenseId }: { userId: string; licenseId: string }) {
  const now = new Date();
  const { facts, sub } = await convertingTrial(userId, licenseId, now);
  const { nextBilledAt } = await askProvider(TRIAL_TEXTS.startFailed, () => getPaymentProvider().activateTrial(sub));
  const preview = paidPlanNow(facts, now)!;
  return {
    amountCents: preview.amountCents,
    currency: preview.currency,
    renewsOn: nextBilledAt ?? preview.periodEnd.toISOString(),
  };
}

/**
 * "Cancel trial": the provider cancels the subscription at the trial's end, so nothing is ever
 * charged; the license keeps working until then and is not renewed (decision 0037). Recorded only
 * once the provider agreed, with the "subscription cancelled" e-mail in the same transaction.
 */
export async function cancelTrial({ userId, licenseId }: { userId: string; licenseId: string }) {
  const { license, sub } = await convertingTrial(userId, licenseId, new Date());
  await askProvider(TRIAL_TEXTS.cancelFailed, () => getPaymentProvider().cancelAtPeriodEnd(sub));
  await getDb().transaction(async (tx) => {
    await markCancellationRequested(license.id, tx);
    await queueCustomerMail(tx, subscriptionCancelledMail(license));
  });
  return { endsOn: (license.trial_ends_at ?? license.end_date).toISOString() };
}
