import { createHmac, timingSafeEqual } from "node:crypto";
import type { SessionUser } from "~/domain/views";
import { authCookies, parseCookieHeader } from "./auth-cookies.server";
import { hasDisallowedCharacters } from "~/domain/text-input";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { getDb } from "../db/db.server";
import { profiles, sessions as sessionTable, team_members, user_roles, users, type Role } from "../db/schema";
import { getAuth } from "./auth.server";
import { cachedSession, hasSessionCookie, rememberSession, sessionCacheGeneration } from "../cache/caches.server";

export type { SessionUser } from "~/domain/views";

export interface CurrentSession {
  user: SessionUser | null;
  role: Role;
  /** Whether the user has turned on two-factor authentication (admins must: adminGuard). */
  twoFactorEnabled: boolean;
  /** Whether the user owns or manages a team (the nav then links to /team). */
  runsTeam: boolean;
  /** Set-Cookie headers Better Auth wants sent back (a refreshed or cleared session cookie). */
  headers: Headers;
}

/**
 * The signed-in user and role for a request. An expired, deleted or tampered session is
 * simply "signed out". The role is admin only when the user's user_roles row says so.
 *
 * Looked up once per Request: the root loader, the route's loader and every guard they call get
 * the same answer (React Router hands all loaders of one request the same Request object, and
 * loaders that run after an action a new one, so an action that signs in or out is seen).
 *
 * A page may be shown from this server's memory of the session (session-cache.server.ts: a change
 * on another server reaches it a few milliseconds after its commit). A write (any method but GET
 * and HEAD) never is: it reads the session, the user's role and two-factor state from the database,
 * so a session ended or an admin demoted on another server is refused at once.
 */
export function getCurrentSession(request: Request): Promise<CurrentSession> {
  let session = sessions.get(request);
  if (!session) {
    session = lookUpSession(request);
    sessions.set(request, session);
  }
  return session;
}

const sessions = new WeakMap<Request, Promise<CurrentSession>>();

const SIGNED_OUT = { user: null, role: "user", twoFactorEnabled: false, runsTeam: false } as const;

/**
 * Whether the user owns or manages a team, read with the session (no query of its own on every
 * page): a change of their team role announces them (migration 0024), which forgets the
 * remembered session on every server.
 */
const runsTeamOf = (userId: typeof users.id | typeof profiles.id): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${team_members} where ${team_members.user_id} = ${userId} and ${team_members.role} in ('owner', 'manager'))`;

async function lookUpSession(request: Request): Promise<CurrentSession> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || !hasSessionCookie(cookie)) return { ...SIGNED_OUT, headers: new Headers() };
  const remembered = request.method === "GET" || request.method === "HEAD";
  return (await currentSessionInOneQuery(cookie, remembered)) ?? (await currentSessionThroughBetterAuth(request));
}

/**
 * The common case in one query: a validly signed session cookie whose session is current and does
 * not need its daily refresh yet. Session, user, profile and role come from one join; nothing is
 * written and no cookie is set. Everything else (no such session, expired, due for refresh, Better
 * Auth's session-data cookie present) returns null and goes through Better Auth, which clears or
 * refreshes the cookie as it always did.
 */
async function currentSessionInOneQuery(cookieHeader: string, remembered: boolean): Promise<CurrentSession | null> {
  const context = await getAuth().$context;
  const cookies = parseCookieHeader(cookieHeader);
  if (cookies.has(context.authCookies.sessionData.name)) return null;
  const signed = cookies.get(context.authCookies.sessionToken.name);
  if (signed === undefined) return null;
  // Remembered by the signed value: the same string passed the signature check before.
  const cached = remembered ? cachedSession(signed) : null;
  if (cached) {
    const { user, role, twoFactorEnabled, runsTeam } = cached;
    return { user, role, twoFactorEnabled, runsTeam, headers: new Headers() };
  }
  const token = verifySignedCookie(signed, context.secret);
  if (!token) return null;
  const since = sessionCacheGeneration();
  const [row] = await sessionQuery(getDb()).execute({ token });
  if (!row) return null;
  const { expiresIn, updateAge } = context.sessionConfig;
  const expires = row.expiresAt.getTime();
  const refreshDue = expires - expiresIn * 1000 + updateAge * 1000;
  const now = Date.now();
  if (expires <= now || refreshDue <= now) return null;
  const session = {
    user: { id: row.id, email: row.email, fullName: row.full_name || row.name, emailVerified: row.emailVerified },
    role: row.role === "admin" ? ("admin" as const) : ("user" as const),
    twoFactorEnabled: row.twoFactorEnabled,
    runsTeam: row.runsTeam,
  };
  rememberSession(signed, since, session, Math.min(expires, refreshDue), now);
  return { ...session, headers: new Headers() };
}

const preparedSessionQueries = new WeakMap<Database, ReturnType<typeof prepareSessionQuery>>();

/** Built once per database (and prepared once per PostgreSQL connection). */
function sessionQuery(db: Database) {
  let query = preparedSessionQueries.get(db);
  if (!query) {
    query = prepareSessionQuery(db);
    preparedSessionQueries.set(db, query);
  }
  return query;
}

function prepareSessionQuery(db: Database) {
  return db
    .select({
      expiresAt: sessionTable.expiresAt,
      id: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      full_name: profiles.full_name,
      role: user_roles.role,
      runsTeam: runsTeamOf(users.id),
    })
    .from(sessionTable)
    .innerJoin(users, eq(users.id, sessionTable.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(sessionTable.token, sql.placeholder("token")))
    .prepare("current_session");
}

async function currentSessionThroughBetterAuth(request: Request): Promise<CurrentSession> {
  let headers = new Headers();
  let result: Awaited<ReturnType<ReturnType<typeof getAuth>["api"]["getSession"]>>;
  try {
    const response = await getAuth().api.getSession({ headers: request.headers, returnHeaders: true });
    result = response.response;
    headers = authCookies(response.headers);
  } catch {
    return { ...SIGNED_OUT, headers };
  }
  if (!result) return { ...SIGNED_OUT, headers };
  const userId = result.user.id;
  const [row] = await getDb()
    .select({ role: user_roles.role, full_name: profiles.full_name, runsTeam: runsTeamOf(profiles.id) })
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
    twoFactorEnabled: (result.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true,
    runsTeam: row?.runsTeam === true,
    headers,
  };
}

/** The token of the request's session cookie when its signature is right (null otherwise). */
export async function currentSessionToken(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const context = await getAuth().$context;
  const signed = parseCookieHeader(header).get(context.authCookies.sessionToken.name);
  return signed === undefined ? null : verifySignedCookie(signed, context.secret);
}

/** `value.base64(HMAC-SHA256(secret, value))`, Better Auth's signed cookie: the value, or null when the signature is wrong. */
export function verifySignedCookie(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(value).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

/**
 * The page a request is for: React Router passes loaders the request as sent, so a data request's
 * `/licenses.data?_routes=…` (or `/_root.data`) is the page `/licenses` (or `/`).
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data")) {
    url.pathname = url.pathname === "/_root.data" ? "/" : url.pathname.slice(0, -".data".length);
    url.searchParams.delete("_routes");
  }
  // `?index` (empty) only tells React Router which route a form posts to.
  const index = url.searchParams.getAll("index").filter(Boolean);
  url.searchParams.delete("index");
  for (const value of index) url.searchParams.append("index", value);
  return url;
}

/** Where a signed-out visitor is sent to sign in, and back here afterwards. */
export function loginUrl(request: Request): string {
  const url = pageUrl(request);
  const back = `${url.pathname}${url.search}`;
  return back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`;
}

/** Where an admin without two-factor authentication is sent to turn it on. */
export const TWO_FACTOR_ENROL_PATH = "/profile?two-factor=required#two-factor";
export const TWO_FACTOR_REQUIRED_MESSAGE =
  "Administrators must turn on two-factor authentication before using the admin area.";

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
