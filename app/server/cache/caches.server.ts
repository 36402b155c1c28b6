import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/client.server";
import { listenForChanges } from "./change-listener.server";
import { PUBLIC_PAGES_CHANNEL, SESSIONS_CHANNEL, USER_CHANGES_CHANNEL } from "./names.server";
import { createPageCache } from "./page-cache.server";
import { privateCache } from "./private-cache.server";
import { onPublicPagesChanged } from "./public-pages.server";
import { cachedSession, forgetSessionsOf, setSessionCacheEnabled } from "./session-cache.server";
import { createSignedInPageCache } from "./signed-in-page-cache.server";

// The caches' entry point (docs/caching.md): the server wires them up with `createCaches`, and app code
// announces its changes and reads remembered sessions through the functions exported below. The other
// modules of this folder are the caches' own.
export { announcePublicPagesChange, publicPagesChangedHere } from "./public-pages.server";
export {
  announceSessionChange,
  cachedSession,
  forgetSessionsOf,
  rememberSession,
  sessionCacheGeneration,
} from "./session-cache.server";
export { hasSessionCookie, SESSIONS_CHANNEL, TOAST_COOKIE } from "./names.server";

export interface CachesOptions {
  /** PostgreSQL's address: other app servers' changes are heard there (none with the embedded engine). */
  databaseUrl: string | undefined;
  database: DatabaseHandle;
  /** Better Auth's cookie names: the signed session token, and the session-data cookie. */
  cookies: { sessionToken: string; sessionData: string };
  logger: Logger;
  /** The header in which the proxy names the visitor's country (COUNTRY_HEADER): /pricing is kept per country. */
  countryHeader?: string;
}

export interface Caches {
  /**
   * Answers a request from memory at the HTTP server's level (anonymous public pages, then a
   * session's own pages), or returns null and writes nothing.
   */
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => { status: number; bytes: number } | null;
  /** Before anything else in Express: marks the requests whose rendered page is to be kept. */
  mark: RequestHandler[];
  /** After compression: keeps the marked requests' pages. */
  capture: RequestHandler[];
  /** Before the routes: `Cache-Control: private, no-store` on every answer that may hold someone's data. */
  privateCache: RequestHandler;
  /**
   * The LISTEN connection other app servers' changes arrive on (PostgreSQL): listening or down;
   * "embedded" with PGlite (one process, its notifications arrive in it).
   */
  listener: () => "listening" | "down" | "embedded";
  /** Stops listening and forgets everything. */
  close: () => Promise<void>;
}

/**
 * The page cache, the signed-in page cache and the session cache of this process, and what makes
 * them forget: a release (public pages), a user's change (their sessions and pages, announced by the
 * database's triggers), and a lost LISTEN connection (everything).
 */
export async function createCaches(options: CachesOptions): Promise<Caches> {
  // Anonymous visitors' public pages from memory, before any other work is done for them.
  const pageCache = createPageCache({ countryHeader: options.countryHeader });
  // A session's own pages (and the admin area) from memory while nothing on them changed (decision 0028).
  const signedInPages = createSignedInPageCache({ cookies: options.cookies, session: cachedSession });
  // A user's row changed in the database, by whatever means (a script's SQL as much as the app): their
  // remembered sessions (role, name, two-factor, ended sessions) and their pages are forgotten.
  const userChanged = (userId: string) => {
    if (userId) forgetSessionsOf(userId);
    signedInPages.forgetUser(userId);
  };
  // A release changed: the public pages and the admin pages show releases.
  const publicPagesChanged = () => {
    pageCache.invalidate();
    signedInPages.forgetShared();
  };
  const stopListening = onPublicPagesChanged(publicPagesChanged);
  let listening = false;
  // What other app servers change reaches this one through PostgreSQL's LISTEN/NOTIFY; while that
  // connection is down, cached pages are forgotten and sessions are not remembered at all. The
  // embedded database has one process: every change is made here, and its user-change triggers'
  // notifications arrive as each change commits.
  const listener = options.databaseUrl
    ? await listenForChanges(
        options.databaseUrl,
        {
          [PUBLIC_PAGES_CHANNEL]: publicPagesChanged,
          [SESSIONS_CHANNEL]: forgetSessionsOf,
          [USER_CHANGES_CHANNEL]: userChanged,
        },
        (connected) => {
          listening = connected;
          if (!connected) {
            pageCache.invalidate();
            signedInPages.forgetAll();
          }
          setSessionCacheEnabled(connected);
        },
        options.logger,
      )
    : null;
  const pglite = options.database.pglite;
  const stopEmbeddedListener = pglite ? await pglite.listen(USER_CHANGES_CHANNEL, userChanged) : null;
  if (!listener) setSessionCacheEnabled(true);

  return {
    serve: (req, res, requestId) => pageCache.serve(req, res, requestId) ?? signedInPages.serve(req, res, requestId),
    mark: [pageCache.mark, signedInPages.mark],
    capture: [pageCache.capture, signedInPages.capture],
    privateCache: privateCache(),
    listener: () => (listener ? (listening ? "listening" : "down") : "embedded"),
    close: async () => {
      stopListening();
      await listener?.close();
      await stopEmbeddedListener?.().catch(() => {});
      signedInPages.forgetAll();
      setSessionCacheEnabled(false);
    },
  };
}
