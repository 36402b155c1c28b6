import { and, eq, inArray } from "drizzle-orm";
import { formatMoney } from "~/domain/billing";
import type { LedgerPayment, RefundLine } from "~/domain/refund-ledger";
import { LICENSE_ERRORS } from "~/domain/license-texts";
import { ActionError } from "../action-error.server";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { ProviderError } from "../billing/payment-provider.server";
import { settleLicenseRefund } from "../billing/settle-refund.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { licenses, payments, type License, type Payment } from "../db/schema";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { getLogger } from "../logger.server";

/** One adjustment to ask for: a ledger line, and whether it refunds the whole transaction. */
export type AdjustmentLine = RefundLine & { full?: boolean };

/** A payment as the ledger reads it (app/domain/refund-ledger.ts). */
export function ledgerPayment(payment: Payment, license: Pick<License, "license_type">): LedgerPayment {
  return { ...payment, license_type: license.license_type };
}

/**
 * Asks the payment provider for one refund adjustment per transaction, all or nothing (decision
 * 0036). Under the license's lock, `plan` re-checks what may be refunded and names the lines; their
 * payments are marked `requesting` (their provider events wait) and committed. Then each adjustment
 * is asked for with its idempotency key. If every one is accepted, one transaction marks them
 * `requested`, settles the license (refund requested) and runs `onRequested` (audit, stop renewal).
 * If one fails, they are marked `abandoned`: nothing shows as refunded, the license is as it was,
 * and the caller's user sees "Failed to process refund: …" (502). The adjustments already made stay
 * at the provider (they cannot be withdrawn); a retry gets them back by their keys, never a second.
 */
export async function requestAdjustments({
  licenseId,
  reason,
  plan,
  onRequested,
}: {
  licenseId: string;
  reason: string;
  plan: (license: License, payments: Payment[]) => AdjustmentLine[];
  onRequested: (tx: Transaction, license: License, lines: AdjustmentLine[], adjustmentIds: string[]) => Promise<void>;
}): Promise<AdjustmentLine[]> {
  const { license, lines, items } = await getDb().transaction(async (tx) => {
    const [locked] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!locked) throw new ActionError(404, "License not found");
    const rows = await tx.select().from(payments).where(eq(payments.license_id, licenseId)).for("update");
    const planned = plan(locked, rows);
    const ids = planned.map((line) => line.transactionId);
    if (ids.length > 0)
      await tx.update(payments).set({ refund_request: "requesting" }).where(inArray(payments.id, ids));
    return { license: locked, lines: planned, items: new Map(rows.map((r) => [r.id, r.item_id])) };
  });
  const adjustmentIds: string[] = [];
  for (const line of lines) {
    try {
      const { adjustmentId } = await getPaymentProvider().refund({
        transactionId: line.transactionId,
        itemId: items.get(line.transactionId) ?? null,
        amountCents: line.refundCents,
        full: line.full,
        reason,
        idempotencyKey: line.idempotencyKey,
      });
      adjustmentIds.push(adjustmentId);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      getLogger().warn({ err: error, license: licenseId, transaction: line.transactionId }, "refund adjustment failed");
      await abandon(licenseId, lines);
      throw new ActionError(
        502,
        `${LICENSE_ERRORS.refund}: the payment provider did not accept the refund of the ${line.description.charAt(0).toLowerCase()}${line.description.slice(1)} (${formatMoney(line.paidCents, line.currency)}). Nothing was refunded; please try again.`,
      );
    }
  }
  await getDb().transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(payments)
      .where(
        inArray(
          payments.id,
          lines.map((line) => line.transactionId),
        ),
      )
      .for("update");
    for (const [i, line] of lines.entries()) {
      const row = rows.find((r) => r.id === line.transactionId);
      // An event of this very adjustment may have arrived already: it is newer than anything we know.
      const known = row?.refund_adjustment_id === adjustmentIds[i];
      await tx
        .update(payments)
        .set({
          refund_request: "requested",
          ...(known
            ? {}
            : {
                refund_adjustment_id: adjustmentIds[i],
                refund_cents: line.refundCents,
                refund_status: "pending_approval" as const,
                refund_status_at: new Date(),
              }),
        })
        .where(eq(payments.id, line.transactionId));
    }
    const followUps = await settleLicenseRefund(tx, licenseId);
    for (const f of followUps)
      await enqueueStopRenewal(tx, { licenseId, subscriptionId: f.subscriptionId, record: false }, f.occasion);
    await onRequested(tx, license, lines, adjustmentIds);
  });
  return lines;
}

/** A failed request: its payments are no longer being asked for, and show nothing pending. */
async function abandon(licenseId: string, lines: AdjustmentLine[]): Promise<void> {
  await getDb().transaction(async (tx) => {
    await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.id, licenseId)).for("update");
    await tx
      .update(payments)
      .set({ refund_request: "abandoned" })
      .where(
        and(
          inArray(
            payments.id,
            lines.map((line) => line.transactionId),
          ),
          eq(payments.refund_request, "requesting"),
        ),
      );
    await settleLicenseRefund(tx, licenseId);
  });
}
