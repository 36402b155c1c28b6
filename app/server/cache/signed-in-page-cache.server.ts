import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { parseCookieHeader } from "../auth/auth-cookies.server";
import { brotliAt, captureBody, chooseEncoding, gzip, keptHeaders, requestedUrl, writeAnswer } from "./capture.server";
import { hasToastCookie } from "./names.server";
import { recordCacheLookup } from "../metrics/record.server";
import {
  cacheablePath,
  exact,
  makeEntry,
  sessionToken,
  storable,
  type Pending,
  type SessionRef,
} from "./signed-in-answers.server";
import { createAnswerStore, createChangeClock } from "./signed-in-store.server";

/** However long the route allows, an answer is rendered again after a minute at most. */
export const MAX_AGE_MS = 60_000;
/** Compressed answers kept in all (oldest forgotten first): a few thousand sessions' pages. */
const MAX_BYTES = 48 * 1024 * 1024;
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

type Store = ReturnType<typeof createAnswerStore>;
type Clock = ReturnType<typeof createChangeClock>;

/** What the request handlers share: the options, the memory, the change clock and the forgetting. */
interface Parts {
  options: SignedInPageCacheOptions;
  now: () => number;
  store: Store;
  clock: Clock;
  forgetUser: (userId: string) => void;
}

/** The signed session token of a request that may be answered from memory, and its key. */
function lookup(req: IncomingMessage, cookieNames: SignedInPageCacheOptions["cookies"]) {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const url = requestedUrl(req);
  if (!cacheablePath(url)) return null;
  const cookie = req.headers.cookie;
  if (!cookie || hasToastCookie(cookie)) return null;
  const cookies = parseCookieHeader(cookie);
  if (cookies.has(cookieNames.sessionData)) return null;
  const token = cookies.get(cookieNames.sessionToken);
  if (!token) return null;
  return { token, key: `${token} ${url}` };
}

function serveFrom({ options, now, store }: Parts): SignedInPageCache["serve"] {
  return (req, res, requestId) => {
    if (store.size() === 0) return null;
    const found = lookup(req, options.cookies);
    if (!found) return null;
    const entry = store.get(found.key);
    if (!entry) return null;
    if (entry.validUntil <= now() || options.session(found.token) !== entry.session) {
      store.remove(found.key);
      return null;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity") return null;
    recordCacheLookup("signed_in", true);
    return writeAnswer(req, res, 200, entry[encoding], requestId);
  };
}

function markWith({ options, clock, forgetUser }: Parts): RequestHandler {
  return (req, res, next) => {
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
          if (!userId && !customer) clock.everythingChanged();
        };
        forget();
        res.once("finish", forget);
        res.once("close", forget);
      }
      return next();
    }
    // Only a GET's body is the page (a HEAD's answer has none to keep), and only one a client takes
    // compressed: memory answers no other (`serve`), so nothing is compressed or kept for it.
    const compressed = chooseEncoding(req.headers["accept-encoding"]) !== "identity";
    const found = req.method === "GET" && compressed ? lookup(req, options.cookies) : null;
    const session = found && options.session(found.token);
    if (found && session) {
      const pending: Pending = { key: found.key, token: found.token, session, startedAt: clock.tick() };
      res.locals.signedInPageCache = pending;
      recordCacheLookup("signed_in", false);
    }
    next();
  };
}

function captureWith({ options, now, store, clock }: Parts): RequestHandler {
  /** Nothing the pending page shows changed since it started rendering. */
  const unchanged = (pending: Pending, shared: boolean) =>
    clock.unchangedSince(pending.startedAt, pending.session.user.id, shared) &&
    options.session(pending.token) === pending.session;
  return (_req, res, next) => {
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
        store.keep(makeEntry(pending, kept, until, shared, { gzip: exact(gzipped), br: exact(brotlied) }));
      });
    });
    next();
  };
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
  const store = createAnswerStore({ now, maxBytes: options.maxBytes ?? MAX_BYTES, sweepEveryMs: MAX_AGE_MS / 2 });
  const clock = createChangeClock();

  const forgetShared = () => {
    clock.sharedChanged();
    store.removeShared();
  };

  const forgetUser = (userId: string) => {
    forgetShared();
    clock.userChanged(userId);
    store.removeUser(userId);
  };

  const parts: Parts = { options, now, store, clock, forgetUser };
  return {
    serve: serveFrom(parts),
    mark: markWith(parts),
    capture: captureWith(parts),
    forgetUser,
    forgetShared,
    forgetAll: () => {
      clock.everythingChanged();
      store.clear();
    },
    size: store.size,
  };
}
