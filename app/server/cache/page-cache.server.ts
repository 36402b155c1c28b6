import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler, Response } from "express";
import {
  brotliAt,
  captureBody,
  chooseEncoding,
  gzip,
  headerList,
  keptHeaders,
  requestedUrl,
  writeAnswer,
  type StoredAnswer,
} from "./capture.server";
import { hasSessionCookie, hasToastCookie } from "./names.server";
import { parseCountry } from "~/domain/countries";
import { recordCacheLookup } from "../metrics/record.server";

/** The public pages an anonymous visitor may get from memory (the same HTML for everyone). */
export const CACHED_PAGES = new Set([
  "/",
  "/download",
  "/pricing",
  "/contact",
  "/release-notes",
  "/privacy-policy",
  "/terms-of-service",
  "/refund-policy",
]);

/**
 * The public pages that show prices in the visitor's country (decision 0072): kept once per country the
 * proxy's header (COUNTRY_HEADER) names, and once for visitors whose country is unknown.
 */
const PAGES_BY_COUNTRY = new Set(["/pricing"]);

/** A CDN may keep a page a minute and serve it stale while it asks again. */
const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
/** A safety net only: every change that shows on these pages invalidates them at once. */
const MAX_AGE_MS = 10 * 60 * 1000;

interface Entry {
  /** Header lists (name, value, name, value…) without X-Request-Id, one per answer, made once. */
  br: StoredAnswer;
  gzip: StoredAnswer;
  identity: StoredAnswer;
  notModified: StoredAnswer;
  etag: string;
  storedAt: number;
}

export interface PageCache {
  /**
   * Answers a request from memory at the HTTP server's level, before Express and any other work (no
   * body parsing, session lookup or rendering). `requestId` is the request's X-Request-Id. Returns
   * the status and body size it answered with (for the request log), or null when the request is
   * not one the cache answers (then nothing was written).
   */
  serve: (req: IncomingMessage, res: ServerResponse, requestId: string) => { status: number; bytes: number } | null;
  /** Marks a cacheable request that missed, so that `capture` keeps its rendered page (Express). */
  mark: RequestHandler;
  /** After compression: keeps the page a cacheable request rendered, for the next visitors. */
  capture: RequestHandler;
  /** Forgets every page (a release was added, edited or deleted). */
  invalidate: () => void;
  /** How many pages are held (for tests and /readyz). */
  size: () => number;
}

/**
 * Anonymous visitors' public pages, rendered once and served from memory, already compressed
 * (brotli or gzip by Accept-Encoding), with an ETag answered by 304. A request with a session or
 * flash-toast cookie, or a query string, is never served from the cache and never stored. The
 * stored page's inline scripts are allowed by their hashes in its Content-Security-Policy, so a
 * page served from memory needs no nonce (its nonce attributes are inert).
 */
export function createPageCache({
  now = () => Date.now(),
  countryHeader,
}: {
  now?: () => number;
  /** The header in which the proxy names the visitor's country (COUNTRY_HEADER), if any. */
  countryHeader?: string;
} = {}): PageCache {
  const entries = new Map<string, Entry>();
  let generation = 0;

  const serve: PageCache["serve"] = (req, res, requestId) => {
    const key = cacheKey(req, countryHeader);
    if (!key) return null;
    const entry = entries.get(key);
    const fresh = entry !== undefined && now() - entry.storedAt <= MAX_AGE_MS;
    // A miss goes on to be rendered (and kept by `capture`).
    recordCacheLookup("page", fresh);
    if (!entry || !fresh) return null;
    const answer = matchesEtag(req.headers["if-none-match"], entry.etag)
      ? entry.notModified
      : entry[chooseEncoding(req.headers["accept-encoding"])];
    return writeAnswer(req, res, answer === entry.notModified ? 304 : 200, answer, requestId);
  };

  const mark: RequestHandler = (req, res, next) => {
    const key = cacheKey(req, countryHeader);
    if (key) res.locals.pageCache = { key, generation };
    next();
  };

  const capture: RequestHandler = (_req, res, next) => {
    const pending = res.locals.pageCache as { key: string; generation: number } | undefined;
    if (!pending) return next();
    res.setHeader("X-Cache", "MISS");
    captureBody(res, (identity) => {
      // A page rendered while part of it could not be had (prices from a provider that did not answer).
      if (!storable(res) || pending.generation !== generation || res.locals.keepOutOfPageCache === true) return;
      const headers = keptHeaders(res, identity.toString("utf8"));
      if (!headers) return;
      void Promise.all([gzip(identity, { level: 9 }), brotliAt(identity, 11)]).then(([gzipped, brotlied]) => {
        // A change while compressing makes this page stale: keep it only if nothing changed.
        if (pending.generation !== generation) return;
        // Two misses rendered at once: the first stored stays, so its ETag (the hash of one render,
        // nonces and all) keeps answering 304 instead of changing under a client that holds it.
        const stored = entries.get(pending.key);
        if (stored && now() - stored.storedAt <= MAX_AGE_MS) return;
        const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
        const vary =
          countryHeader && pending.key.includes("|") ? `Accept-Encoding, Cookie, ${countryHeader}` : undefined;
        entries.set(pending.key, makeEntry(headers, { identity, gzip: gzipped, br: brotlied }, etag, now(), vary));
      });
    });
    next();
  };

  return {
    serve,
    mark,
    capture,
    invalidate: () => {
      generation++;
      entries.clear();
    },
    size: () => entries.size,
  };
}

/** Every answer's headers, built once when the page is stored. */
function makeEntry(
  kept: [string, string][],
  bodies: { identity: Buffer; gzip: Buffer; br: Buffer },
  etag: string,
  storedAt: number,
  vary = "Accept-Encoding, Cookie",
): Entry {
  const common = headerList(
    kept,
    ...["Cache-Control", SHARED_CACHE_CONTROL, "Vary", vary, "ETag", etag, "X-Cache", "HIT"],
  );
  const answer = (body: Buffer, encoding: string | null): StoredAnswer => ({
    headers: [...common, ...(encoding ? ["Content-Encoding", encoding] : []), "Content-Length", String(body.length)],
    body,
  });
  return {
    br: answer(bodies.br, "br"),
    gzip: answer(bodies.gzip, "gzip"),
    identity: answer(bodies.identity, null),
    notModified: { headers: common, body: null },
    etag,
    storedAt,
  };
}

/**
 * The page's key when this request may be answered from the cache, else null: GET or HEAD of one of
 * the public pages, exactly (no query string), without a session or toast cookie. A page with prices
 * is keyed by the country `countryHeader` names too ("/pricing|DE"; "/pricing|" when it names none).
 */
export function cacheKey(req: IncomingMessage, countryHeader?: string): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const url = requestedUrl(req);
  if (!CACHED_PAGES.has(url)) return null;
  // Someone signed in, or a toast waiting to be shown: the page is theirs alone.
  if (hasSessionCookie(req.headers.cookie) || hasToastCookie(req.headers.cookie)) return null;
  if (!countryHeader || !PAGES_BY_COUNTRY.has(url)) return url;
  return `${url}|${parseCountry(req.headers[countryHeader.toLowerCase()]) ?? ""}`;
}

function storable(res: Response): boolean {
  return (
    res.statusCode === 200 &&
    !res.getHeader("set-cookie") &&
    String(res.getHeader("content-type") ?? "").startsWith("text/html")
  );
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || value === "*";
  });
}
