import { addMonths } from "~/domain/extension";
import { getPlan, isPlanId, refundAmountCents } from "~/domain/plans";
import { demoId, demoShapes } from "./billing/demo/demo-shapes.server";
import { configuredPriceIds } from "./billing/price-ids.server";
import type { Transaction } from "./db/client.server";
import { eq } from "drizzle-orm";
import { demo_billing, licenses, payments, type License } from "./db/schema";

/**
 * What the demo provider would hold for a seeded license bought through it: the subscription
 * (in the state the license shows), the purchase transaction and its payment, and the refund
 * adjustment of a refund-requested or refunded license. So cancel, re-enable, refund and
 * renewal work on the seeded licenses as on bought ones.
 */
export async function seedDemoBilling(tx: Transaction, license: License): Promise<void> {
  const subscriptionId = license.paddle_subscription_id;
  if (!subscriptionId || !isPlanId(license.license_type) || !license.purchase_date) return;
  const planId = license.license_type;
  const priceId = configuredPriceIds().regular[planId];
  const period = { starts_at: license.start_date.toISOString(), ends_at: license.end_date.toISOString() };
  const live = license.status === "active" || license.status === "refund_requested";
  const ended = !live || license.end_date <= new Date();
  const sub = demoShapes.subscription({
    id: subscriptionId,
    userId: license.user_id,
    planId,
    priceId,
    trial: false,
    start: license.start_date,
  });
  Object.assign(sub, {
    status: ended ? "canceled" : "active",
    current_billing_period: ended ? null : period,
    next_billed_at: ended || license.cancellation_requested ? null : period.ends_at,
    canceled_at: ended ? period.ends_at : null,
    scheduled_change: license.cancellation_requested
      ? { action: "cancel", effective_at: period.ends_at, resume_at: null }
      : null,
  });
  const txn = demoShapes.transaction({
    subscriptionId,
    customData: { user_id: license.user_id, plan_type: planId },
    priceId,
    months: null,
    amountCents: getPlan(planId).priceCents,
    period,
    origin: "web",
    at: license.purchase_date,
  });
  await tx.insert(demo_billing).values([
    { id: sub.id, kind: "subscription", subscription_id: sub.id, data: sub },
    { id: txn.id, kind: "transaction", subscription_id: sub.id, data: txn },
  ]);
  await tx.insert(payments).values({
    id: txn.id,
    license_id: license.id,
    user_id: license.user_id,
    kind: "purchase",
    subscription_id: sub.id,
    customer_id: txn.customer_id ?? null,
    item_id: txn.details.line_items[0]!.id,
    amount_cents: getPlan(planId).priceCents,
    billed_at: license.purchase_date,
    // The plan's months from the start: what the perpetual fallback counts (decision 0066).
    period_start: license.start_date,
    period_end: addMonths(license.start_date, getPlan(planId).months),
    refunded_cents: license.refunded ? (license.refund_amount ?? refundAmountCents(planId)) : 0,
  });
  // The card the demo transaction names (record-payment-method.server.ts), as a webhook would keep it.
  await tx
    .update(licenses)
    .set({ payment_card_brand: "visa", payment_card_last4: "4242", payment_card_at: license.purchase_date })
    .where(eq(licenses.id, license.id));
  if (license.status === "refund_requested" || license.refunded) {
    const amount = license.refund_amount ?? refundAmountCents(planId);
    const adjustment = {
      id: demoId("adj"),
      action: "refund",
      type: "partial",
      transaction_id: txn.id,
      subscription_id: sub.id,
      status: license.refunded ? "approved" : "pending_approval",
      totals: { subtotal: String(amount), tax: "0", total: String(amount), currency_code: "USD" },
      created_at: license.purchase_date.toISOString(),
    };
    await tx
      .insert(demo_billing)
      .values({ id: adjustment.id, kind: "adjustment", subscription_id: sub.id, data: adjustment });
  }
}
