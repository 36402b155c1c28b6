import { and, eq } from "drizzle-orm";
import { canCancelRenewal, isRefundEligible, licenseRefundCents, licenseFacts } from "~/domain/license-status";
import { auditLicenseState } from "~/domain/license-state";
import { refundRefusal } from "~/domain/refund-ledger";
import { LICENSE_ERRORS } from "~/domain/license-texts";
import { formatUsd } from "~/domain/plans";
import { latestPaidPayment } from "../billing/payments.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { getDb } from "../db/db.server";
import { recordAudit } from "../audit/audit.server";
import { licenses } from "../db/schema";
import { ActionError } from "../action-error.server";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { getOwnLicense } from "./own-license.server";
import { askProvider } from "./renewal.server";

/**
 * Request Refund: re-checks eligibility on the server, asks the provider for a partial refund of
 * 95% of the plan price against the license's newest payment, then marks the license
 * refund_requested and records the request in the audit log, in one transaction. The pending
 * refund also stops renewal, so a refunded license is never charged again: a stop-renewal job
 * queued in that transaction tells the provider, retried until it agrees.
 */
export async function requestRefund({
  user,
  licenseId,
  now = new Date(),
}: {
  user: { id: string; email: string };
  licenseId: string;
  now?: Date;
}): Promise<{ amountCents: number }> {
  const license = await getOwnLicense(user.id, licenseId);
  const amountCents = licenseRefundCents(license);
  // Says why not (window passed, trial, tester…): refund-ledger.ts's reasons, in the customer's words.
  const refusal = refundRefusal(licenseFacts(license), now);
  if (refusal || !isRefundEligible(licenseFacts(license), now) || amountCents === null) {
    throw new ActionError(409, refusal?.message ?? "This license is not eligible for a refund.");
  }
  const payment = await latestPaidPayment(getDb(), license.id);
  if (!payment) throw new ActionError(409, LICENSE_ERRORS.refund);
  const { adjustmentId } = await askProvider(LICENSE_ERRORS.refund, () =>
    getPaymentProvider().refund({
      transactionId: payment.id,
      itemId: payment.item_id,
      amountCents,
      reason: `Refund requested by the customer (${formatUsd(amountCents)}, 95% of the plan price)`,
    }),
  );
  await getDb().transaction(async (tx) => {
    await tx
      .update(licenses)
      .set({ status: "refund_requested" })
      .where(and(eq(licenses.id, license.id), eq(licenses.status, "active")));
    await recordAudit(tx, user, {
      action: "refund.request",
      target_type: "license",
      target_id: license.id,
      details: {
        amount_cents: amountCents,
        transaction_id: payment.id,
        adjustment_id: adjustmentId,
        ...auditLicenseState(licenseFacts(license), now),
      },
    });
    if (canCancelRenewal(licenseFacts(license)) && license.paddle_subscription_id) {
      await enqueueStopRenewal(
        tx,
        { licenseId: license.id, subscriptionId: license.paddle_subscription_id, record: true },
        `refund:${adjustmentId}`,
      );
    }
  });
  return { amountCents };
}
