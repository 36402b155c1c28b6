import { betterAuth, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, twoFactor } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import { recordUserEvent } from "../audit/user-events.server";
import { getDb } from "../db/db.server";
import { accounts, profiles, sessions, twoFactors, user_roles, users, verifications } from "../db/schema";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { confirmationEmail, resetPasswordEmail } from "~/emails/account-emails.server";
import { notifyProviderConnected } from "./notify-account-owner.server";
import { refuseCommonNewPasswords } from "./common-passwords.server";
import { connectedAccounts } from "./connected-accounts.server";
import { announceSessionChange } from "../cache/caches.server";
import { oauthProviderConfigs, requireProviderVerifiedEmail } from "./oauth-providers.server";
import { generateRecoveryCodes } from "./recovery-code-generator.server";
import { withTrackedCalls } from "../async-contexts.server";

/** The confirmation link's page for a token Better Auth signed, leading on to `redirectTo` (a same-site path). */
export function confirmationUrl(token: string, redirectTo: string | null): string {
  const query = new URLSearchParams({ token });
  if (redirectTo && redirectTo !== "/") query.set("redirectTo", redirectTo);
  return `${getEnv().PUBLIC_URL}/email-confirmation?${query.toString()}`;
}

export const CLIENT_IP_HEADER = "x-forgekit-client-ip";

/** The request's headers for Better Auth, with the client address the server determined. */
export function withClientIp(headers: Headers, clientIp: string): Headers {
  const copy = new Headers(headers);
  copy.set(CLIENT_IP_HEADER, clientIp);
  return copy;
}

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const RESET_LINK_SECONDS = 24 * 60 * 60;
export const SESSION_SECONDS = 30 * 24 * 60 * 60;

// Signed-in pages remember sessions for a moment (session-cache.server.ts): a session ended,
// revoked or changed, or a changed user, is forgotten at once on every app server.
const databaseHooks = {
  // A GitHub / Google sign-in connected to an existing account: its owner is told (docs/security.md).
  account: { create: { after: async (account) => notifyProviderConnected(account) } },
  session: {
    update: { after: async (session) => announceSessionChange(session.userId) },
    delete: { after: async (session) => announceSessionChange(session.userId) },
    create: {
      // A sign-in on the customer's timeline (decision 0038), once: not a session that replaces the
      // request's own, nor the password step's that the code step replaces.
      after: async (session, ctx) => {
        if (!(await startsSignIn(session.userId, ctx))) return;
        await recordUserEvent(getDb(), session.userId, "account.signed_in", { ip: session.ipAddress ?? null });
      },
      // A GitHub / Google sign-in skips the code step, so accounts with two-factor on sign in
      // with their password and code only (the callback then answers unable_to_create_session).
      before: async (session, ctx) => {
        if (!ctx?.path?.startsWith("/callback/")) return;
        const [row] = await getDb()
          .select({ twoFactorEnabled: users.twoFactorEnabled })
          .from(users)
          .where(eq(users.id, session.userId));
        if (row?.twoFactorEnabled) return false;
      },
    },
  },
  user: {
    update: { after: async (user) => announceSessionChange(user.id) },
    delete: { after: async (user) => announceSessionChange(user.id) },
    create: {
      // Accounts made by an OAuth sign-in get their profile from the provider's name
      // (registration writes its own rows: register-user.server.ts).
      after: async (user, ctx) => {
        if (!ctx?.path?.startsWith("/callback/")) return;
        await getDb()
          .insert(profiles)
          .values({ id: user.id, full_name: user.name || user.email.split("@")[0]! })
          .onConflictDoNothing();
        await getDb().insert(user_roles).values({ user_id: user.id, role: "user" }).onConflictDoNothing();
      },
    },
  },
} satisfies BetterAuthOptions["databaseHooks"];

/**
 * Whether a new session is a sign-in for the timeline (decision 0038). Better Auth also creates
 * sessions that are none: turning two-factor on or off replaces the request's session (it has one
 * already), and with two-factor on the password step's session is deleted at once for the one the
 * code step creates (this site never trusts a device, so that always happens).
 */
async function startsSignIn(userId: string, ctx: { path?: string; context?: { session?: unknown } } | null) {
  if (ctx?.context?.session) return false;
  if (ctx?.path !== "/sign-in/email") return true;
  const [row] = await getDb()
    .select({ twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return !row?.twoFactorEnabled;
}

/** Passwords and the reset link. */
const emailAndPassword = {
  enabled: true,
  requireEmailVerification: true,
  minPasswordLength: PASSWORD_MIN_LENGTH,
  maxPasswordLength: PASSWORD_MAX_LENGTH,
  resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
  revokeSessionsOnPasswordReset: true,
  // The link lands on our page with the one-time token; the page verifies it first.
  // Queued, not awaited: the request answers before the e-mail is composed or sent.
  sendResetPassword: async ({ user, token }) => {
    const url = `${getEnv().PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`;
    // The e-mail names the providers that can also sign in to the account (docs/security.md).
    queueMail(async () => {
      const name = (await recipientOf(user.id))?.name ?? user.name;
      const providers = (await connectedAccounts(user.id)).map((a) => a.name);
      return resetPasswordEmail(mailBrand(), user.email, name, url, providers);
    }, "password reset e-mail");
  },
} satisfies BetterAuthOptions["emailAndPassword"];

/**
 * The confirmation link. It lands on our page, which signs nobody in by itself: the holder logs in
 * with the password chosen at registration or chooses one (decision 0059).
 */
const emailVerification = {
  // Registration sends its own confirmation (app/server/auth/register-user.server.ts).
  sendOnSignUp: false,
  sendOnSignIn: false,
  autoSignInAfterVerification: false,
  // A change of address confirmed through Better Auth's link (support's, for a confirmed account)
  // on the customer's timeline (decision 0038).
  afterEmailVerification: async (user) => recordUserEvent(getDb(), user.id, "account.confirmed", { email: user.email }),
  expiresIn: RESET_LINK_SECONDS,
  // Queued, not awaited (see app/server/mail/outbox.server.ts).
  sendVerificationEmail: async ({ user, token, url }) => {
    const link = confirmationUrl(token, new URL(url).searchParams.get("callbackURL"));
    queueMail(async () => {
      const name = (await recipientOf(user.id))?.name ?? user.name;
      return confirmationEmail(mailBrand(), user.email, name, link);
    }, "confirmation e-mail");
  },
} satisfies BetterAuthOptions["emailVerification"];

function createAuth() {
  const env = getEnv();
  // Counted calls: Better Auth's async storages are turned off between them (decision 0089).
  return withTrackedCalls(
    betterAuth({
      appName: env.PRODUCT_NAME,
      baseURL: `${env.PUBLIC_URL}/api/auth`,
      secret: env.BETTER_AUTH_SECRET,
      trustedOrigins: [env.PUBLIC_URL],
      database: drizzleAdapter(getDb(), {
        provider: "pg",
        usePlural: true,
        schema: { users, sessions, accounts, verifications, twoFactors },
      }),
      plugins: [
        // TOTP with ten single-use recovery codes (decision 0026); the sign-in's second step and
        // enrolment go through our route actions (app/server/auth/two-factor.server.ts).
        twoFactor({
          issuer: env.PRODUCT_NAME,
          // Codes without look-alike characters, in one case (decision 0026): recovery-code-generator.server.ts.
          backupCodeOptions: { customBackupCodesGenerate: () => generateRecoveryCodes() },
        }),
        // Sign in with GitHub / Google, only for the providers whose client id and secret are set.
        ...(oauthProviderConfigs(env).length > 0 ? [genericOAuth({ config: oauthProviderConfigs(env) })] : []),
      ],
      account: {
        // An OAuth sign-in never joins an existing account by e-mail on its own: the owner signs in
        // to it first and connects the provider from the profile.
        accountLinking: { enabled: true, disableImplicitLinking: true },
      },
      databaseHooks,
      // No endpoint that takes a new password stores a common one (the route actions say so first).
      hooks: { before: refuseCommonNewPasswords },
      emailAndPassword,
      emailVerification,
      user: {
        // The profile's change of address has its own links (email-change.server.ts, decision 0059).
        changeEmail: { enabled: false },
        // A GitHub / Google identity counts only with an address the provider verified: no account
        // is created, signed in to or connected otherwise (/login?error=provider_email_unverified).
        validateUserInfo: requireProviderVerifiedEmail,
      },
      session: {
        expiresIn: SESSION_SECONDS,
        // Sliding sessions: refreshed once a day while in use.
        updateAge: 24 * 60 * 60,
      },
      // Our own database-backed limits apply in the route actions (rate-limit.server.ts);
      // the only HTTP endpoints of Better Auth we expose are the e-mail link callbacks.
      rateLimit: { enabled: false },
      advanced: {
        database: { generateId: "uuid" },
        // Sessions record the client address Express worked out (TRUST_PROXY), passed by our
        // actions and the OAuth callback in this header, never one a client sent (withClientIp).
        ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
        useSecureCookies: !env.embedded,
        cookiePrefix: "fk",
        defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
      },
      telemetry: { enabled: false },
      logger: {
        log: (level, message, ...args) => {
          const logger = getLogger();
          const fn = level === "error" ? logger.error : level === "warn" ? logger.warn : logger.debug;
          fn.call(logger, { args }, `auth: ${message}`);
        },
      },
    }),
  );
}

export type Auth = ReturnType<typeof createAuth>;
let auth: Auth | undefined;

/** The process's Better Auth instance, bound to the open database. */
export function getAuth(): Auth {
  auth ??= createAuth();
  return auth;
}

/** For tests that reopen the database: forget the instance bound to the old one. */
export function resetAuth(): void {
  auth = undefined;
}
