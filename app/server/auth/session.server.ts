import type { SessionUser } from "~/domain/views";
import { failure } from "../action-reply.server";
import { authCookies } from "./auth-cookies.server";
import { hasDisallowedCharacters } from "~/domain/text-input";
import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { getDb } from "../db/db.server";
import { profiles, user_roles, type Role } from "../db/schema";
import { getAuth } from "./auth.server";

export type { SessionUser } from "~/domain/views";

export interface CurrentSession {
  user: SessionUser | null;
  role: Role;
  /** Set-Cookie headers Better Auth wants sent back (a refreshed or cleared session cookie). */
  headers: Headers;
}

/**
 * The signed-in user and role for a request. An expired, deleted or tampered session is
 * simply "signed out". The role is admin only when the user's user_roles row says so.
 */
export async function getCurrentSession(request: Request): Promise<CurrentSession> {
  let headers = new Headers();
  if (!request.headers.get("Cookie")?.includes("session_token")) return { user: null, role: "user", headers };
  let result: Awaited<ReturnType<ReturnType<typeof getAuth>["api"]["getSession"]>>;
  try {
    const response = await getAuth().api.getSession({ headers: request.headers, returnHeaders: true });
    result = response.response;
    headers = authCookies(response.headers);
  } catch {
    return { user: null, role: "user", headers };
  }
  if (!result) return { user: null, role: "user", headers };
  const userId = result.user.id;
  const [row] = await getDb()
    .select({ role: user_roles.role, full_name: profiles.full_name })
    .from(profiles)
    .leftJoin(user_roles, eq(user_roles.user_id, profiles.id))
    .where(eq(profiles.id, userId));
  return {
    user: {
      id: userId,
      email: result.user.email,
      fullName: row?.full_name || result.user.name,
      emailVerified: result.user.emailVerified,
    },
    role: row?.role === "admin" ? "admin" : "user",
    headers,
  };
}

function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Guard: the signed-in user, or a redirect to /login (and back here afterwards). */
export async function requireUser(request: Request): Promise<SessionUser> {
  const { user } = await getCurrentSession(request);
  if (!user) throw redirect(loginUrl(request));
  return user;
}

/** Guard: an admin, or a redirect to / for everyone else (spec.md section 6). */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const { user, role } = await getCurrentSession(request);
  if (!user || role !== "admin") throw redirect("/");
  return user;
}

/**
 * Guard for admin actions: signed-out callers get 401 and everyone but admins 403, so a direct
 * call changes nothing and says why (pages use requireAdmin, which redirects).
 */
export async function requireAdminAction(request: Request): Promise<SessionUser> {
  const { user, role } = await getCurrentSession(request);
  const refuse = (status: 401 | 403, description: string) => failure(status, { description, formError: false });
  if (!user) throw refuse(401, "Please log in again.");
  if (role !== "admin") throw refuse(403, "Only administrators can do this.");
  return user;
}

/** Guard for sign-in and registration pages: signed-in users go to /. */
export async function requireAnonymous(request: Request): Promise<void> {
  const { user } = await getCurrentSession(request);
  if (user) throw redirect("/");
}

const SITE = "http://site.invalid";

/** One form of a redirect target: a path on this site with nothing a URL parser would drop or reinterpret. */
function isSitePath(to: string): boolean {
  if (!to.startsWith("/") || to.startsWith("//") || to.includes("\\") || hasDisallowedCharacters(to)) return false;
  try {
    return new URL(to, SITE).origin === SITE;
  } catch {
    return false;
  }
}

/**
 * Only same-site paths are followed after sign-in. Control characters, backslashes and
 * lone surrogates are refused, and so is anything whose resolved origin is not the site's, in the
 * target as given and after each round of percent-decoding: the client router decodes
 * `/%09/evil.example` to a tab that browsers drop, leaving `//evil.example`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length > 2000) return fallback;
  let form = to;
  for (let round = 0; round < 5; round++) {
    if (!isSitePath(form)) return fallback;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      // Malformed as given: refused. Malformed after decoding (`/100%25`): nothing decodes it further.
      return round === 0 ? fallback : to;
    }
    if (decoded === form) return to;
    form = decoded;
  }
  // Still changing after five rounds of decoding: nobody writes links like that.
  return fallback;
}
