import { and, eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { licenses, payments } from "../db/schema";

/** What the success page shows of the license a transaction paid for. */
export interface PurchasedLicense {
  short_id: string;
  license_type: string;
  end_date: string;
  is_trial: boolean;
}

/**
 * The license a completed transaction of this user paid for (its purchase, renewal or
 * extension), or null while the payment's webhook has not been applied yet or when the
 * transaction is not the user's.
 */
export async function purchasedLicense(userId: string, transactionId: string): Promise<PurchasedLicense | null> {
  if (!transactionId || transactionId.length > 200) return null;
  const [row] = await getDb()
    .select({
      short_id: licenses.short_id,
      license_type: licenses.license_type,
      end_date: licenses.end_date,
      is_trial: licenses.is_trial,
    })
    .from(payments)
    .innerJoin(licenses, eq(licenses.id, payments.license_id))
    .where(and(eq(payments.id, transactionId), eq(payments.user_id, userId), eq(licenses.user_id, userId)));
  return row ? { ...row, end_date: row.end_date.toISOString() } : null;
}
