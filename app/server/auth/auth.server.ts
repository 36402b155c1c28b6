import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { accounts, profiles, sessions, users, verifications } from "../db/schema";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";
import { queueMail } from "../mail/outbox.server";
import { changeEmailEmail, confirmationEmail, resetPasswordEmail } from "../mail/templates.server";
import { announceSessionChange } from "./session-cache.server";

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const RESET_LINK_SECONDS = 24 * 60 * 60;
export const SESSION_SECONDS = 30 * 24 * 60 * 60;

function brand() {
  const env = getEnv();
  return { productName: env.PRODUCT_NAME, publicUrl: env.PUBLIC_URL, supportEmail: env.SUPPORT_EMAIL };
}

async function fullNameOf(userId: string, fallback: string): Promise<string> {
  const [profile] = await getDb()
    .select({ full_name: profiles.full_name })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return profile?.full_name || fallback;
}

function createAuth() {
  const env = getEnv();
  return betterAuth({
    appName: env.PRODUCT_NAME,
    baseURL: `${env.PUBLIC_URL}/api/auth`,
    secret: env.BETTER_AUTH_SECRET,
    trustedOrigins: [env.PUBLIC_URL],
    database: drizzleAdapter(getDb(), {
      provider: "pg",
      usePlural: true,
      schema: { users, sessions, accounts, verifications },
    }),
    emailAndPassword: {
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
        queueMail(
          async () => resetPasswordEmail(brand(), user.email, await fullNameOf(user.id, user.name), url),
          "password reset e-mail",
        );
      },
    },
    emailVerification: {
      // Registration sends its own confirmation (app/server/auth/register-user.server.ts).
      sendOnSignUp: false,
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: RESET_LINK_SECONDS,
      // Queued, not awaited (see app/server/mail/outbox.server.ts).
      sendVerificationEmail: async ({ user, url }) => {
        queueMail(async () => {
          const name = await fullNameOf(user.id, user.name);
          const [stored] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, user.id));
          // A change of address sends the link to the new address; the account keeps the old
          // one until the link is followed.
          const changing = stored && stored.email.toLowerCase() !== user.email.toLowerCase();
          return changing
            ? changeEmailEmail(brand(), user.email, name, url)
            : confirmationEmail(brand(), user.email, name, url);
        }, "confirmation e-mail");
      },
    },
    user: {
      changeEmail: { enabled: true },
    },
    session: {
      expiresIn: SESSION_SECONDS,
      // Sliding sessions: refreshed once a day while in use.
      updateAge: 24 * 60 * 60,
    },
    // Signed-in pages remember sessions for a moment (session-cache.server.ts): a session ended,
    // revoked or changed, or a changed user, is forgotten at once on every app server.
    databaseHooks: {
      session: {
        update: { after: async (session) => announceSessionChange(session.userId) },
        delete: { after: async (session) => announceSessionChange(session.userId) },
      },
      user: {
        update: { after: async (user) => announceSessionChange(user.id) },
        delete: { after: async (user) => announceSessionChange(user.id) },
      },
    },
    // Our own database-backed limits apply in the route actions (rate-limit.server.ts);
    // the only HTTP endpoints of Better Auth we expose are the e-mail link callbacks.
    rateLimit: { enabled: false },
    advanced: {
      database: { generateId: "uuid" },
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
  });
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
