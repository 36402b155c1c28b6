import { verifyPassword } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { accounts } from "../db/schema";
import { notifyPasswordChanged } from "./notify-account-owner.server";
import { authCookies } from "./auth-cookies.server";
import { getAuth } from "./auth.server";

/** The stored password hash of the account, if it has one. */
async function passwordHash(userId: string): Promise<string | null> {
  const [row] = await getDb()
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return row?.password ?? null;
}

/** Whether the account has a password (false for accounts made by a GitHub / Google sign-in). */
export async function hasPassword(userId: string): Promise<boolean> {
  return Boolean(await passwordHash(userId));
}

/** Checks the account's password (false when wrong or when it has none). */
export async function checkPassword(userId: string, password: string): Promise<boolean> {
  const hash = await passwordHash(userId);
  if (!hash) return false;
  return verifyPassword({ hash, password });
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
  notifyPasswordChanged(user);
  return authCookies(result.headers);
}
