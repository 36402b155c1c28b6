import { and, eq, gt, inArray, ne } from "drizzle-orm";
import { addMonths, extendedEndDate } from "~/domain/extension";
import { isPlanId, refundEligibleUntil, type PlanId } from "~/domain/plans";
import { isUuid } from "../action-error.server";
import { recordAudit, WEBHOOK_ACTOR } from "../audit/audit.server";
import type { Transaction } from "../db/client.server";
import { checkouts, licenses, payments, users, type License } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { getLogger } from "../logger.server";
import { applyPaymentEvent } from "./apply-payment-problem.server";
import type { PaddleTransaction } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { isTrialPriceId, planForPriceId } from "./price-ids.server";
import { licenseForSubscription, resyncSubscription } from "./sync-subscription.server";

/**
 * A verified transaction.completed: a purchase creates the license, a renewal moves it on, an
 * extension adds the months of the server's own extension checkout. Payments are facts keyed by
 * transaction id, so a transaction is applied once whatever the event ids.
 */

/** What the checkout (or the server, for extensions) put in custom_data. */
function readCustomData(data: Record<string, unknown> | null | undefined) {
  const userId = isUuid(data?.user_id) ? data.user_id : null;
  const planType = isPlanId(data?.plan_type) ? data.plan_type : null;
  // Which license and how many months come from the checkout the server recorded, never from here.
  const extension = data?.kind === "extension";
  return { userId, planType, extension };
}

function newKey(
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
type PaymentFacts = Omit<typeof payments.$inferInsert, "license_id" | "kind"> & {
  amount_cents: number;
  billed_at: Date;
  user_id: string;
};

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
    billed_at: billedAt,
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
  if (license) {
    // Paid: a payment problem of the subscription is over (decision 0023).
    await applyPaymentEvent(tx, license, { kind: "settled", at: occurredAt });
    return applyRenewal(tx, period, license, payment);
  }
  if (!planType) {
    log.warn({ transaction: txn.id }, "transaction.completed for an unknown plan: nothing to apply");
    return [];
  }
  return applyPurchase(
    tx,
    period,
    { userId: custom.userId, email: user.email, planType, isTrial, trialPrice, checkoutFound: Boolean(checkout) },
    payment,
  );
}

/** The subscription and billing period a transaction paid for. */
interface BillingPeriod {
  subscriptionId: string;
  start: Date;
  end: Date;
}

/** The first transaction of a new subscription: the license, its key, and any earlier subscription state. */
async function applyPurchase(
  tx: Transaction,
  period: BillingPeriod,
  buyer: {
    userId: string;
    email: string;
    planType: PlanId;
    isTrial: boolean;
    trialPrice: boolean;
    checkoutFound: boolean;
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
  if (inserted[0]) {
    await queueCustomerMail(tx, {
      kind: "license-delivered",
      licenseId: license.id,
      key: payment.id,
      details: { amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
    });
  }
  return [];
}

/** A later transaction of a known subscription: the license runs to the new period's end. */
async function applyRenewal(
  tx: Transaction,
  period: BillingPeriod,
  license: License,
  payment: PaymentFacts,
): Promise<FollowUp[]> {
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind: "renewal" });
  if (
    license.status === "revoked" ||
    license.status === "refunded" ||
    license.status === "refund_requested" ||
    license.refunded
  ) {
    // Charged although revoked or refunded: the earlier stop did not reach the provider. The
    // payment is recorded, the license kept as it is, and the provider asked again to stop.
    getLogger().warn(
      { transaction: payment.id, licenseId: license.id },
      "renewal charged for a revoked or refunded license",
    );
    return [
      { kind: "stop-renewal", licenseId: license.id, subscriptionId: period.subscriptionId, occasion: payment.id },
    ];
  }
  // The new period's end (plus any extension); never backwards.
  const end_date = addMonths(period.end, license.extended_months);
  const changes: Partial<License> = {};
  if (end_date > license.end_date) Object.assign(changes, { end_date, license_key: newKey(license, end_date) });
  if (payment.amount_cents > 0) {
    const [earlierPaid] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.license_id, license.id),
          gt(payments.amount_cents, 0),
          inArray(payments.kind, ["purchase", "renewal"]),
          ne(payments.id, payment.id),
        ),
      )
      .limit(1);
    // The first paid period after a trial is the purchase that the refund window counts from.
    if (!earlierPaid) {
      Object.assign(changes, {
        is_trial: false,
        purchase_date: payment.billed_at,
        refund_eligible_until: refundEligibleUntil(payment.billed_at),
      });
    }
  }
  if (Object.keys(changes).length > 0) await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
  if (changes.end_date) {
    await queueCustomerMail(tx, {
      kind: "renewed",
      licenseId: license.id,
      key: payment.id,
      details: { amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
    });
  }
  return [];
}

/** An extension payment: applied only when its transaction is the extension checkout the server created. */
async function applyExtensionPayment(
  tx: Transaction,
  txn: PaddleTransaction,
  payment: PaymentFacts,
): Promise<FollowUp[]> {
  const log = getLogger();
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.transaction_id, txn.id)).for("update");
  const currency = txn.details.totals.currency_code;
  if (
    !checkout ||
    checkout.kind !== "extension" ||
    checkout.status === "completed" ||
    checkout.user_id !== payment.user_id ||
    !checkout.license_id ||
    currency !== checkout.currency ||
    payment.amount_cents < checkout.amount_cents
  ) {
    log.warn(
      { transaction: txn.id, amount: payment.amount_cents, currency },
      "extension payment does not match a checkout the site created: not applied",
    );
    await flagAudit(tx, "extension_refused", txn.id, {
      transaction: txn.id,
      user_id: payment.user_id,
      amount_cents: payment.amount_cents,
      currency,
    });
    return [];
  }
  const [license] = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, checkout.license_id), eq(licenses.user_id, checkout.user_id)))
    .for("update");
  if (!license) {
    log.warn(
      { transaction: txn.id, licenseId: checkout.license_id },
      "extension paid for a license that does not exist",
    );
    return [];
  }
  const end_date = extendedEndDate(license.end_date, payment.billed_at, checkout.months);
  await tx
    .update(licenses)
    // A paid extension makes a trial a paid license.
    .set({
      end_date,
      extended_months: license.extended_months + checkout.months,
      is_trial: false,
      license_key: newKey(license, end_date),
    })
    .where(eq(licenses.id, license.id));
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind: "extension" });
  await tx
    .update(checkouts)
    .set({ status: "completed", updated_at: payment.billed_at })
    .where(eq(checkouts.id, checkout.id));
  await queueCustomerMail(tx, {
    kind: "extended",
    licenseId: license.id,
    key: payment.id,
    details: { months: checkout.months, amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
  });
  return [];
}

/** An audit entry by the payment provider's webhook (no person acted): something to look at. */
async function flagAudit(
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
