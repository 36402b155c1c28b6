import { recordAudit, WEBHOOK_ACTOR } from "../audit/audit.server";
import { isUuid } from "../action-error.server";
import type { Transaction } from "../db/client.server";
import type { License, payments } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { isPlanId } from "~/domain/plans";

// What applying a completed transaction (apply-transaction.server.ts) and its purchase, renewal and
// extension paths share: the transaction's facts, the custom data, a new key, the webhook's audit flag.

/** What the checkout (or the server, for extensions) put in custom_data. */
export function readCustomData(data: Record<string, unknown> | null | undefined) {
  const userId = isUuid(data?.user_id) ? data.user_id : null;
  const planType = isPlanId(data?.plan_type) ? data.plan_type : null;
  // Which license and how many months come from the checkout the server recorded, never from here.
  const extension = data?.kind === "extension";
  // A team checkout's name; the seats come from the transaction's quantity.
  const teamName = data?.kind === "team" && typeof data.team_name === "string" ? data.team_name : null;
  return { userId, planType, extension, teamName };
}

/**
 * The discount a transaction was charged with (decision 0073): Paddle names its id; the code is the one
 * the checkout echoed in custom_data, kept only when the transaction has a discount (a renewal after a
 * one-time discount carries the custom data but no discount).
 */
export function discountOf(txn: { discount_id?: string | null; custom_data?: Record<string, unknown> | null }): {
  discount_id: string | null;
  discount_code: string | null;
} {
  if (!txn.discount_id) return { discount_id: null, discount_code: null };
  const code = txn.custom_data?.discount_code;
  return { discount_id: txn.discount_id, discount_code: typeof code === "string" ? code.slice(0, 32) : null };
}

export function newKey(
  license: Pick<License, "email" | "windows_username" | "computer_name" | "start_date">,
  end_date: Date,
): string {
  return licenseKeys().generate({
    email: license.email,
    windows_username: license.windows_username,
    computer_name: license.computer_name,
    start_date: license.start_date,
    end_date,
  });
}

/** A completed transaction's facts, before we know which license it paid for. */
export type PaymentFacts = Omit<typeof payments.$inferInsert, "license_id" | "kind"> & {
  amount_cents: number;
  billed_at: Date;
  user_id: string;
};

/** The subscription and billing period a transaction paid for. */
export interface BillingPeriod {
  subscriptionId: string;
  start: Date;
  end: Date;
}

/** An audit entry by the payment provider's webhook (no person acted): something to look at. */
export async function flagAudit(
  tx: Transaction,
  action: "trial_refused" | "extension_refused",
  targetId: string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(tx, WEBHOOK_ACTOR, {
    action,
    target_type: action === "trial_refused" ? "license" : "transaction",
    target_id: targetId,
    details,
  });
}

/** What an event for the vendor's systems says about the payment behind it (docs/webhooks.md). */
export function paymentData(payment: PaymentFacts): Record<string, unknown> {
  return {
    transaction_id: payment.id,
    amount_cents: payment.amount_cents,
    currency: payment.currency ?? "USD",
    billed_at: payment.billed_at.toISOString(),
  };
}
