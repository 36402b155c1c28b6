import { asc, eq } from "drizzle-orm";
import type { SubscriptionCharge } from "~/domain/subscription-prices";
import type { Database, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { payments } from "../db/schema";

/**
 * A license's payments, oldest first, as the renewal's price reads them (renewal-charge.ts): their
 * currency is the subscription's (decision 0072). For code that holds one license (its e-mails, the
 * payment link support sends).
 */
export function licenseCharges(licenseId: string, db: Database | Transaction = getDb()): Promise<SubscriptionCharge[]> {
  return db
    .select({
      kind: payments.kind,
      amount_cents: payments.amount_cents,
      currency: payments.currency,
      quantity: payments.quantity,
      discount_id: payments.discount_id,
    })
    .from(payments)
    .where(eq(payments.license_id, licenseId))
    .orderBy(asc(payments.billed_at));
}
