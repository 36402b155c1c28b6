import type { Response } from "express";
import { parseCookieHeader } from "../auth/auth-cookies.server";
import { headerList, type StoredAnswer } from "./capture.server";
import { hasSessionCookie } from "./names.server";

/**
 * Which signed-in requests may be answered from memory, and how an answer is stored
 * (signed-in-page-cache.server.ts keeps and forgets them).
 */

/** The admin area's list pages and their data requests (routes/admin: overview, users, releases, audit log). */
const ADMIN_PAGES = ["/admin", "/admin/users", "/admin/releases", "/admin/audit"].flatMap((page) => [
  page,
  `${page}.data`,
]);

/** The signed-in pages a session may get again from memory: each page and its data request. */
export const SIGNED_IN_CACHED_PAGES = new Set([
  "/licenses",
  "/licenses.data",
  "/billing",
  "/billing.data",
  "/profile",
  "/profile.data",
  ...ADMIN_PAGES,
]);

/** Pages whose query strings (filters, pages) are part of what they show. */
const QUERIED_PAGES = new Set(ADMIN_PAGES);

/** What an answer costs besides its two bodies (headers, key, bookkeeping), counted against MAX_BYTES. */
const ENTRY_OVERHEAD_BYTES = 2048;
/** The remembered session a page was rendered for: the same object for as long as nothing changed. */
export type SessionRef = { user: { id: string } };

interface Answer extends StoredAnswer {
  headers: string[];
  body: Buffer;
}

export interface Entry {
  key: string;
  token: string;
  userId: string;
  /** The page shows other users' data (the admin area): any user's change forgets it. */
  shared: boolean;
  session: SessionRef;
  validUntil: number;
  br: Answer;
  gzip: Answer;
  bytes: number;
}

export interface Pending {
  key: string;
  token: string;
  session: SessionRef;
  /** The change tick when rendering started. */
  startedAt: number;
}

/** A buffer of exactly this length, not a view into a larger one that a small result would keep alive. */
export function exact(buffer: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

export function makeEntry(
  pending: Pending,
  kept: [string, string][],
  validUntil: number,
  shared: boolean,
  bodies: { gzip: Buffer; br: Buffer },
): Entry {
  const common = headerList(kept, "Cache-Control", "private, no-store", "Vary", "Accept-Encoding", "X-Cache", "HIT");
  const answer = (body: Buffer, encoding: string): Answer => ({
    headers: [...common, "Content-Encoding", encoding, "Content-Length", String(body.length)],
    body,
  });
  return {
    key: pending.key,
    token: pending.token,
    userId: pending.session.user.id,
    shared,
    session: pending.session,
    validUntil,
    br: answer(bodies.br, "br"),
    gzip: answer(bodies.gzip, "gzip"),
    bytes: bodies.br.length + bodies.gzip.length + 2 * pending.key.length + ENTRY_OVERHEAD_BYTES,
  };
}

/**
 * One of the pages, with no query or only React Router's `_routes` naming the page's own route modules
 * (which loaders a data request runs); the admin area's list pages with any plain query (filters, page).
 */
export function cacheablePath(url: string): boolean {
  const query = url.indexOf("?");
  if (query === -1) return SIGNED_IN_CACHED_PAGES.has(url);
  const path = url.slice(0, query);
  const search = url.slice(query + 1);
  if (!SIGNED_IN_CACHED_PAGES.has(path)) return false;
  if (QUERIED_PAGES.has(path)) return search.length <= 512 && /^[\w%.,/=&+-]*$/.test(search);
  const routes = /^_routes=([\w%.,/-]*)$/.exec(search)?.[1];
  if (routes === undefined) return false;
  let ids: string[];
  try {
    ids = decodeURIComponent(routes).split(",");
  } catch {
    return false;
  }
  const own = `routes/${path.slice(1).replace(/\.data$/, "")}`;
  return ids.every((id) => id === "root" || id === own);
}

export function sessionToken(cookie: string | undefined, name: string): string | undefined {
  if (!cookie || !hasSessionCookie(cookie)) return undefined;
  return parseCookieHeader(cookie).get(name);
}

export function storable(res: Response): boolean {
  const type = String(res.getHeader("content-type") ?? "");
  return (
    res.statusCode === 200 &&
    !res.getHeader("set-cookie") &&
    (type.startsWith("text/html") || type.startsWith("text/x-script"))
  );
}
