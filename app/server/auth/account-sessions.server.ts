import { and, desc, eq, gt } from "drizzle-orm";
import type { SessionView } from "~/domain/account-views";
import { describeUserAgent } from "~/domain/user-agent";
import { getDb } from "../db/db.server";
import { sessions } from "../db/schema";
import { getAuth } from "./auth.server";
import { currentSessionToken } from "./session.server";
import { announceSessionChange } from "../cache/caches.server";

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

/** How recent a sign-in must be for an account without a password to be deleted. */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;

/** A session started within FRESH_SIGN_IN_SECONDS (deleting an account without a password). */
export async function isFreshSignIn(request: Request): Promise<boolean> {
  const token = await currentSessionToken(request);
  if (!token) return false;
  const [row] = await getDb().select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.token, token));
  return Boolean(row && Date.now() - row.createdAt.getTime() <= FRESH_SIGN_IN_SECONDS * 1000);
}

/** The id of this request's session (null when signed out). */
export async function currentSessionId(request: Request): Promise<string | null> {
  const token = await currentSessionToken(request);
  if (!token) return null;
  const [row] = await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
  return row?.id ?? null;
}
