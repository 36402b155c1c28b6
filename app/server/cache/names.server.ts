/**
 * The names the caches listen on and key by, written once: the PostgreSQL channels on which every app
 * server hears what changed (docs/caching.md), and the cookies that decide whose page a request is.
 */

/**
 * The channel on which the database announces, for every change of a row that a signed-in page
 * shows (licenses, payments, sessions, connected accounts, two-factor, role, user, profile), the
 * user it belongs to (migration 0015's triggers): whoever made the change, every app server hears
 * it when it commits (PostgreSQL LISTEN/NOTIFY; the embedded engine calls its listener as it commits).
 * The triggers' function (`announce_user_change`) names it in SQL too.
 */
export const USER_CHANGES_CHANNEL = "forgekit_user_changes";

/** The channel on which every app server hears that public pages changed (a release). */
export const PUBLIC_PAGES_CHANNEL = "forgekit_public_pages";

/** The channel on which every app server hears that a user's sessions or account changed. */
export const SESSIONS_CHANNEL = "forgekit_sessions";

/**
 * What every name of Better Auth's session cookie contains (`fk.session_token`, `__Secure-fk.session_token`
 * over HTTPS, and the other prefixes a request may carry): a request with it may be someone's.
 */
export const SESSION_COOKIE_MARK = "session_token";

/** The flash-toast cookie (app/http/toast.server.ts): a page carrying one is shown to one visitor once. */
export const TOAST_COOKIE = "fk_toast";

/** Whether a Cookie header carries a session cookie (a cheap test before any parsing). */
export function hasSessionCookie(cookie: string | null | undefined): boolean {
  return (cookie ?? "").includes(SESSION_COOKIE_MARK);
}

/** Whether a Cookie header carries a flash toast. */
export function hasToastCookie(cookie: string | null | undefined): boolean {
  return (cookie ?? "").includes(TOAST_COOKIE);
}
