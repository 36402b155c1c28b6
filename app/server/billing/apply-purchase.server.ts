import { refundEligibleUntil, type PlanId, type QuotedPrices } from "~/domain/plans";
import type { Transaction } from "../db/client.server";
import { licenses, payments } from "../db/schema";
import { recomputeFallback } from "../licenses/fallback.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { FollowUp } from "./payment-provider.server";
import { licenseForSubscription, resyncSubscription } from "./sync-subscription.server";
import { flagAudit, newKey, paymentData, type BillingPeriod, type PaymentFacts } from "./transaction-facts.server";

/** The first transaction of a new subscription: the license, its key, and any earlier subscription state. */
export async function applyPurchase(
  tx: Transaction,
  period: BillingPeriod,
  buyer: {
    userId: string;
    email: string;
    planType: PlanId;
    isTrial: boolean;
    trialPrice: boolean;
    checkoutFound: boolean;
    quotedPrices?: QuotedPrices | null;
  },
  payment: PaymentFacts,
): Promise<FollowUp[]> {
  const { isTrial } = buyer;
  const base = { email: buyer.email, windows_username: null, computer_name: null, start_date: period.start };
  const inserted = await tx
    .insert(licenses)
    .values({
      user_id: buyer.userId,
      ...base,
      license_key: newKey(base, period.end),
      license_type: buyer.planType,
      status: "active",
      end_date: period.end,
      is_trial: isTrial,
      trial_starts_at: isTrial ? period.start : null,
      trial_ends_at: isTrial ? period.end : null,
      auto_renew: true,
      paddle_subscription_id: period.subscriptionId,
      purchase_date: payment.billed_at,
      refund_eligible_until: refundEligibleUntil(payment.billed_at),
      // Kept only when the quote is in the currency the subscription charges.
      quoted_prices: buyer.quotedPrices?.currency === (payment.currency ?? "USD") ? buyer.quotedPrices : null,
    })
    .onConflictDoNothing()
    .returning();
  const license = inserted[0] ?? (await licenseForSubscription(tx, period.subscriptionId));
  if (!license) throw new Error(`license for ${period.subscriptionId} neither inserted nor found`);
  if (buyer.trialPrice && !isTrial) {
    await flagAudit(tx, "trial_refused", license.id, {
      transaction: payment.id,
      user_id: buyer.userId,
      reason: buyer.checkoutFound
        ? "the checkout was not a first-time buyer's trial"
        : "no checkout created by the site",
    });
  }
  // Subscription events that arrived before this one (e.g. a cancellation) apply now.
  await resyncSubscription(tx, period.subscriptionId);
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind: "purchase" });
  // A yearly plan's first payment is 12 paid months already (decision 0066).
  await recomputeFallback(tx, license.id);
  if (inserted[0]) {
    await recordEvent(tx, "license.created", licenseEvent(license, { payment: paymentData(payment), trial: isTrial }));
    await queueCustomerMail(tx, {
      kind: "license-delivered",
      licenseId: license.id,
      key: payment.id,
      details: { amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
    });
  }
  return [];
}
