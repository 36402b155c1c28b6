import { eq } from "drizzle-orm";
import { NO_BILLING_DETAILS, type BillingDetails } from "~/domain/billing-details";
import type { Database, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { profiles } from "../db/schema";

/**
 * The buyer's billing details on the profile (decision 0040): the profile page and the demo checkout
 * save them, the demo provider's invoices print them. The profiles table announces its user's
 * changes (migration 0015), so the cached profile page forgets itself.
 */

export async function getBillingDetails(userId: string, db: Database | Transaction = getDb()): Promise<BillingDetails> {
  const [row] = await db
    .select({
      billing_name: profiles.billing_name,
      billing_address: profiles.billing_address,
      billing_tax_id: profiles.billing_tax_id,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row ?? NO_BILLING_DETAILS;
}

/** Saves the details (already checked with billingDetailsSchema) on the user's profile. */
export async function saveBillingDetails(
  userId: string,
  details: BillingDetails,
  db: Database | Transaction = getDb(),
): Promise<void> {
  await db
    .insert(profiles)
    .values({ id: userId, ...details })
    .onConflictDoUpdate({ target: profiles.id, set: details });
}
