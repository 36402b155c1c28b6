import { eq } from "drizzle-orm";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { EMAIL_CHANGE_TEXTS as E } from "~/domain/email-change-texts";
import { getDb } from "../db/db.server";
import { profiles, users } from "../db/schema";
import { announceSessionChange } from "../cache/caches.server";
import { currentSessionId, isFreshSignIn } from "./account-sessions.server";
import { startEmailChange } from "./email-change.server";
import { checkPassword, hasPassword } from "./password.server";

export interface ProfileInput {
  full_name: string;
  company_name: string | null;
  email: string;
}

/** The profile page's data: names from profiles, the e-mail from the account. */
export async function getProfile(userId: string) {
  const [row] = await getDb()
    .select({ full_name: profiles.full_name, company_name: profiles.company_name, email: users.email })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return { full_name: row?.full_name ?? "", company_name: row?.company_name ?? "", email: row?.email ?? "" };
}

/**
 * Whoever asks to change the e-mail address proves they are the owner, not just someone holding
 * the session (decision 0059): the current password, or for an account without one (GitHub / Google
 * only, which cannot turn two-factor on) a sign-in within the last five minutes. Null when proven,
 * else the message for the password field.
 */
export async function emailChangeProblem(
  request: Request,
  userId: string,
  password: string | null,
): Promise<string | null> {
  if (await hasPassword(userId)) {
    if (!password) return E.passwordRequired;
    return (await checkPassword(userId, password)) ? null : A.passwordWrong;
  }
  return (await isFreshSignIn(request)) ? null : E.freshSignInRequired;
}

/**
 * Saves names at once. A new e-mail address (the caller checked `emailChangeProblem` first) only
 * takes effect when the link sent to it is followed (email-change.server.ts); returns whether such
 * a change was started.
 */
export async function updateProfile(
  userId: string,
  currentEmail: string,
  input: ProfileInput,
  request: Request,
): Promise<{ emailChangePending: boolean }> {
  const db = getDb();
  await db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({ id: userId, full_name: input.full_name, company_name: input.company_name })
      .onConflictDoUpdate({
        target: profiles.id,
        set: { full_name: input.full_name, company_name: input.company_name },
      });
    await tx.update(users).set({ name: input.full_name, updatedAt: new Date() }).where(eq(users.id, userId));
  });
  // The name shows on every signed-in page: remembered sessions of this user are forgotten everywhere.
  await announceSessionChange(userId);
  if (!emailChanges(currentEmail, input.email)) return { emailChangePending: false };
  await startEmailChange({
    userId,
    oldEmail: currentEmail,
    newEmail: input.email,
    keepSessionId: await currentSessionId(request),
  });
  return { emailChangePending: true };
}

/** Whether the form asks for another address than the account's. */
export const emailChanges = (currentEmail: string, email: string) => email.toLowerCase() !== currentEmail.toLowerCase();
