import { eq } from "drizzle-orm";
import { refundEligibleUntil, type PlanId } from "~/domain/plans";
import { defaultTeamName } from "~/domain/team-invitations";
import { renewSeats } from "~/domain/team-seats";
import type { Transaction } from "../db/client.server";
import { licenses, payments, team_members, teams, type License } from "../db/schema";
import { applyRenewal } from "../billing/apply-renewal.server";
import type { PaddleTransaction } from "../billing/paddle-events.server";
import type { FollowUp } from "../billing/payment-provider.server";
import { licenseForSubscription, resyncSubscription } from "../billing/sync-subscription.server";
import { newKey, type BillingPeriod, type PaymentFacts } from "../billing/transaction-facts.server";
import { teamOwnerNames } from "./owner-names.server";
import { refreshSeatKeys } from "./seat-license.server";
import { queueTeamEnded } from "./team-ended.server";

/** The seat count a transaction bills (its first item's quantity). */
const quantityOf = (txn: PaddleTransaction) => Math.min(100, Math.max(1, Math.trunc(txn.items[0]?.quantity ?? 1)));

/**
 * A team checkout's first transaction: the team (buyer = owner and billing contact), the
 * subscription's license (team_role "billing": it carries the subscription's state, payments and
 * refunds; its key opens nothing), the owner's membership and the payment. No personal license.
 */
export async function applyTeamPurchase(
  tx: Transaction,
  period: BillingPeriod,
  buyer: { userId: string; email: string; planType: PlanId; teamName: string | null },
  payment: PaymentFacts,
  txn: PaddleTransaction,
): Promise<FollowUp[]> {
  const seats = quantityOf(txn);
  // The checkout named it (custom data); the owner's names only when it did not.
  const name = buyer.teamName?.trim()
    ? defaultTeamName(buyer.teamName, { email: buyer.email })
    : defaultTeamName(null, await teamOwnerNames(tx, buyer.userId, buyer.email));
  const [created] = await tx
    .insert(teams)
    .values({
      name,
      owner_id: buyer.userId,
      plan_type: buyer.planType,
      subscription_id: period.subscriptionId,
      price_id: txn.items[0]?.price.id ?? null,
      seats_paid: Math.max(seats, 1),
    })
    .onConflictDoNothing()
    .returning();
  if (!created) return [];
  const base = { email: buyer.email, windows_username: null, computer_name: null, start_date: period.start };
  const [billing] = await tx
    .insert(licenses)
    .values({
      user_id: buyer.userId,
      ...base,
      license_key: newKey(base, period.end),
      license_type: buyer.planType,
      status: "active",
      end_date: period.end,
      auto_renew: true,
      paddle_subscription_id: period.subscriptionId,
      purchase_date: payment.billed_at,
      refund_eligible_until: refundEligibleUntil(payment.billed_at),
      team_id: created.id,
      team_role: "billing",
    })
    .returning();
  await tx.insert(team_members).values({ team_id: created.id, user_id: buyer.userId, role: "owner" });
  await resyncSubscription(tx, period.subscriptionId);
  await tx.insert(payments).values({ ...payment, license_id: billing!.id, kind: "purchase" });
  return [];
}

/**
 * A later transaction of a team's subscription: a seat update (origin subscription_update) is the
 * prorated charge for added seats, recorded as a "seats" payment; anything else is the renewal, which
 * moves the subscription license on (and with it every seat), brings a scheduled reduction into
 * effect and gives the seats keys for the new period. A transaction billing another plan is the
 * owner's plan change (decision 0074): an upgrade's own charge (origin subscription_update) or the
 * renewal that first bills a shorter plan; the subscription license takes the plan (its seats follow,
 * the trigger of seat-follow.server.ts) and the team's plan and price with it.
 */
export async function applyTeamTransaction(
  tx: Transaction,
  period: BillingPeriod,
  billing: License,
  payment: PaymentFacts,
  txn: PaddleTransaction,
  switchTo: PlanId | null = null,
): Promise<FollowUp[]> {
  const [team] = await tx.select().from(teams).where(eq(teams.id, billing.team_id!)).for("update");
  if (!team) return applyRenewal(tx, period, billing, payment);
  const seats = quantityOf(txn);
  const update = txn.origin === "subscription_update";
  if (update && !switchTo) {
    await tx.insert(payments).values({ ...payment, license_id: billing.id, kind: "seats" });
    if (seats > team.seats_paid)
      await tx
        .update(teams)
        .set({ seats_paid: seats, seats_next_renewal: null, updated_at: new Date() })
        .where(eq(teams.id, team.id));
    return [];
  }
  const endBefore = billing.end_date.getTime();
  const followUps = await applyRenewal(tx, period, billing, payment, switchTo && { to: switchTo, update });
  const renewed = update
    ? { paid: team.seats_paid }
    : renewSeats({ paid: team.seats_paid, assigned: 0, pending: 0, nextRenewal: team.seats_next_renewal });
  const plan = switchTo ? { plan_type: switchTo, price_id: txn.items[0]?.price.id ?? team.price_id } : {};
  await tx
    .update(teams)
    .set({
      ...plan,
      seats_paid: Math.max(renewed.paid, 1),
      ...(update ? {} : { seats_next_renewal: null }),
      updated_at: new Date(),
    })
    .where(eq(teams.id, team.id));
  const [after] = await tx.select({ end: licenses.end_date }).from(licenses).where(eq(licenses.id, billing.id));
  if (after && after.end.getTime() !== endBefore) await refreshSeatKeys(tx, team.id);
  return followUps;
}

/**
 * After a provider event was applied: when it ended a team's subscription (cancelled at its period's
 * end or by the provider after failed payments, or refunded), every member with a seat is told, by
 * durable e-mails queued in the event's transaction (team-ended.server.ts). Seat states already
 * followed (a trigger).
 */
export async function afterTeamEvent(
  tx: Transaction,
  event: { event_type: string; data: { id: string; status?: string; action?: string; transaction_id?: string } },
): Promise<void> {
  let license: License | undefined;
  let reason: "cancelled" | "refunded" | null = null;
  if (event.event_type === "subscription.canceled") {
    license = await licenseForSubscription(tx, event.data.id);
    reason = "cancelled";
  } else if (
    event.event_type.startsWith("adjustment.") &&
    event.data.action === "refund" &&
    event.data.status === "approved"
  ) {
    const [paid] = await tx
      .select({ license: licenses })
      .from(payments)
      .innerJoin(licenses, eq(licenses.id, payments.license_id))
      .where(eq(payments.id, event.data.transaction_id ?? ""));
    license = paid?.license;
    reason = license?.status === "refunded" ? "refunded" : null;
  }
  if (!license || !reason || license.team_role !== "billing" || !license.team_id) return;
  await queueTeamEnded(tx, license.team_id, reason);
}
