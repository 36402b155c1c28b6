import { hashPassword, verifyJWT } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { recordUserEvent } from "../audit/user-events.server";
import { announceSessionChange } from "../cache/caches.server";
import { getDb } from "../db/db.server";
import { accounts, sessions, users } from "../db/schema";
import { getEnv } from "../env.server";
import { checkPassword } from "./password.server";

/**
 * The registration's confirmation link (decision 0059). Following it proves the address,
 * not the password chosen before the address was proven: the account is confirmed only when the
 * person holding the link also logs in with that password, or chooses a new one there. Nobody is
 * signed in by the link alone.
 */

export type ConfirmationLink =
  | { state: "open"; userId: string; email: string }
  | { state: "confirmed"; email: string }
  | { state: "expired" }
  | { state: "invalid" };

/** The expiry of a token whose signature was not checked (only to say "expired" rather than "not valid"). */
function expiredClaim(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp?: unknown;
    };
    return typeof payload.exp === "number" && payload.exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}

/** What a confirmation link (Better Auth's signed token, 24 hours) stands for now. */
export async function confirmationLink(token: string): Promise<ConfirmationLink> {
  if (!token) return { state: "invalid" };
  const payload = await verifyJWT<{ email?: unknown; updateTo?: unknown; userId?: unknown }>(
    token,
    getEnv().BETTER_AUTH_SECRET,
  );
  if (!payload) return { state: expiredClaim(token) ? "expired" : "invalid" };
  // A change of address's token is not a confirmation of the account.
  if (typeof payload.email !== "string" || payload.updateTo) return { state: "invalid" };
  const [user] = await getDb()
    .select({ id: users.id, email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(sql`lower(${users.email}) = ${payload.email.toLowerCase()}`);
  if (!user || (typeof payload.userId === "string" && payload.userId !== user.id)) return { state: "invalid" };
  if (user.emailVerified) return { state: "confirmed", email: user.email };
  return { state: "open", userId: user.id, email: user.email };
}

/** The link's holder knows the password chosen at registration: the address is confirmed. */
export async function confirmWithPassword(userId: string, password: string): Promise<boolean> {
  if (!(await checkPassword(userId, password))) return false;
  await markConfirmed(userId);
  return true;
}

/**
 * The link's holder chooses the password: it replaces the one chosen at registration (by whoever
 * registered), any session of the account ends, and the address is confirmed.
 */
export async function confirmWithNewPassword(userId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await getDb().transaction(async (tx) => {
    const updated = await tx
      .update(accounts)
      .set({ password: hash, updatedAt: new Date() })
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({ accountId: userId, providerId: "credential", userId, password: hash });
    }
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
  await markConfirmed(userId);
}

async function markConfirmed(userId: string): Promise<void> {
  const [user] = await getDb()
    .update(users)
    .set({ emailVerified: true, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.emailVerified, false)))
    .returning({ email: users.email });
  if (user) await recordUserEvent(getDb(), userId, "account.confirmed", { email: user.email });
  await announceSessionChange(userId);
}
