import { isRefundLocked } from "~/domain/license-status";
import { PAYMENT_PROBLEM_TEXTS } from "~/domain/past-due";
import { ActionError } from "../action-error.server";
import type { License } from "../db/schema";
import { askProvider } from "../licenses/renewal.server";
import { getOwnLicense } from "../licenses/own-license.server";
import { getDemoProvider, getPaymentProvider } from "./configured-provider.server";

/** The user's past-due license and its subscription; 404 for another user's, 409 when nothing is due. */
async function pastDueLicense(
  userId: string,
  licenseId: string,
): Promise<License & { paddle_subscription_id: string }> {
  const license = await getOwnLicense(userId, licenseId);
  if (
    !license.past_due_since ||
    !license.paddle_subscription_id ||
    license.status === "revoked" ||
    isRefundLocked(license)
  ) {
    throw new ActionError(409, PAYMENT_PROBLEM_TEXTS.nothingDue);
  }
  return license as License & { paddle_subscription_id: string };
}

/**
 * "Update payment method": the transaction the overlay opens for the past-due subscription
 * (Paddle: GET /subscriptions/{id}/update-payment-method-transaction; demo: its open renewal).
 */
export async function startPaymentMethodUpdate({
  userId,
  licenseId,
}: {
  userId: string;
  licenseId: string;
}): Promise<{ transactionId: string }> {
  const license = await pastDueLicense(userId, licenseId);
  return askProvider(PAYMENT_PROBLEM_TEXTS.updateFailed, () =>
    getPaymentProvider().paymentMethodUpdate(license.paddle_subscription_id),
  );
}

/**
 * The demo overlay's "Save and pay": the demo provider pays the past-due renewal as a working card
 * would, announcing it as Paddle does (transaction.completed, subscription.updated); the webhook
 * handler renews the license and clears the payment problem.
 */
export async function payDemoPastDue({ userId, licenseId }: { userId: string; licenseId: string }): Promise<void> {
  const demo = getDemoProvider();
  if (!demo) throw new ActionError(404, "Not found");
  const license = await pastDueLicense(userId, licenseId);
  const outcome = await askProvider(PAYMENT_PROBLEM_TEXTS.updateFailed, () =>
    demo.recover(license.paddle_subscription_id),
  );
  if (outcome.outcome !== "renewed") throw new ActionError(409, PAYMENT_PROBLEM_TEXTS.nothingDue);
}
