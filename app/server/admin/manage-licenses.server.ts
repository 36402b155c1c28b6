import { and, desc, eq } from "drizzle-orm";
import { ADMIN_ERRORS } from "~/domain/admin";
import { canCancelRenewal, licenseFacts } from "~/domain/license-status";
import { enqueueStopRenewal } from "../jobs/stop-renewal.server";
import { getDb } from "../db/db.server";
import { licenses, profiles, users } from "../db/schema";
import { licenseKeys } from "../license-keys/keys.server";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { queueCustomerMail } from "../mail/customer-mail.server";

const DAY = 24 * 60 * 60 * 1000;

/** A user chosen in the admin search: who they are. */
export async function getUserSummary(userId: string) {
  if (!isUuid(userId)) return null;
  const [row] = await getDb()
    .select({ id: users.id, email: users.email, full_name: profiles.full_name, company_name: profiles.company_name })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return row ?? null;
}

/**
 * Revoke (spec.md section 4 "Admin revoke"): only an active license; recorded in the audit log.
 * A revoked license must not be charged again: its subscription's renewal is stopped too, by a
 * stop-renewal job queued in the revoke's transaction (retried until the provider agrees).
 */
export async function revokeLicense({ admin, licenseId }: { admin: AuditActor; licenseId: string }): Promise<void> {
  if (!isUuid(licenseId)) throw new ActionError(404, "License not found");
  await getDb().transaction(async (tx) => {
    const [license] = await tx.select().from(licenses).where(eq(licenses.id, licenseId)).for("update");
    if (!license) throw new ActionError(404, "License not found");
    if (license.status !== "active") throw new ActionError(409, "Only active licenses can be revoked.");
    await tx
      .update(licenses)
      .set({ status: "revoked" })
      .where(and(eq(licenses.id, licenseId), eq(licenses.status, "active")));
    await recordAudit(tx, admin, {
      action: "license.revoke",
      target_type: "license",
      target_id: licenseId,
      details: { user_id: license.user_id, email: license.email, license_type: license.license_type },
    });
    await queueCustomerMail(tx, { kind: "license-revoked", licenseId, key: "revoke" });
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
 * else the account e-mail (spec.md: get-user-email); a fresh key; recorded in the audit log.
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
      .returning({ id: licenses.id });
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
