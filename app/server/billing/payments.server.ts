import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { payments } from "../db/schema";

/** The newest paid purchase or renewal of a license (never an extension): what its refund refunds. */
export async function latestPaidPayment(tx: Pick<Transaction, "select">, licenseId: string) {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.license_id, licenseId),
        gt(payments.amount_cents, 0),
        inArray(payments.kind, ["purchase", "renewal"]),
      ),
    )
    .orderBy(desc(payments.billed_at))
    .limit(1);
  return payment;
}
