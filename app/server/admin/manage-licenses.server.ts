import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { ADMIN_ERRORS } from "~/domain/admin";
import { canCancelRenewal, licenseFacts } from "~/domain/license-status";
import { auditLicenseState } from "~/domain/license-state";
import { enqueueStopRenewal } from "../jobs/enqueue-stop-renewal.server";
import { getDb } from "../db/db.server";
import { licenses, users } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { queueTeamEnded } from "../teams/team-ended.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import { stateFactsOf } from "../teams/renewal-seats.server";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Revoke (docs/product.md, "Administration"): only an active license; recorded in the audit log.
 * A revoked license must not be charged again: its subscription's renewal is stopped too, by a
 * stop-renewal job queued in the revoke's transaction (retried until the provider agrees).
 */
export async function revokeLicense({
  admin,
  licenseId,
  reason,
  userId,
}: {
  admin: AuditActor;
  licenseId: string;
  /** Why, kept in the audit entry (the admin page requires one, see parseRevokeReason). */
  reason?: string;
  /** The user whose page the admin acted on: the license must be theirs. */
  userId?: string;
}): Promise<void> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  await getDb().transaction(async (tx) => {
    const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!license || (userId !== undefined && license.user_id !== userId)) {
      throw new ActionError(404, "License not found");
    }
    if (license.status !== "active") throw new ActionError(409, "Only active licenses can be revoked.");
    await tx
      .update(licenses)
      .set({ status: "revoked" })
      .where(and(eq(licenses.id, licenseId), eq(licenses.status, "active")));
    await recordAudit(tx, admin, {
      action: "license.revoke",
      target_type: "license",
      target_id: licenseId,
      details: {
        user_id: license.user_id,
        short_id: license.short_id,
        email: license.email,
        license_type: license.license_type,
        ...auditLicenseState(await stateFactsOf(tx, license), new Date()),
        ...(reason ? { reason } : {}),
      },
    });
    await recordEvent(
      tx,
      "license.revoked",
      licenseEvent({ ...license, status: "revoked" }, { reason: reason ?? null }),
    );
    await queueCustomerMail(tx, { kind: "license-revoked", licenseId, key: "revoke" });
    // A team's subscription revoked: every seat follows (a trigger) and its members are told.
    if (license.team_role === "billing" && license.team_id) await queueTeamEnded(tx, license.team_id, "revoked");
    if (canCancelRenewal(licenseFacts(license)) && license.paddle_subscription_id) {
      await enqueueStopRenewal(
        tx,
        { licenseId, subscriptionId: license.paddle_subscription_id, record: true },
        `revoke:${licenseId}`,
      );
    }
  });
}

/**
 * A tester license for `days` days from now: its e-mail is the user's existing license e-mail,
 * else the account e-mail (the one the user chose for it); a fresh key; recorded in the audit log.
 */
export async function addTesterLicense({
  admin,
  userId,
  days,
  now = new Date(),
}: {
  admin: AuditActor;
  userId: string;
  days: number;
  now?: Date;
}) {
  if (!isUuid(userId)) throw new ActionError(404, "User not found");
  return getDb().transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new ActionError(404, "User not found");
    const [existing] = await tx
      .select({ email: licenses.email })
      .from(licenses)
      .where(eq(licenses.user_id, userId))
      .orderBy(desc(licenses.created_at))
      .limit(1);
    const email = existing?.email || user.email;
    if (!email) throw new ActionError(422, ADMIN_ERRORS.noEmail);
    const start_date = now;
    const end_date = new Date(now.getTime() + days * DAY);
    const [license] = await tx
      .insert(licenses)
      .values({
        user_id: userId,
        email,
        license_key: licenseKeys().generate({ email, start_date, end_date }),
        license_type: "tester",
        status: "active",
        start_date,
        end_date,
      })
      .returning();
    await recordEvent(tx, "license.created", licenseEvent(license!, { tester_days: days }));
    await recordAudit(tx, admin, {
      action: "license.add_tester",
      target_type: "license",
      target_id: license!.id,
      details: { user_id: userId, email, days },
    });
    await queueCustomerMail(tx, { kind: "license-delivered", licenseId: license!.id, key: "tester" });
    return { id: license!.id, email, end_date };
  });
}

/**
 * Support's reset of a license's offline data ("I typed the wrong computer name"): the Windows
 * user name and computer name are cleared and the key is regenerated without them, so the owner
 * can bind the license to the right computer once more. Only for an active, unrefunded license
 * with offline data; conditional and recorded in the audit log with the old values.
 */
export async function resetOfflineData({
  admin,
  licenseId,
  userId,
}: {
  admin: AuditActor;
  licenseId: string;
  userId: string;
}): Promise<void> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  await getDb().transaction(async (tx) => {
    const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!license || license.user_id !== userId) throw new ActionError(404, "License not found");
    if (license.windows_username === null && license.computer_name === null) {
      throw new ActionError(409, "This license has no offline data to reset.");
    }
    if (license.status !== "active" || license.refunded) {
      throw new ActionError(409, "Only an active license's offline data can be reset.");
    }
    const license_key = licenseKeys().generate({
      email: license.email,
      start_date: license.start_date,
      end_date: license.end_date,
    });
    // The row is locked (for update) since it was read: nothing changed it in between.
    await tx
      .update(licenses)
      .set({ windows_username: null, computer_name: null, license_key })
      .where(eq(licenses.id, licenseId));
    await recordAudit(tx, admin, {
      action: "license.offline_reset",
      target_type: "license",
      target_id: licenseId,
      details: {
        user_id: license.user_id,
        short_id: license.short_id,
        windows_username: license.windows_username,
        computer_name: license.computer_name,
        key_regenerated: true,
      },
    });
  });
}

/**
 * Support's "resend the license e-mail": the customer's license-delivered e-mail (key and short id)
 * is queued again, in the same transaction as its audit entry, for an active, unrefunded license.
 * Each resend is its own occasion (a fresh key), so it is never swallowed as a duplicate.
 */
export async function resendLicenseEmail({
  admin,
  licenseId,
  userId,
}: {
  admin: AuditActor;
  licenseId: string;
  userId: string;
}): Promise<{ email: string }> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  return getDb().transaction(async (tx) => {
    const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!license || license.user_id !== userId) throw new ActionError(404, "License not found");
    if (license.status !== "active" || license.refunded) {
      throw new ActionError(409, "Only an active license's e-mail can be resent.");
    }
    await queueCustomerMail(tx, { kind: "license-delivered", licenseId, key: `admin-resend:${randomUUID()}` });
    await recordAudit(tx, admin, {
      action: "license.resend",
      target_type: "license",
      target_id: licenseId,
      details: { user_id: license.user_id, short_id: license.short_id, email: license.email },
    });
    return { email: license.email };
  });
}
