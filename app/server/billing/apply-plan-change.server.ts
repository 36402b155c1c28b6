import { eq } from "drizzle-orm";
import { isPlanId, type PlanId } from "~/domain/plans";
import { recordUserEvent } from "../audit/user-events.server";
import type { Transaction } from "../db/client.server";
import { licenses, type License } from "../db/schema";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import { paymentData, type PaymentFacts } from "./transaction-facts.server";

/**
 * A plan switch arriving from the provider (decision 0061). The license takes the plan its
 * subscription's transaction paid for: an upgrade's prorated charge (origin subscription_update)
 * at once, a switch to a shorter plan with the renewal that first bills it. Either way the license
 * is a new plan from that payment on: the vendor's systems hear `license.plan_changed`, the
 * customer's timeline records it, a waiting switch is done.
 */

/**
 * The plan a later transaction of a personal license, or of a team's subscription (decision 0074),
 * switches it to; null when it keeps its plan. A seat has no transactions: it follows its team's.
 */
export function switchedPlan(license: License, paidPlan: PlanId | null): PlanId | null {
  if (license.team_role === "seat" || !paidPlan || !isPlanId(license.license_type)) return null;
  return paidPlan === license.license_type ? null : paidPlan;
}

/** Moves the license to its new plan, in the transaction applying the payment that bills it. */
export async function applyPlanChange(
  tx: Transaction,
  license: License,
  to: PlanId,
  payment: PaymentFacts,
  changed: Partial<License>,
): Promise<void> {
  const from = license.license_type;
  const changes: Partial<License> = { license_type: to, plan_next_renewal: null };
  await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
  await recordEvent(
    tx,
    "license.plan_changed",
    licenseEvent(
      { ...license, ...changed, ...changes },
      { previous_plan: from, plan: to, payment: paymentData(payment), previous_end_date: license.end_date },
    ),
    { key: `plan_changed:${payment.id}` },
  );
  await recordUserEvent(tx, license.user_id, "license.plan_changed", {
    license_id: license.id,
    short_id: license.short_id,
    from,
    to,
    transaction_id: payment.id,
  });
}
