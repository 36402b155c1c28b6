import { verifyPassword } from "better-auth/crypto";
import { and, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { ConnectedAccount, SessionView } from "~/domain/account-views";
import { getDb } from "../db/db.server";
import {
  accounts,
  audit_log,
  checkouts,
  licenses,
  payments,
  profiles,
  sessions,
  twoFactors,
  user_roles,
  users,
  verifications,
} from "../db/schema";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { getEnv } from "../env.server";
import type { MailMessage } from "../mail/mailer.server";
import { queueMail } from "../mail/outbox.server";
import { getAuth } from "./auth.server";
import { authCookies } from "./auth-cookies.server";
import { OAUTH_PROVIDER_NAMES, isOAuthProviderId } from "./oauth-providers.server";
import { currentSessionToken } from "./session.server";
import { announceSessionChange } from "./session-cache.server";

/** How recent a sign-in must be for an account without a password to be deleted. */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;

// ---------------------------------------------------------------- e-mails (plain, our own)

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A short notice as text and HTML, with the product's name and the support address. */
export function accountNotice(to: string, subject: string, paragraphs: string[]): MailMessage {
  const env = getEnv();
  const footer = `${env.PRODUCT_NAME} · ${env.PUBLIC_URL} · ${env.SUPPORT_EMAIL}`;
  return {
    to,
    subject: `${env.PRODUCT_NAME}: ${subject}`,
    text: [...paragraphs, "", footer].join("\n\n"),
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${paragraphs
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join("")}<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p></body></html>`,
  };
}

// ---------------------------------------------------------------- password

/** Whether the account has a password (false for accounts made by a GitHub / Google sign-in). */
export async function hasPassword(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return Boolean(row?.password);
}

/** Checks the account's password (false when wrong or when it has none). */
export async function checkPassword(userId: string, password: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  if (!row?.password) return false;
  return verifyPassword({ hash: row.password, password });
}

/**
 * Changes the password (Better Auth checks the current one), ends every other session and tells
 * the owner by e-mail. Returns the renewed session cookie.
 */
export async function changePassword(
  request: Request,
  user: { email: string; fullName: string },
  currentPassword: string,
  newPassword: string,
): Promise<Headers> {
  const result = await getAuth().api.changePassword({
    body: { currentPassword, newPassword, revokeOtherSessions: true },
    headers: request.headers,
    returnHeaders: true,
  });
  queueMail(
    accountNotice(user.email, "your password was changed", [
      `Hello ${user.fullName},`,
      "The password of your account was just changed, and every other signed-in session was signed out.",
      `If you did not do this, reset your password at ${getEnv().PUBLIC_URL}/forgot-password and contact us at ${getEnv().SUPPORT_EMAIL}.`,
    ]),
    "password change notice",
  );
  return authCookies(result.headers);
}

// ---------------------------------------------------------------- sessions

/** A person's name for a User-Agent: "Firefox on Windows", or "Unknown browser". */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /curl|wget|node|undici|python|Go-http/i.test(ua)
              ? "Script"
              : "Unknown browser";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad|iOS/.test(ua)
        ? "iOS"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}

/** The user's signed-in sessions, newest activity first; the one of this request is marked. */
export async function listSessions(request: Request, userId: string): Promise<SessionView[]> {
  const token = await currentSessionToken(request);
  const rows = await getDb()
    .select({
      id: sessions.id,
      token: sessions.token,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt));
  return rows.map((row) => ({
    id: row.id,
    browser: describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress,
    lastActive: row.updatedAt.toISOString(),
    current: row.token === token,
  }));
}

/** Signs out one of the user's sessions (not the current one: that is "Log Out"). False when not theirs. */
export async function revokeSession(request: Request, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ token: sessions.token })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
  if (!row || row.token === (await currentSessionToken(request))) return false;
  await getAuth().api.revokeSession({ body: { token: row.token }, headers: request.headers });
  await announceSessionChange(userId);
  return true;
}

/** Signs out every session of the user but this one. */
export async function revokeOtherSessions(request: Request): Promise<void> {
  await getAuth().api.revokeOtherSessions({ headers: request.headers });
}

// ---------------------------------------------------------------- connected providers

export async function connectedAccounts(userId: string): Promise<ConnectedAccount[]> {
  const rows = await getDb()
    .select({ providerId: accounts.providerId })
    .from(accounts)
    .where(eq(accounts.userId, userId));
  return rows
    .map((row) => row.providerId)
    .filter(isOAuthProviderId)
    .map((provider) => ({ provider, name: OAUTH_PROVIDER_NAMES[provider] }));
}

// ---------------------------------------------------------------- export

/** Everything the site holds about the user, as the JSON download gives it. */
export async function exportAccountData(userId: string) {
  const db = getDb();
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      createdAt: users.createdAt,
      full_name: profiles.full_name,
      company_name: profiles.company_name,
      role: user_roles.role,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(users.id, userId));
  const licenseRows = await db
    .select({
      id: licenses.id,
      short_id: licenses.short_id,
      email: licenses.email,
      license_type: licenses.license_type,
      status: licenses.status,
      start_date: licenses.start_date,
      end_date: licenses.end_date,
      windows_username: licenses.windows_username,
      computer_name: licenses.computer_name,
      auto_renew: licenses.auto_renew,
      cancellation_requested: licenses.cancellation_requested,
      created_at: licenses.created_at,
    })
    .from(licenses)
    .where(eq(licenses.user_id, userId))
    .orderBy(licenses.created_at);
  const paymentRows = await db
    .select({
      id: payments.id,
      license_id: payments.license_id,
      kind: payments.kind,
      amount_cents: payments.amount_cents,
      currency: payments.currency,
      billed_at: payments.billed_at,
    })
    .from(payments)
    .where(eq(payments.user_id, userId))
    .orderBy(payments.billed_at);
  const licenseIds = licenseRows.map((l) => l.id);
  const auditRows = await db
    .select({
      action: audit_log.action,
      target_type: audit_log.target_type,
      target_id: audit_log.target_id,
      details: audit_log.details,
      created_at: audit_log.created_at,
    })
    .from(audit_log)
    .where(
      or(
        eq(audit_log.actor_id, userId),
        and(eq(audit_log.target_type, "user"), eq(audit_log.target_id, userId)),
        licenseIds.length > 0
          ? and(eq(audit_log.target_type, "license"), inArray(audit_log.target_id, licenseIds))
          : sql`false`,
      ),
    )
    .orderBy(audit_log.created_at);
  const sessionRows = await db
    .select({ userAgent: sessions.userAgent, ipAddress: sessions.ipAddress, createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return {
    exported_at: new Date().toISOString(),
    profile: user
      ? {
          email: user.email,
          email_verified: user.emailVerified,
          full_name: user.full_name ?? "",
          company_name: user.company_name,
          role: user.role ?? "user",
          two_factor_enabled: user.twoFactorEnabled,
          created_at: user.createdAt.toISOString(),
        }
      : null,
    connected_accounts: (await connectedAccounts(userId)).map((a) => a.name),
    sessions: sessionRows.map((s) => ({
      browser: describeUserAgent(s.userAgent),
      ip_address: s.ipAddress,
      signed_in_at: s.createdAt.toISOString(),
    })),
    licenses: licenseRows,
    payments: paymentRows,
    audit_log: auditRows,
  };
}

// ---------------------------------------------------------------- deletion

export class SubscriptionCancelError extends Error {}

/**
 * Deletes the account: active subscriptions are cancelled with the provider first (nothing else
 * changes when that fails); then, in one transaction, sign-in methods, sessions, two-factor,
 * checkouts and the profile's personal data are removed, and the licenses, payments and audit
 * entries the business must keep stay, detached from the person (e-mail and names replaced).
 * The user row stays as the anchor of what is kept, anonymised and marked deleted. A confirmation
 * goes to the old address.
 */
export async function deleteAccount(userId: string): Promise<void> {
  const db = getDb();
  const [user] = await db
    .select({ email: users.email, full_name: profiles.full_name, name: users.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  if (!user) return;

  const renewing = await db
    .select({ id: licenses.id, subscriptionId: licenses.paddle_subscription_id })
    .from(licenses)
    .where(
      and(
        eq(licenses.user_id, userId),
        isNotNull(licenses.paddle_subscription_id),
        eq(licenses.auto_renew, true),
        eq(licenses.cancellation_requested, false),
        inArray(licenses.status, ["active"]),
      ),
    );
  for (const license of renewing) {
    try {
      await getPaymentProvider().cancelAtPeriodEnd(license.subscriptionId!);
    } catch (error) {
      throw new SubscriptionCancelError("could not cancel a subscription", { cause: error });
    }
    await db
      .update(licenses)
      .set({ auto_renew: false, cancellation_requested: true, cancellation_requested_at: new Date() })
      .where(eq(licenses.id, license.id));
  }

  const anonymousEmail = `deleted-${userId}@deleted.invalid`;
  await db.transaction(async (tx) => {
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
    await tx.update(profiles).set({ full_name: "Deleted user", company_name: null }).where(eq(profiles.id, userId));
    await tx.update(user_roles).set({ role: "user" }).where(eq(user_roles.user_id, userId));
    await tx
      .update(licenses)
      .set({ email: anonymousEmail, windows_username: null, computer_name: null })
      .where(eq(licenses.user_id, userId));
    await tx.update(audit_log).set({ actor_email: anonymousEmail }).where(eq(audit_log.actor_id, userId));
  });
  // Its sessions are gone: no app server may keep answering for them from memory.
  await announceSessionChange(userId);

  queueMail(
    accountNotice(user.email, "your account was deleted", [
      `Hello ${user.full_name || user.name},`,
      "Your account was deleted as you asked. Your profile, sign-in methods and sessions are gone.",
      "Records of licenses and payments that we must keep for accounting are kept without your name or e-mail address.",
      `Questions? Write to ${getEnv().SUPPORT_EMAIL}.`,
    ]),
    "account deletion confirmation",
  );
}

/** A session started within FRESH_SIGN_IN_SECONDS (deleting an account without a password). */
export async function isFreshSignIn(request: Request): Promise<boolean> {
  const token = await currentSessionToken(request);
  if (!token) return false;
  const [row] = await getDb().select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.token, token));
  return Boolean(row && Date.now() - row.createdAt.getTime() <= FRESH_SIGN_IN_SECONDS * 1000);
}
