import { and, eq, sql } from "drizzle-orm";
import { LICENSE_ERRORS } from "~/domain/license-texts";
import { PAYMENT_PROBLEM_TEXTS, subscriptionChangesRefused } from "~/domain/past-due";
import {
  canCancelRenewal,
  canReenableRenewal,
  hasSubscriptionSection,
  isRefundLocked,
  licenseFacts,
} from "~/domain/license-status";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { ProviderError } from "../billing/payment-provider.server";
import { getDb } from "../db/db.server";
import type { Transaction } from "../db/client.server";
import { licenses, type License } from "../db/schema";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { subscriptionCancelledMail } from "../billing/sync-subscription.server";
import { ActionError } from "../action-error.server";
import { getOwnBillableLicense } from "./own-license.server";

function subscriptionOf(license: License): string {
  if (!license.paddle_subscription_id) throw new ActionError(409, LICENSE_ERRORS.noSubscription);
  if (!hasSubscriptionSection(licenseFacts(license)) || license.status === "revoked" || isRefundLocked(license)) {
    throw new ActionError(409, "This license has no subscription to change.");
  }
  // The provider refuses any change to a past-due subscription: say so rather than ask it.
  if (subscriptionChangesRefused(license)) throw new ActionError(409, PAYMENT_PROBLEM_TEXTS.changeRefused);
  return license.paddle_subscription_id;
}

/**
 * Cancel auto-renewal: the provider schedules the cancellation at the period's end first; only
 * when it agreed is the license marked (access stays until the period end).
 */
export async function cancelRenewal({
  userId,
  licenseId,
  record,
}: {
  userId: string;
  licenseId: string;
  /** More to write in the change's transaction (support's audit entry): fails it all if it fails. */
  record?: RecordInTransaction;
}): Promise<License> {
  const license = await getOwnBillableLicense(userId, licenseId);
  const subscriptionId = subscriptionOf(license);
  if (!canCancelRenewal(licenseFacts(license)))
    throw new ActionError(409, "Automatic renewal is already off for this license.");
  await askProvider(LICENSE_ERRORS.cancel, () => getPaymentProvider().cancelAtPeriodEnd(subscriptionId));
  await getDb().transaction(async (tx) => {
    await markCancellationRequested(license.id, tx);
    await queueCustomerMail(tx, subscriptionCancelledMail(license));
    await record?.(tx, license);
  });
  return license;
}

type RecordInTransaction = (tx: Transaction, license: License) => Promise<void>;

/** Records a cancellation the provider agreed to (auto_renew, cancellation_requested and its time; the first request's time kept). */
export async function markCancellationRequested(licenseId: string, tx?: Transaction): Promise<void> {
  await (tx ?? getDb())
    .update(licenses)
    .set({
      auto_renew: false,
      cancellation_requested: true,
      cancellation_requested_at: sql`coalesce(${licenses.cancellation_requested_at}, now())`,
      // Provider events from before this moment must not undo it.
      subscription_synced_at: sql`greatest(${licenses.subscription_synced_at}, now())`,
    })
    .where(eq(licenses.id, licenseId));
}

/** Re-enable: the provider removes the scheduled cancellation, then the license's three renewal fields. */
export async function reenableRenewal({
  userId,
  licenseId,
  record,
}: {
  userId: string;
  licenseId: string;
  record?: RecordInTransaction;
}): Promise<License> {
  const license = await getOwnBillableLicense(userId, licenseId);
  const subscriptionId = subscriptionOf(license);
  if (!canReenableRenewal(licenseFacts(license)))
    throw new ActionError(409, "This license has no cancellation to undo.");
  await askProvider(LICENSE_ERRORS.reenable, () => getPaymentProvider().removeScheduledCancel(subscriptionId));
  await getDb().transaction(async (tx) => {
    await tx
      .update(licenses)
      .set({
        auto_renew: true,
        cancellation_requested: false,
        cancellation_requested_at: null,
        subscription_synced_at: sql`greatest(${licenses.subscription_synced_at}, now())`,
      })
      .where(and(eq(licenses.id, license.id), eq(licenses.user_id, userId)));
    await record?.(tx, license);
  });
  return license;
}

/** Runs a provider call; its failure becomes the page's text with a 502. */
export async function askProvider<T>(failureText: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    getLogger().warn({ err: error }, failureText);
    throw new ActionError(502, failureText);
  }
}
