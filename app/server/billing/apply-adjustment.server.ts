import { eq } from "drizzle-orm";
import { disputeStatusOf } from "~/domain/disputes";
import { adjustmentEventWins, type AdjustmentStatus } from "~/domain/refund-state";
import type { Transaction } from "../db/client.server";
import { licenses, payments } from "../db/schema";
import { recomputeFallbackOfPayment } from "../licenses/fallback.server";
import { getLogger } from "../logger.server";
import { applyDispute } from "./apply-dispute.server";
import type { PaddleAdjustment } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { settleLicenseRefund } from "./settle-refund.server";

/**
 * An adjustment: a dispute the provider created by itself (a chargeback, its warning or reversal;
 * decision 0056) or a refund (decision 0036). Other actions (credits) change no license.
 */
export async function applyAdjustment(
  tx: Transaction,
  adjustment: PaddleAdjustment,
  occurredAt: Date,
): Promise<FollowUp[]> {
  const dispute = disputeStatusOf(adjustment.action);
  if (!dispute && adjustment.action !== "refund") return [];
  const followUps = dispute
    ? await applyDispute(tx, adjustment, dispute, occurredAt)
    : await applyRefund(tx, adjustment, occurredAt);
  // An approved refund or a chargeback takes the payment's period out of the fallback (decision 0066).
  await recomputeFallbackOfPayment(tx, adjustment.transaction_id);
  return followUps;
}

/**
 * A refund adjustment (decision 0036): the refunded transaction keeps it (the newest event by its
 * time wins, so a late pending event never undoes an approval), then the license is settled from
 * all its payments: pending → refund_requested, approved → refunded, rejected → active again.
 */
async function applyRefund(tx: Transaction, adjustment: PaddleAdjustment, occurredAt: Date): Promise<FollowUp[]> {
  const [known] = await tx
    .select({ license_id: payments.license_id })
    .from(payments)
    .where(eq(payments.id, adjustment.transaction_id));
  if (!known) {
    getLogger().warn({ adjustment: adjustment.id }, "refund adjustment for a transaction we do not know");
    return [];
  }
  // The license first, then its payment: the order the site's refund request locks them in.
  await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.id, known.license_id)).for("update");
  const [paid] = await tx.select().from(payments).where(eq(payments.id, adjustment.transaction_id)).for("update");
  const status: AdjustmentStatus = adjustment.status;
  if (
    !paid ||
    !adjustmentEventWins({ status: paid.refund_status, at: paid.refund_status_at }, { status, at: occurredAt })
  )
    return [];
  await tx
    .update(payments)
    .set({
      refund_adjustment_id: adjustment.id,
      refund_cents: Math.abs(Number(adjustment.totals.total)),
      refund_status: status,
      refund_status_at: occurredAt,
    })
    .where(eq(payments.id, paid.id));
  return settleLicenseRefund(tx, paid.license_id);
}
