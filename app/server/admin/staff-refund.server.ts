import { and, eq } from "drizzle-orm";
import { formatMoney, isFirstPaidRenewal, paymentDescription } from "~/domain/billing";
import { canCancelRenewal, licenseFacts } from "~/domain/license-status";
import { auditLicenseState } from "~/domain/license-state";
import { refundIdempotencyKey } from "~/domain/refund-ledger";
import { checkStaffRefund, STAFF_REFUND_TEXTS } from "~/domain/staff-refund";
import { isTransactionId } from "~/domain/route-params";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { getDb } from "../db/db.server";
import { payments } from "../db/schema";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { ledgerPayment, requestAdjustments } from "../licenses/refund-adjustments.server";
import { stateFactsOf } from "../teams/renewal-seats.server";

/**
 * Support refunds one of a user's payments (decision 0036): the policy amount (95%) or all of it, a
 * reason required, allowed outside the customer's refund window. Applied through the provider as
 * one adjustment, like the customer's own refund (refund-adjustments.server.ts): the license becomes
 * refund_requested and then refunded, its renewal stops, the customer gets the "Refund processed"
 * e-mail on approval; the audit entry keeps the reason. Bad input changes nothing (4xx).
 */
export async function staffRefund({
  admin,
  userId,
  transactionId,
  amount,
  reason,
}: {
  admin: AuditActor;
  userId: string;
  transactionId: string;
  amount: unknown;
  reason: unknown;
}): Promise<{ amountCents: number; currency: string }> {
  if (!isUuid(userId) || !isTransactionId(transactionId)) throw new ActionError(404, STAFF_REFUND_TEXTS.unknownPayment);
  const [payment] = await getDb()
    .select({ license_id: payments.license_id })
    .from(payments)
    .where(and(eq(payments.id, transactionId), eq(payments.user_id, userId)));
  if (!payment) throw new ActionError(404, STAFF_REFUND_TEXTS.unknownPayment);
  let checked: { amountCents: number; reason: string } | undefined;
  const [line] = await requestAdjustments({
    licenseId: payment.license_id,
    reason: typeof reason === "string" ? `Refund by support: ${reason.trim()}` : "Refund by support",
    plan: (license, rows) => {
      const row = rows.find((r) => r.id === transactionId);
      if (!row) throw new ActionError(404, STAFF_REFUND_TEXTS.unknownPayment);
      const check = checkStaffRefund(row, { amount, reason });
      if (!check.ok) throw new ActionError(check.status, check.message);
      checked = check;
      const ledger = ledgerPayment(row, license);
      return [
        {
          transactionId: row.id,
          kind: row.kind,
          description: paymentDescription({ ...ledger, first_paid: isFirstPaidRenewal(row, rows) }),
          currency: row.currency,
          paidCents: row.amount_cents,
          refundCents: check.amountCents,
          full: check.full,
          idempotencyKey: refundIdempotencyKey(license.id, row.id),
        },
      ];
    },
    onRequested: async (tx, license, lines, [adjustmentId]) => {
      await recordAudit(tx, admin, {
        action: "refund.staff",
        target_type: "license",
        target_id: license.id,
        details: {
          user_id: license.user_id,
          short_id: license.short_id,
          transaction_id: transactionId,
          adjustment_id: adjustmentId,
          paid_cents: lines[0]!.paidCents,
          amount_cents: lines[0]!.refundCents,
          amount: formatMoney(lines[0]!.refundCents, lines[0]!.currency),
          full: Boolean(lines[0]!.full),
          reason: checked!.reason,
          ...auditLicenseState(await stateFactsOf(tx, license), new Date()),
        },
      });
      if (canCancelRenewal(licenseFacts(license)) && license.paddle_subscription_id) {
        await enqueueStopRenewal(
          tx,
          { licenseId: license.id, subscriptionId: license.paddle_subscription_id, record: true },
          `refund:${adjustmentId}`,
        );
      }
    },
  });
  return { amountCents: line!.refundCents, currency: line!.currency };
}
