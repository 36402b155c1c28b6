import { eq } from "drizzle-orm";
import type { PlanId } from "~/domain/plans";
import type { Transaction } from "../db/client.server";
import { checkouts, payments, users, type License } from "../db/schema";
import { getLogger } from "../logger.server";
import { applyExtensionPayment } from "./apply-extension-payment.server";
import { applyPaymentEvent } from "./apply-payment-problem.server";
import { applyPurchase } from "./apply-purchase.server";
import { switchedPlan } from "./apply-plan-change.server";
import { applyRenewal } from "./apply-renewal.server";
import type { PaddleTransaction } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { isTrialPriceId, planForPriceId } from "./price-ids.server";
import { licenseForSubscription } from "./sync-subscription.server";
import { applyTeamPurchase, applyTeamTransaction } from "../teams/team-billing.server";
import { discountOf, readCustomData, type BillingPeriod, type PaymentFacts } from "./transaction-facts.server";

/**
 * A verified transaction.completed: a purchase creates the license, a renewal moves it on, an
 * extension adds the months of the server's own extension checkout. Payments are facts keyed by
 * transaction id, so a transaction is applied once whatever the event ids.
 */

export async function applyTransactionCompleted(
  tx: Transaction,
  txn: PaddleTransaction,
  occurredAt: Date,
): Promise<FollowUp[]> {
  const log = getLogger();
  const custom = readCustomData(txn.custom_data);
  if (!custom.userId) {
    log.warn({ transaction: txn.id }, "transaction.completed without custom_data.user_id: not linked to a user");
    return [];
  }
  const [already] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, txn.id));
  if (already) return [];
  const amount = Number(txn.details.totals.total);
  const billedAt = new Date(txn.billed_at ?? occurredAt);
  const payment: PaymentFacts = {
    id: txn.id,
    user_id: custom.userId,
    subscription_id: txn.subscription_id ?? null,
    customer_id: txn.customer_id ?? null,
    item_id: txn.details.line_items[0]?.id ?? null,
    amount_cents: amount,
    currency: txn.details.totals.currency_code,
    // The units it billed (a team's seats): a renewal in another currency is priced per seat from it.
    quantity: txn.items[0]?.quantity ?? null,
    billed_at: billedAt,
    // The period it paid for: what the perpetual fallback counts (decision 0066).
    period_start: txn.billing_period ? new Date(txn.billing_period.starts_at) : null,
    period_end: txn.billing_period ? new Date(txn.billing_period.ends_at) : null,
    ...discountOf(txn),
  };

  // An extension is a one-time transaction (no subscription) that the server itself created.
  if (custom.extension && !txn.subscription_id) return applyExtensionPayment(tx, txn, payment);

  if (!txn.subscription_id || !txn.billing_period) {
    log.warn(
      { transaction: txn.id },
      "transaction.completed without a subscription or billing period: nothing to apply",
    );
    return [];
  }
  // The price paid decides the plan; custom data only when the price is not one of ours.
  const planType: PlanId | null = planForPriceId(txn.items[0]?.price.id ?? "") ?? custom.planType;
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, custom.userId));
  if (!user) {
    log.warn({ transaction: txn.id, userId: custom.userId }, "transaction.completed for a user that does not exist");
    return [];
  }
  // The trial is granted only through a trial checkout the server created for a first-time buyer
  // (decided, under a lock, when the checkout was created). A trial price arriving any other way
  // is recorded, flagged, and makes a regular license.
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.transaction_id, txn.id)).for("update");
  const trialPrice = txn.items.some((item) => item.price.trial_period) || isTrialPriceId(txn.items[0]?.price.id ?? "");
  const isTrial =
    trialPrice &&
    amount === 0 &&
    checkout?.kind === "plan" &&
    checkout.trial &&
    checkout.status !== "superseded" &&
    checkout.user_id === custom.userId;
  if (checkout)
    await tx
      .update(checkouts)
      .set({ status: "completed", updated_at: occurredAt })
      .where(eq(checkouts.id, checkout.id));

  const period: BillingPeriod = {
    subscriptionId: txn.subscription_id,
    start: new Date(txn.billing_period.starts_at),
    end: new Date(txn.billing_period.ends_at),
  };
  const license = await licenseForSubscription(tx, period.subscriptionId);
  if (license) return applyLaterTransaction(tx, period, license, payment, txn, occurredAt, planType);
  if (!planType) {
    log.warn({ transaction: txn.id }, "transaction.completed for an unknown plan: nothing to apply");
    return [];
  }
  // A team checkout the server created for this buyer: the team instead of a license.
  const buyer = { userId: custom.userId, email: user.email, planType, teamName: custom.teamName };
  // The checkout's quote of every plan in its currency (decision 0072): the site's checkout of this buyer only.
  const ownQuote = checkout?.user_id === custom.userId ? checkout.quoted_prices : null;
  if (checkout?.kind === "team" && checkout.user_id === custom.userId)
    return applyTeamPurchase(tx, period, buyer, payment, txn);
  return applyPurchase(
    tx,
    period,
    { ...buyer, isTrial, trialPrice, checkoutFound: Boolean(checkout), quotedPrices: ownQuote },
    payment,
  );
}

/** A later transaction of a known subscription: a renewal, or a team's seat change. */
async function applyLaterTransaction(
  tx: Transaction,
  period: BillingPeriod,
  license: License,
  payment: PaymentFacts,
  txn: PaddleTransaction,
  occurredAt: Date,
  paidPlan: PlanId | null,
): Promise<FollowUp[]> {
  // Paid: a payment problem of the subscription is over (decision 0023).
  await applyPaymentEvent(tx, license, { kind: "settled", at: occurredAt });
  // A transaction billing another plan than the license's: a plan switch (decisions 0061, 0074).
  const switchTo = switchedPlan(license, paidPlan);
  if (license.team_role === "billing") return applyTeamTransaction(tx, period, license, payment, txn, switchTo);
  return applyRenewal(
    tx,
    period,
    license,
    payment,
    switchTo && { to: switchTo, update: txn.origin === "subscription_update" },
  );
}
