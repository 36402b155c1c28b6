import { sql } from "drizzle-orm";
import type { SessionUser } from "~/domain/views";
import type { Role } from "../db/schema";
import { getDatabaseHandle } from "../db/db.server";
import { SESSIONS_CHANNEL } from "./names.server";

/** A safety net only: every change that matters is announced and forgets the entries at once. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface RememberedSession {
  user: SessionUser;
  role: Role;
  twoFactorEnabled: boolean;
  /** Whether the user owns or manages a team (a change of their team role forgets the entry). */
  runsTeam: boolean;
}

interface Entry extends RememberedSession {
  validUntil: number;
}

const entries = new Map<string, Entry>();
let generation = 0;
let enabled = false;

/**
 * Signed-in visitors' sessions, remembered for a minute at most by their signed cookie value (so a
 * hit needs neither the signature check nor a query). Only ever on while this process hears every
 * change: always with the embedded database (one process), with PostgreSQL while the LISTEN
 * connection is up (change-listener.server.ts). Signing out, a revoked session, a password reset, a
 * changed name, address, role or team role forget the user's entries here at once and, through NOTIFY, on every
 * other app server when the change commits.
 */
export function setSessionCacheEnabled(on: boolean): void {
  enabled = on;
  forgetAllSessions();
}

/** The remembered session for a signed cookie value, or null. */
export function cachedSession(signedToken: string, now = Date.now()): RememberedSession | null {
  if (!enabled) return null;
  const entry = entries.get(signedToken);
  if (!entry) return null;
  if (entry.validUntil <= now) {
    entries.delete(signedToken);
    return null;
  }
  return entry;
}

/** The generation to pass to rememberSession: read before the lookup, so a change during it wins. */
export function sessionCacheGeneration(): number {
  return generation;
}

/**
 * Remembers a session looked up in the database, until `notAfter` (its expiry or the moment it is due
 * for its daily refresh) and at most a minute — unless something changed since `since`.
 */
export function rememberSession(
  signedToken: string,
  since: number,
  value: RememberedSession,
  notAfter: number,
  now = Date.now(),
): void {
  if (!enabled || since !== generation) return;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(signedToken, { ...value, validUntil: Math.min(now + TTL_MS, notAfter) });
}

/** Forgets every remembered session of one user (their sessions or account changed). */
export function forgetSessionsOf(userId: string): void {
  generation++;
  for (const [key, entry] of entries) if (entry.user.id === userId) entries.delete(key);
}

/** Forgets every remembered session (a notification may have been missed). */
export function forgetAllSessions(): void {
  generation++;
  entries.clear();
}

/** How many sessions are remembered (tests). */
export function sessionCacheSize(): number {
  return entries.size;
}

/**
 * After a change of a user's sessions or account has committed: forgotten here at once, and on every
 * app server listening on PostgreSQL (the NOTIFY is not inside a transaction, so it goes out now).
 */
export async function announceSessionChange(userId: string): Promise<void> {
  forgetSessionsOf(userId);
  const handle = getDatabaseHandle();
  if (handle.engine === "postgres") await handle.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${userId})`);
}
