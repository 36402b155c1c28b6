import { canCancelRenewal, licenseFacts } from "~/domain/license-status";
import { auditLicenseState } from "~/domain/license-state";
import { planRefund, totalsOf, type RefundLine } from "~/domain/refund-ledger";
import { ActionError } from "../action-error.server";
import { recordAudit } from "../audit/audit.server";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { getOwnBillableLicense } from "./own-license.server";
import { ledgerPayment, requestAdjustments } from "./refund-adjustments.server";
import { stateFactsOf } from "../teams/renewal-seats.server";

/**
 * Request Refund (decision 0036): within the refund window, the license's plan payment and every
 * extension payment, 95% of each rounded up to the cent (app/domain/refund-ledger.ts). Eligibility
 * is re-checked under the license's lock; the provider gets one adjustment per transaction, all or
 * nothing (refund-adjustments.server.ts). Once every one is accepted the license is
 * refund_requested, the request is in the audit log and renewal stops: a stop-renewal job queued in
 * that transaction tells the provider, retried until it agrees.
 */
export async function requestRefund({
  user,
  licenseId,
  now = new Date(),
}: {
  user: { id: string; email: string };
  licenseId: string;
  now?: Date;
}): Promise<{ amountCents: number; lines: RefundLine[]; totals: ReturnType<typeof totalsOf> }> {
  const own = await getOwnBillableLicense(user.id, licenseId);
  const lines = await requestAdjustments({
    licenseId: own.id,
    reason: "Refund requested by the customer (95% of each charge of the license)",
    plan: (license, rows) => {
      const plan = planRefund(
        { ...licenseFacts(license), id: license.id },
        rows.map((row) => ledgerPayment(row, license)),
        now,
      );
      if (!plan.ok) throw new ActionError(409, plan.message);
      return plan.lines;
    },
    onRequested: async (tx, license, requested, adjustmentIds) => {
      await recordAudit(tx, user, {
        action: "refund.request",
        target_type: "license",
        target_id: license.id,
        details: {
          amount_cents: requested.reduce((sum, line) => sum + line.refundCents, 0),
          transaction_id: requested[0]!.transactionId,
          adjustment_id: adjustmentIds[0],
          charges: requested.map((line, i) => ({
            transaction_id: line.transactionId,
            paid_cents: line.paidCents,
            refund_cents: line.refundCents,
            adjustment_id: adjustmentIds[i],
          })),
          ...auditLicenseState(await stateFactsOf(tx, license), now),
        },
      });
      if (canCancelRenewal(licenseFacts(license)) && license.paddle_subscription_id) {
        await enqueueStopRenewal(
          tx,
          { licenseId: license.id, subscriptionId: license.paddle_subscription_id, record: true },
          `refund:${adjustmentIds[0]}`,
        );
      }
    },
  });
  return { amountCents: lines.reduce((sum, line) => sum + line.refundCents, 0), lines, totals: totalsOf(lines) };
}
