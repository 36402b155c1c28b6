import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { accounts, profiles, user_roles, users } from "../db/schema";
import { getEnv } from "../env.server";
import { getLogger } from "../logger.server";
import { getMailer } from "../mail/mailer.server";
import { alreadyRegisteredEmail } from "../mail/templates.server";
import { getAuth } from "./auth.server";

export interface RegisterInput {
  full_name: string;
  email: string;
  password: string;
  company_name: string | null;
}

/**
 * Creates the account, its profile and its role row in one transaction, then sends the
 * confirmation e-mail. An address that already has an account gets an e-mail telling its
 * owner instead, and the caller answers exactly as for a new account (no enumeration).
 */
export async function registerUser(input: RegisterInput): Promise<{ created: boolean }> {
  const db = getDb();
  const email = input.email.toLowerCase();
  // Hash first in both paths, so both take the same time.
  const hash = await hashPassword(input.password);
  const [existing] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (existing) {
    const env = getEnv();
    const [profile] = await db.select({ full_name: profiles.full_name }).from(profiles).where(eq(profiles.id, existing.id));
    await getMailer()
      .send(
        alreadyRegisteredEmail(
          { productName: env.PRODUCT_NAME, publicUrl: env.PUBLIC_URL, supportEmail: env.SUPPORT_EMAIL },
          email,
          profile?.full_name || existing.name,
        ),
      )
      .catch((error: unknown) => getLogger().error({ err: error }, "could not send the already-registered e-mail"));
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
    });
  } catch (error) {
    // Two registrations of one address at once: the second finds the first's row.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }

  await sendConfirmation(email);
  return { created: true };
}

/** (Re)sends the confirmation link to an unconfirmed account; silent for anything else. */
export async function sendConfirmation(email: string): Promise<void> {
  const [user] = await getDb()
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!user || user.emailVerified) return;
  try {
    await getAuth().api.sendVerificationEmail({ body: { email: email.toLowerCase(), callbackURL: "/" } });
  } catch (error) {
    getLogger().error({ err: error }, "could not send the confirmation e-mail");
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}
