import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { recordUserEvent } from "../audit/user-events.server";
import { getDb } from "../db/db.server";
import { accounts, profiles, user_roles, users } from "../db/schema";
import { createEmailVerificationToken } from "better-auth/api";
import { alreadyRegisteredEmail, registeredAgainEmail } from "~/emails/account-emails.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { confirmationUrl, getAuth } from "./auth.server";

export interface RegisterInput {
  full_name: string;
  email: string;
  password: string;
  company_name: string | null;
}

/**
 * Creates the account, its profile and its role row in one transaction, then queues the
 * confirmation e-mail. An address that already has an account gets an e-mail telling its
 * owner instead (a confirmed one: "someone tried to register"; one never confirmed: the
 * confirmation link, where the owner chooses the password), and the caller answers exactly as for
 * a new account (no enumeration). Both
 * paths hash the password (the costly step) and queue one e-mail without waiting for it, so
 * both take the same time (decision 0014).
 */
export async function registerUser(
  input: RegisterInput,
  { callbackURL = "/" }: { callbackURL?: string } = {},
): Promise<{ created: boolean }> {
  const db = getDb();
  const email = input.email.toLowerCase();
  const hash = await hashPassword(input.password);
  const [existing] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (existing) {
    // Never confirmed: the owner of the address gets the link where they log in or choose their
    // own password; the password typed here is not kept (decision 0059).
    queueMail(async () => {
      const owner = await recipientOf(existing.id);
      if (!owner) return null;
      if (existing.emailVerified) return alreadyRegisteredEmail(mailBrand(), email, owner.name);
      const url = await confirmationLinkFor(email, callbackURL);
      return registeredAgainEmail(mailBrand(), email, owner.name, url);
    }, "already-registered e-mail");
    return { created: false };
  }

  try {
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ name: input.full_name, email, emailVerified: false })
        .returning({ id: users.id });
      const userId = user!.id;
      await tx.insert(accounts).values({ accountId: userId, providerId: "credential", userId, password: hash });
      await tx.insert(profiles).values({ id: userId, full_name: input.full_name, company_name: input.company_name });
      await tx.insert(user_roles).values({ user_id: userId, role: "user" });
      await recordUserEvent(tx, userId, "account.registered", { email });
    });
  } catch (error) {
    // Two registrations of one address at once: the second finds the first's row.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }

  sendConfirmation(email, callbackURL);
  return { created: true };
}

/**
 * Queues a (new) confirmation link for an unconfirmed account; nothing for any other address. The
 * link's page asks for the password (or a new one), then signs in and leads to `callbackURL` (a
 * same-site path: where they were going).
 * Returns at once: the account is looked up after the request, so the caller's answer takes
 * the same time whether or not the address has an account.
 */
export function sendConfirmation(email: string, callbackURL = "/"): void {
  const address = email.toLowerCase();
  queueMail(async () => {
    const [user] = await getDb()
      .select({ id: users.id, emailVerified: users.emailVerified })
      .from(users)
      .where(sql`lower(${users.email}) = ${address}`);
    if (!user || user.emailVerified) return null;
    // Better Auth signs the link and passes it to its sendVerificationEmail hook
    // (auth.server.ts), which queues the message itself.
    await getAuth().api.sendVerificationEmail({ body: { email: address, callbackURL } });
    return null;
  }, "confirmation e-mail");
}

/** A new confirmation link for an address (Better Auth's signed token, 24 hours) on our page. */
async function confirmationLinkFor(email: string, callbackURL: string): Promise<string> {
  const context = await getAuth().$context;
  const token = await createEmailVerificationToken(
    context.secret,
    email,
    undefined,
    context.options.emailVerification?.expiresIn,
  );
  return confirmationUrl(token, callbackURL);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}
