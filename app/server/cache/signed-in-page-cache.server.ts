import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { parseCookieHeader } from "../auth/auth-cookies.server";
import { brotliAt, captureBody, chooseEncoding, gzip, keptHeaders, requestedUrl, writeAnswer } from "./capture.server";
import { hasToastCookie } from "./names.server";
import {
  cacheablePath,
  exact,
  makeEntry,
  sessionToken,
  storable,
  type Entry,
  type Pending,
  type SessionRef,
} from "./signed-in-answers.server";

/** However long the route allows, an answer is rendered again after a minute at most. */
export const MAX_AGE_MS = 60_000;
/** Compressed answers kept in all (oldest forgotten first): a few thousand sessions' pages. */
const MAX_BYTES = 48 * 1024 * 1024;
/** A session's latest answers kept (its pages, their data requests, a few admin tabs). */
const MAX_ANSWERS_PER_SESSION = 8;
/** Users whose last change is remembered to the tick; beyond, every render in flight is dropped once. */
const MAX_TRACKED_CHANGES = 10_000;
/** An admin's action on one user's page (`/admin/users/:userId`) changes that user's pages too. */
const ADMIN_USER_ACTION = /^\/admin\/users\/([0-9a-f-]{36})(?:\/|$)/;

export interface SignedInPageCacheOptions {
  /** Better Auth's cookie names: the signed session token, and the session-data cookie (never used here). */
  cookies: { sessionToken: string; sessionData: string };
  /** The session remembered for a signed cookie value (session-cache.server.ts), or null. */
  session: (signedToken: string) => SessionRef | null;
  now?: () => number;
  maxBytes?: number;
}

export interface SignedInPageCache {
  /** Answers a request from memory before Express (as the public page cache does), or returns null. */
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => { status: number; bytes: number } | null;
  /** Marks a cacheable request that missed; a request that may change something forgets its user's pages. */
  mark: RequestHandler;
  /** After compression: keeps what a marked request rendered, when its route allowed it (`reuseUntil`). */
  capture: RequestHandler;
  /**
   * Forgets one user's pages (something they show changed: `USER_CHANGES_CHANNEL`), and every page
   * that shows other users' data.
   */
  forgetUser: (userId: string) => void;
  /** Forgets every page that shows other users' data (releases changed). */
  forgetShared: () => void;
  /** Forgets every page (a change may have been missed). */
  forgetAll: () => void;
  /** How many answers are held (tests). */
  size: () => number;
}

/**
 * Signed-in pages remembered per session (docs/decisions/0028): the licenses, billing and profile pages
 * and their data requests, rendered once and answered again from memory (compressed, before Express)
 * to the same session cookie while nothing they show has changed. An answer is only reused while
 * - the session it was rendered for is still the one remembered for the cookie: signing out, an ended
 *   session, a renamed user or a changed role make the session cache forget that object on every
 *   instance (LISTEN/NOTIFY), and with it every page rendered for it;
 * - nothing of the user's changed: database triggers announce every change of their licenses,
 *   payments, sessions, accounts, two-factor, role, user or profile row (and every audit entry) on
 *   `USER_CHANGES_CHANNEL` (`forgetUser`), and any POST of the user's (or an admin's on their page)
 *   forgets their pages here at once;
 * - the route's time (`reuseUntil`, the next moment a card's state changes by the clock) and a minute
 *   have not passed. A page that shows other users' data (the admin area: `reuseShared`) is also
 *   forgotten by any user's change and any release change.
 * A request with a toast cookie or with a query the page does not allow (`cacheablePath`), a response
 * that sets a cookie, and answers to clients that take neither brotli nor gzip are never kept.
 */
export function createSignedInPageCache(options: SignedInPageCacheOptions): SignedInPageCache {
  const now = options.now ?? (() => Date.now());
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const entries = new Map<string, Entry>();
  const keysOfUser = new Map<string, Set<string>>();
  const keysOfSession = new Map<string, string[]>();
  const sharedKeys = new Set<string>();
  let bytes = 0;
  let lastSweep = now();
  // A page rendered while something it shows changed may show the old state: it is not kept. Changes
  // are ordered by `tick`; a render remembers the tick it started at.
  let tick = 0;
  const userChangedAt = new Map<string, number>();
  /** Users' change ticks forgotten (to bound the map) are taken to be at most this recent. */
  let forgottenChangesUpTo = 0;
  let sharedChangedAt = 0;
  let everythingChangedAt = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    sharedKeys.delete(key);
    bytes -= entry.bytes;
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
    const ofSession = keysOfSession.get(entry.token);
    if (ofSession) {
      const at = ofSession.indexOf(key);
      if (at !== -1) ofSession.splice(at, 1);
      if (ofSession.length === 0) keysOfSession.delete(entry.token);
    }
  };

  const forgetShared = () => {
    sharedChangedAt = ++tick;
    for (const key of sharedKeys) remove(key);
  };

  const forgetUser = (userId: string) => {
    forgetShared();
    if (userChangedAt.size >= MAX_TRACKED_CHANGES) {
      forgottenChangesUpTo = tick;
      userChangedAt.clear();
    }
    userChangedAt.set(userId, ++tick);
    for (const key of keysOfUser.get(userId) ?? []) remove(key);
  };

  /** Nothing the pending page shows changed since it started rendering. */
  const unchanged = (pending: Pending, shared: boolean) =>
    everythingChangedAt <= pending.startedAt &&
    (userChangedAt.get(pending.session.user.id) ?? forgottenChangesUpTo) <= pending.startedAt &&
    (!shared || sharedChangedAt <= pending.startedAt) &&
    options.session(pending.token) === pending.session;

  /** Expired answers are dropped every half minute, not only when memory runs short. */
  const sweep = () => {
    const at = now();
    if (at - lastSweep < MAX_AGE_MS / 2) return;
    lastSweep = at;
    for (const [key, entry] of entries) if (entry.validUntil <= at) remove(key);
  };

  /** The signed session token of a request that may be answered from memory, and its key. */
  const lookup = (req: IncomingMessage) => {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const url = requestedUrl(req);
    if (!cacheablePath(url)) return null;
    const cookie = req.headers.cookie;
    if (!cookie || hasToastCookie(cookie)) return null;
    const cookies = parseCookieHeader(cookie);
    if (cookies.has(options.cookies.sessionData)) return null;
    const token = cookies.get(options.cookies.sessionToken);
    if (!token) return null;
    return { token, key: `${token} ${url}` };
  };

  const serve: SignedInPageCache["serve"] = (req, res, requestId) => {
    if (entries.size === 0) return null;
    const found = lookup(req);
    if (!found) return null;
    const entry = entries.get(found.key);
    if (!entry) return null;
    if (entry.validUntil <= now() || options.session(found.token) !== entry.session) {
      remove(found.key);
      return null;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity") return null;
    return writeAnswer(req, res, 200, entry[encoding], requestId);
  };

  const mark: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      // A form post may change what the user's pages show (and an admin's, what a customer's show):
      // nothing rendered before or during it is reused, here at once (the triggers' notification
      // tells the other instances).
      const token = sessionToken(req.headers.cookie, options.cookies.sessionToken);
      const customer = ADMIN_USER_ACTION.exec(req.path)?.[1];
      if (token || customer) {
        const forget = () => {
          const userId = token ? options.session(token)?.user.id : undefined;
          if (userId) forgetUser(userId);
          if (customer) forgetUser(customer);
          if (!userId && !customer) everythingChangedAt = ++tick;
        };
        forget();
        res.once("finish", forget);
        res.once("close", forget);
      }
      return next();
    }
    // Only a GET's body is the page (a HEAD's answer has none to keep).
    const found = req.method === "GET" ? lookup(req) : null;
    const session = found && options.session(found.token);
    if (found && session) {
      const pending: Pending = { key: found.key, token: found.token, session, startedAt: tick };
      res.locals.signedInPageCache = pending;
    }
    next();
  };

  const capture: RequestHandler = (_req, res, next) => {
    const pending = res.locals.signedInPageCache as Pending | undefined;
    if (!pending) return next();
    res.setHeader("X-Cache", "MISS");
    captureBody(res, (identity) => {
      const until = Math.min(Number(res.locals.reuseUntil ?? 0), now() + MAX_AGE_MS);
      const shared = res.locals.reuseShared === true;
      if (!storable(res) || until <= now() || !unchanged(pending, shared)) return;
      const kept = keptHeaders(res, identity.toString("utf8"));
      if (!kept) return;
      void Promise.all([gzip(identity, { level: 6 }), brotliAt(identity, 5)]).then(([gzipped, brotlied]) => {
        if (!unchanged(pending, shared)) return;
        sweep();
        remove(pending.key);
        const entry = makeEntry(pending, kept, until, shared, { gzip: exact(gzipped), br: exact(brotlied) });
        if (entry.bytes > maxBytes) return;
        // A session keeps its few latest answers; the cache its latest within its memory.
        const ofSession = keysOfSession.get(entry.token) ?? [];
        while (ofSession.length >= MAX_ANSWERS_PER_SESSION) remove(ofSession[0]!);
        while (bytes + entry.bytes > maxBytes) remove(entries.keys().next().value!);
        entries.set(entry.key, entry);
        if (shared) sharedKeys.add(entry.key);
        bytes += entry.bytes;
        const keys = keysOfUser.get(entry.userId) ?? new Set<string>();
        keys.add(entry.key);
        keysOfUser.set(entry.userId, keys);
        ofSession.push(entry.key);
        keysOfSession.set(entry.token, ofSession);
      });
    });
    next();
  };

  return {
    serve,
    mark,
    capture,
    forgetUser,
    forgetShared,
    forgetAll: () => {
      everythingChangedAt = ++tick;
      entries.clear();
      keysOfUser.clear();
      keysOfSession.clear();
      sharedKeys.clear();
      bytes = 0;
    },
    size: () => entries.size,
  };
}
