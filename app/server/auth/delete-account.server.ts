import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { getDb } from "../db/db.server";
import {
  accounts,
  audit_log,
  checkouts,
  licenses,
  profiles,
  sessions,
  teams,
  twoFactors,
  user_roles,
  users,
  verifications,
  user_events,
} from "../db/schema";
import type { SubscriptionToCancel } from "~/domain/account-views";
import { licenseTypeLabel } from "~/domain/plans";
import { teamSubscriptionName } from "~/domain/account-texts";
import { leaveTeamsOnDeletion, otherSeatedMembers } from "../teams/team-account-deletion.server";
import type { CancelledSubscription } from "~/emails/account-notices.server";
import { notifyAccountDeleted } from "./notify-account-owner.server";
import { announceSessionChange } from "../cache/caches.server";

export class SubscriptionCancelError extends Error {}

/** The user's subscriptions that still renew: what deleting the account cancels. */
async function renewingLicenses(userId: string) {
  return getDb()
    .select({
      id: licenses.id,
      subscriptionId: licenses.paddle_subscription_id,
      shortId: licenses.short_id,
      type: licenses.license_type,
      endDate: licenses.end_date,
      // A team's subscription (decision 0049): named by its team, whose members keep their seats until it ends.
      teamId: teams.id,
      teamName: teams.name,
    })
    .from(licenses)
    .leftJoin(teams, and(eq(teams.id, licenses.team_id), eq(licenses.team_role, "billing")))
    .where(
      and(
        eq(licenses.user_id, userId),
        isNotNull(licenses.paddle_subscription_id),
        eq(licenses.auto_renew, true),
        eq(licenses.cancellation_requested, false),
        inArray(licenses.status, ["active"]),
      ),
    )
    .orderBy(licenses.end_date, licenses.short_id);
}

/** "Monthly", or "Monthly team subscription for Acme": how the deletion page and e-mail name it. */
const subscriptionName = (license: { type: string; teamName: string | null }) =>
  license.teamName
    ? teamSubscriptionName(licenseTypeLabel(license.type), license.teamName)
    : licenseTypeLabel(license.type);

/**
 * What the profile lists before the person confirms the deletion (decision 0026): plan, short id, renewal
 * date; for a team's subscription, the team and how many members keep their seats until it ends.
 */
export async function subscriptionsToCancel(userId: string): Promise<SubscriptionToCancel[]> {
  const listed: SubscriptionToCancel[] = [];
  for (const license of await renewingLicenses(userId)) {
    listed.push({
      planName: subscriptionName(license),
      shortId: license.shortId,
      renewsOn: license.endDate.toISOString(),
      ...(license.teamId ? { teamMembers: await otherSeatedMembers(license.teamId, userId) } : {}),
    });
  }
  return listed;
}

/**
 * Cancels the user's renewing subscriptions with the provider and returns them (for the
 * confirmation e-mail); throws SubscriptionCancelError if one fails.
 */
async function cancelRenewals(userId: string): Promise<CancelledSubscription[]> {
  const db = getDb();
  const cancelled: CancelledSubscription[] = [];
  for (const license of await renewingLicenses(userId)) {
    try {
      await getPaymentProvider().cancelAtPeriodEnd(license.subscriptionId!);
    } catch (error) {
      throw new SubscriptionCancelError("could not cancel a subscription", { cause: error });
    }
    await db
      .update(licenses)
      .set({ auto_renew: false, cancellation_requested: true, cancellation_requested_at: new Date() })
      .where(eq(licenses.id, license.id));
    cancelled.push({ planName: subscriptionName(license), shortId: license.shortId });
  }
  return cancelled;
}

/** Removes the person's sign-in methods and personal data; keeps what accounting needs, anonymised. */
async function eraseAccount(userId: string): Promise<void> {
  const anonymousEmail = `deleted-${userId}@deleted.invalid`;
  await getDb().transaction(async (tx) => {
    // Their seats are freed; the teams they own take nobody new (decision 0049).
    await leaveTeamsOnDeletion(tx, userId);
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(accounts).where(eq(accounts.userId, userId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
    await tx.delete(verifications).where(eq(verifications.value, String(userId)));
    await tx.delete(checkouts).where(and(eq(checkouts.user_id, userId), sql`${checkouts.license_id} is null`));
    await tx
      .update(users)
      .set({
        email: anonymousEmail,
        name: "Deleted user",
        image: null,
        emailVerified: false,
        twoFactorEnabled: false,
        deletedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    await tx
      .update(profiles)
      .set({
        full_name: "Deleted user",
        company_name: null,
        billing_name: null,
        billing_address: null,
        billing_tax_id: null,
      })
      .where(eq(profiles.id, userId));
    await tx.update(user_roles).set({ role: "user" }).where(eq(user_roles.user_id, userId));
    await tx
      .update(licenses)
      .set({ email: anonymousEmail, windows_username: null, computer_name: null })
      .where(eq(licenses.user_id, userId));
    await tx.update(audit_log).set({ actor_email: anonymousEmail }).where(eq(audit_log.actor_id, userId));
    // The timeline (sign-ins, e-mails sent, addresses) is personal data: erased last, after the
    // changes above have written theirs.
    await tx.delete(user_events).where(eq(user_events.user_id, userId));
  });
}

/**
 * Deletes the account: active subscriptions are cancelled with the provider first (nothing else
 * changes when that fails); then, in one transaction, sign-in methods, sessions, two-factor,
 * checkouts and the profile's personal data are removed, and the licenses, payments and audit
 * entries the business must keep stay, detached from the person (e-mail and names replaced).
 * The user row stays as the anchor of what is kept, anonymised and marked deleted. A confirmation
 * naming the cancelled subscriptions goes to the old address.
 */
export async function deleteAccount(userId: string): Promise<void> {
  const [user] = await getDb()
    .select({ email: users.email, full_name: profiles.full_name, name: users.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  if (!user) return;
  const cancelled = await cancelRenewals(userId);
  await eraseAccount(userId);
  // Its sessions are gone: no app server may keep answering for them from memory.
  await announceSessionChange(userId);
  notifyAccountDeleted(user.email, user.full_name || user.name, cancelled);
}
