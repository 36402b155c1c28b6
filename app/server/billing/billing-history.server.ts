import { and, desc, eq, sql } from "drizzle-orm";
import type { BillingEntryView } from "~/domain/billing";
import { isTransactionId, isUuid } from "~/domain/route-params";
import { getDb, preparedPerDatabase } from "../db/db.server";
import { licenses, payments } from "../db/schema";

const entryColumns = {
  id: payments.id,
  billed_at: payments.billed_at,
  kind: payments.kind,
  license_type: licenses.license_type,
  license_short_id: licenses.short_id,
  amount_cents: payments.amount_cents,
  refunded_cents: payments.refunded_cents,
  pending_refund_cents: payments.pending_refund_cents,
  currency: payments.currency,
  team: sql<boolean>`(${licenses.team_role} is not distinct from 'billing')`,
  // A renewal with no paid charge before it on its license: the trial's end, i.e. the plan's purchase.
  first_paid: sql<boolean>`(${payments.kind} = 'renewal' and not exists (
    select 1 from payments earlier
    where earlier.license_id = ${payments.license_id} and earlier.amount_cents > 0 and earlier.billed_at < ${payments.billed_at}
  ))`,
};

/** The user's payments, newest first, each with the license it paid for (only what the page shows). */
export async function listBillingHistory(userId: string): Promise<BillingEntryView[]> {
  const rows = await billingHistoryQuery().execute({ userId });
  return rows.map((row) => ({ ...row, billed_at: row.billed_at.toISOString() }));
}

const billingHistoryQuery = preparedPerDatabase((db) =>
  db
    .select(entryColumns)
    .from(payments)
    .innerJoin(licenses, eq(licenses.id, payments.license_id))
    .where(eq(payments.user_id, sql.placeholder("userId")))
    .orderBy(desc(payments.billed_at), desc(payments.id))
    .prepare("user_billing_history"),
);

/**
 * One of the user's payments by transaction id; another user's (or no) payment is undefined, and so
 * is an id of the wrong shape (user or payment: never sent to the database, docs/security.md).
 */
export async function getOwnPayment(userId: string, paymentId: string) {
  if (!isUuid(userId) || !isTransactionId(paymentId)) return undefined;
  const [row] = await getDb()
    .select({ ...entryColumns, license_id: licenses.id, subscription_id: payments.subscription_id })
    .from(payments)
    .innerJoin(licenses, eq(licenses.id, payments.license_id))
    .where(and(eq(payments.id, paymentId), eq(payments.user_id, userId)));
  return row;
}
