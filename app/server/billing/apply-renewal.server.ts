import { and, eq, gt, inArray, ne } from "drizzle-orm";
import { addMonths } from "~/domain/extension";
import { refundEligibleUntil, type PlanId } from "~/domain/plans";
import { applyPlanChange } from "./apply-plan-change.server";
import type { Transaction } from "../db/client.server";
import { licenses, payments, type License } from "../db/schema";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { FollowUp } from "./payment-provider.server";
import { recomputeFallback } from "../licenses/fallback.server";
import { newKey, paymentData, type BillingPeriod, type PaymentFacts } from "./transaction-facts.server";

/** A later transaction of a known subscription: the license runs to the new period's end. */
export async function applyRenewal(
  tx: Transaction,
  period: BillingPeriod,
  license: License,
  payment: PaymentFacts,
  /** The plan the transaction switches the license to, and whether it is the switch's own charge. */
  planSwitch: { to: PlanId; update: boolean } | null = null,
): Promise<FollowUp[]> {
  const kind = planSwitch?.update ? "plan_change" : "renewal";
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind });
  await recomputeFallback(tx, license.id);
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
  // The cancel step's discount (decision 0065) was for this renewal: the next one is at the full price.
  if (license.renewal_discount_percent !== null && kind === "renewal") changes.renewal_discount_percent = null;
  const firstPaid = await isFirstPaidPeriod(tx, license, payment);
  // The first paid period after a trial is the purchase that the refund window counts from.
  if (firstPaid) {
    Object.assign(changes, {
      is_trial: false,
      purchase_date: payment.billed_at,
      refund_eligible_until: refundEligibleUntil(payment.billed_at),
    });
  }
  if (Object.keys(changes).length > 0) await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
  if (planSwitch) await applyPlanChange(tx, license, planSwitch.to, payment, changes);
  if (changes.end_date && !planSwitch?.update) {
    await recordEvent(
      tx,
      "license.renewed",
      licenseEvent({ ...license, ...changes }, { payment: paymentData(payment), previous_end_date: license.end_date }),
    );
    // After a trial (at its end or by "Start paid plan now") the plan starts; nothing was renewed.
    await queueCustomerMail(tx, {
      kind: firstPaid ? "paid-plan-started" : "renewed",
      licenseId: license.id,
      key: payment.id,
      details: { amountCents: payment.amount_cents, currency: payment.currency ?? undefined },
    });
  }
  return [];
}

/** A charge with no paid purchase or renewal before it: the paid plan starts after a free trial. */
async function isFirstPaidPeriod(tx: Transaction, license: License, payment: PaymentFacts): Promise<boolean> {
  if (payment.amount_cents <= 0) return false;
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
  return !earlierPaid;
}
