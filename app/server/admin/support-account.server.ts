import { createEmailVerificationToken } from "better-auth/api";
import { and, eq, ne, sql } from "drizzle-orm";
import { SUPPORT_TEXTS } from "~/domain/admin-support";
import { changeEmailEmail } from "~/emails/account-emails.server";
import { emailChangeNoticeEmail, twoFactorResetEmail } from "~/emails/support-notices.server";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { recordUserEvent } from "../audit/user-events.server";
import { getAuth } from "../auth/auth.server";
import { sendConfirmation } from "../auth/register-user.server";
import { announceSessionChange } from "../cache/caches.server";
import { getDb } from "../db/db.server";
import { twoFactors, user_roles, users } from "../db/schema";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";

/**
 * Support's changes to a customer's account (decision 0038): the e-mail address, a new confirmation
 * link, two-factor reset. Each checks the account, writes the change and its audit entry in one
 * transaction (nothing changes when a check fails), then e-mails the customer.
 */

async function account(userId: string) {
  if (!isUuid(userId)) throw new ActionError(404, SUPPORT_TEXTS.userNotFound);
  const [user] = await getDb()
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      twoFactor: users.twoFactorEnabled,
      role: user_roles.role,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(users.id, userId));
  if (!user || user.deletedAt) throw new ActionError(404, SUPPORT_TEXTS.userNotFound);
  return user;
}

/**
 * Changes the address by the customer's own rules (Better Auth's change-email flow): a confirmed
 * account keeps its address until the link sent to the new one is followed; an unconfirmed one
 * (a typo at registration) takes the new address at once and gets a confirmation link there.
 * Licenses keep the address they were issued to (their keys are built from it); licenses bought
 * afterwards take the account's address. The old address is told.
 */
export async function changeCustomerEmail({
  admin,
  userId,
  newEmail,
  reason,
}: {
  admin: AuditActor;
  userId: string;
  newEmail: string;
  reason: string;
}): Promise<{ immediate: boolean }> {
  const user = await account(userId);
  if (user.email.toLowerCase() === newEmail) throw new ActionError(400, SUPPORT_TEXTS.emailSame);
  const immediate = !user.emailVerified;
  const at = new Date();
  await getDb().transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${newEmail}`, ne(users.id, userId)));
    if (taken) throw new ActionError(409, SUPPORT_TEXTS.emailInUse);
    if (immediate) await tx.update(users).set({ email: newEmail, updatedAt: at }).where(eq(users.id, userId));
    await recordAudit(tx, admin, {
      action: "user.email_change",
      target_type: "user",
      target_id: userId,
      details: { user_id: userId, old_email: user.email, new_email: newEmail, reason, immediate },
    });
  });
  const owner = await recipientOf(userId);
  const name = owner?.name ?? "";
  if (immediate) {
    await announceSessionChange(userId);
    sendConfirmation(newEmail, "/profile");
  } else {
    const context = await getAuth().$context;
    const token = await createEmailVerificationToken(
      context.secret,
      user.email,
      newEmail,
      context.options.emailVerification?.expiresIn,
      {
        requestType: "change-email-verification",
        userId,
      },
    );
    const url = `${context.baseURL}/verify-email?token=${token}&callbackURL=${encodeURIComponent("/profile")}`;
    queueMail(async () => {
      const message = await changeEmailEmail(mailBrand(), newEmail, name, url);
      // The new address is not the account's yet: the timeline names its user here.
      await recordUserEvent(getDb(), userId, "mail.sent", { to: newEmail, subject: message.subject });
      return message;
    }, "change of address confirmation");
  }
  queueMail(
    () => emailChangeNoticeEmail(mailBrand(), user.email, name, { newEmail, at, immediate }),
    "change of address notice",
  );
  return { immediate };
}

/** A new confirmation link for an account that never confirmed its address. */
export async function resendCustomerConfirmation({ admin, userId }: { admin: AuditActor; userId: string }) {
  const user = await account(userId);
  if (user.emailVerified) throw new ActionError(409, SUPPORT_TEXTS.alreadyConfirmed);
  await getDb().transaction((tx) =>
    recordAudit(tx, admin, {
      action: "user.confirmation_resend",
      target_type: "user",
      target_id: userId,
      details: { user_id: userId, email: user.email },
    }),
  );
  sendConfirmation(user.email, "/licenses");
  return { email: user.email };
}

/** Turns two-factor off for a locked-out customer (after identity checks: the reason says which). */
export async function resetCustomerTwoFactor({
  admin,
  userId,
  reason,
}: {
  admin: AuditActor;
  userId: string;
  reason: string;
}) {
  const user = await account(userId);
  if (user.role === "admin") throw new ActionError(409, SUPPORT_TEXTS.twoFactorAdmin);
  if (!user.twoFactor) throw new ActionError(409, SUPPORT_TEXTS.twoFactorOff);
  const at = new Date();
  await getDb().transaction(async (tx) => {
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
    await tx.update(users).set({ twoFactorEnabled: false, updatedAt: at }).where(eq(users.id, userId));
    await recordAudit(tx, admin, {
      action: "user.two_factor_reset",
      target_type: "user",
      target_id: userId,
      details: { user_id: userId, email: user.email, reason },
    });
  });
  await announceSessionChange(userId);
  queueMail(async () => {
    const owner = await recipientOf(userId);
    return owner ? twoFactorResetEmail(mailBrand(), owner.email, owner.name, at) : null;
  }, "two-factor reset notice");
}
