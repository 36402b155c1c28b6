import { and, eq, sql } from "drizzle-orm";
import { demo_billing } from "../../db/schema";
import { enqueue } from "../../jobs/jobs.server";
import type { PaddleAdjustment, PaddleTransaction } from "../paddle-events.server";
import { ProviderError } from "../payment-provider.server";
import type { DemoParts } from "./demo-events.server";
import type { DemoProvider } from "./demo-provider-type.server";
import { demoId } from "./demo-shapes.server";

/**
 * The demo's refunds: a pending adjustment, as Paddle records a refund request, approved or
 * rejected later as Paddle's staff would (by a durable job after refundApprovalMs; null: never).
 * Idempotent as Paddle is asked to be (decision 0036): the same idempotency key for a transaction
 * answers the adjustment it made (kept in the demo's copy as `idempotency_key`, a demo-only field);
 * another refund of a transaction already refunded or pending is refused, as Paddle refuses it.
 */
export function demoRefunds({
  load,
  save,
  deliver,
  db,
  refundApprovalMs,
}: DemoParts & { refundApprovalMs: number | null }): Pick<DemoProvider, "refund" | "settleRefund"> {
  return {
    async refund({ transactionId, amountCents, reason, full, idempotencyKey }) {
      const txn = await load<PaddleTransaction>(transactionId, "transaction");
      if (txn.status !== "completed") throw new ProviderError(`transaction ${transactionId} is not completed`);
      const paid = Number(txn.details.totals.total);
      if (full) amountCents = paid;
      if (amountCents <= 0 || amountCents > paid) {
        throw new ProviderError(`refund of ${amountCents} exceeds what transaction ${transactionId} paid`);
      }
      const [existing] = await db()
        .select({ id: demo_billing.id, key: sql<string | null>`${demo_billing.data} ->> 'idempotency_key'` })
        .from(demo_billing)
        .where(
          and(
            eq(demo_billing.kind, "adjustment"),
            sql`${demo_billing.data} ->> 'transaction_id' = ${transactionId}`,
            sql`${demo_billing.data} ->> 'status' in ('pending_approval', 'approved')`,
          ),
        );
      // The same request again (its idempotency key): the adjustment it made is the answer, nothing new.
      if (existing && idempotencyKey && existing.key === idempotencyKey) return { adjustmentId: existing.id };
      if (existing) throw new ProviderError(`transaction ${transactionId} already has a refund`);
      const adjustment = {
        ...refundAdjustment(txn, amountCents, reason, full),
        idempotency_key: idempotencyKey ?? null,
      };
      await save("adjustment", adjustment, txn.subscription_id ?? null);
      await deliver([{ event_type: "adjustment.created", data: adjustment }]);
      if (refundApprovalMs !== null) {
        // A durable job in this database, not a timer: the approval survives a restart (decision 0010).
        const [key, startAfter] = [`demo-refund-approval:${adjustment.id}`, new Date(Date.now() + refundApprovalMs)];
        await enqueue("demo-refund-approval", { adjustmentId: adjustment.id }, { key, startAfter });
      }
      return { adjustmentId: adjustment.id };
    },

    async settleRefund(adjustmentId, status) {
      const adjustment = await load<PaddleAdjustment>(adjustmentId, "adjustment");
      if (adjustment.status !== "pending_approval") return;
      const settled = { ...adjustment, status, updated_at: new Date().toISOString() };
      await save("adjustment", settled, adjustment.subscription_id ?? null);
      await deliver([{ event_type: "adjustment.updated", data: settled }]);
    },
  };
}

/** A refund request of amountCents against txn, pending approval, in Paddle's adjustment shape. */
function refundAdjustment(
  txn: PaddleTransaction,
  amountCents: number,
  reason: string,
  full = false,
): PaddleAdjustment & Record<string, unknown> {
  const currency = txn.details.totals.currency_code;
  const paid = Number(txn.details.totals.total);
  const paidTax = Number((txn.details.totals as { tax?: string }).tax ?? 0) || 0;
  const tax = paid > 0 ? Math.round((paidTax * amountCents) / paid) : 0;
  return {
    id: demoId("adj"),
    action: "refund",
    type: full ? "full" : "partial",
    transaction_id: txn.id,
    subscription_id: txn.subscription_id ?? null,
    customer_id: txn.customer_id ?? null,
    reason,
    // In the transaction's currency, its tax refunded in proportion, as Paddle's adjustment totals are.
    currency_code: currency,
    status: "pending_approval",
    totals: {
      subtotal: String(amountCents - tax),
      tax: String(tax),
      total: String(amountCents),
      fee: "0",
      earnings: "0",
      currency_code: currency,
    },
    created_at: new Date().toISOString(),
  };
}
