import { and, eq, isNull } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { licenses, team_members, type License, type Team } from "../db/schema";
import { REMOVED_FROM_TEAM } from "~/domain/license-card";
import { newKey } from "../billing/transaction-facts.server";

/** The reason a seat license is revoked when its member deleted their account (decision 0049). */
export const ACCOUNT_DELETED = "account deleted";

/** The team's subscription license (team_role "billing"), locked. */
export async function billingLicenseOf(tx: Transaction, teamId: string): Promise<License | undefined> {
  const [row] = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.team_id, teamId), eq(licenses.team_role, "billing")))
    .for("update");
  return row;
}

/**
 * A member's seat: a normal license row (key, offline data, devices, license file work unchanged)
 * owned by the member, linked to the team, in the subscription license's state. Refund, renewal and
 * extension stay with the owner's subscription license, so the seat has no refund window of its own.
 */
export async function issueSeatLicense(
  tx: Transaction,
  team: Team,
  member: { userId: string; email: string },
  now: Date,
): Promise<License> {
  const billing = await billingLicenseOf(tx, team.id);
  if (!billing) throw new Error(`team ${team.id} has no subscription license`);
  const start = now < billing.end_date ? now : billing.end_date;
  const base = { email: member.email, windows_username: null, computer_name: null, start_date: start };
  const [seat] = await tx
    .insert(licenses)
    .values({
      user_id: member.userId,
      ...base,
      license_key: newKey(base, billing.end_date),
      license_type: billing.license_type,
      status: billing.status,
      end_date: billing.end_date,
      is_trial: billing.is_trial,
      trial_starts_at: billing.trial_starts_at,
      trial_ends_at: billing.trial_ends_at,
      auto_renew: billing.auto_renew,
      cancellation_requested: billing.cancellation_requested,
      cancellation_requested_at: billing.cancellation_requested_at,
      past_due_since: billing.past_due_since,
      charged_back_at: billing.charged_back_at,
      refunded: billing.refunded,
      refunded_at: billing.refunded_at,
      purchase_date: billing.purchase_date,
      team_id: team.id,
      team_role: "seat",
    })
    .returning();
  if (!seat) throw new Error("the seat license was not inserted");
  await tx
    .update(team_members)
    .set({ seat_license_id: seat.id })
    .where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, member.userId)));
  return seat;
}

/** Revokes a seat license for good (its member left, was removed or deleted their account); the member row loses its seat. */
export async function revokeSeat(
  tx: Transaction,
  teamId: string,
  licenseId: string,
  reason: string = REMOVED_FROM_TEAM,
): Promise<void> {
  await tx
    .update(licenses)
    .set({ status: "revoked", revoked_reason: reason, auto_renew: false })
    .where(and(eq(licenses.id, licenseId), eq(licenses.team_id, teamId)));
  await tx
    .update(team_members)
    .set({ seat_license_id: null })
    .where(and(eq(team_members.team_id, teamId), eq(team_members.seat_license_id, licenseId)));
}

/**
 * New keys for the team's live seats once the subscription's period moved on (a key names its end
 * date, as a personal license's does on renewal); every earlier key still finds its license.
 */
export async function refreshSeatKeys(tx: Transaction, teamId: string): Promise<void> {
  const seats = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.team_id, teamId), eq(licenses.team_role, "seat"), isNull(licenses.revoked_reason)));
  for (const seat of seats) {
    await tx
      .update(licenses)
      .set({ license_key: newKey(seat, seat.end_date) })
      .where(eq(licenses.id, seat.id));
  }
}
