import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RequestHandler, Response } from "express";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

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

/** A CDN may keep a page a minute and serve it stale while it asks again. */
const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
/** A safety net only: every change that shows on these pages invalidates them at once. */
const MAX_AGE_MS = 10 * 60 * 1000;
/** Headers of the rendered page that are the request's own, or that the cache sets itself. */
const NOT_KEPT = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "date",
  "etag",
  "cache-control",
  "vary",
  "x-request-id",
  "x-cache",
  "content-security-policy",
]);

interface Entry {
  /** Header lists (name, value, name, value…) without X-Request-Id, one per answer, made once. */
  br: Answer;
  gzip: Answer;
  identity: Answer;
  notModified: Answer;
  etag: string;
  storedAt: number;
}

interface Answer {
  headers: string[];
  body: Buffer | null;
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
export function createPageCache({ now = () => Date.now() }: { now?: () => number } = {}): PageCache {
  const entries = new Map<string, Entry>();
  let generation = 0;

  const serve: PageCache["serve"] = (req, res, requestId) => {
    const key = cacheKey(req);
    if (!key) return null;
    const entry = entries.get(key);
    if (!entry || now() - entry.storedAt > MAX_AGE_MS) return null;
    const answer = matchesEtag(req.headers["if-none-match"], entry.etag)
      ? entry.notModified
      : entry[chooseEncoding(req.headers["accept-encoding"])];
    const status = answer === entry.notModified ? 304 : 200;
    const headers = answer.headers.slice();
    headers.push("X-Request-Id", requestId);
    res.writeHead(status, headers);
    res.end(req.method === "HEAD" ? undefined : (answer.body ?? undefined));
    return { status, bytes: answer.body?.length ?? 0 };
  };

  const mark: RequestHandler = (req, res, next) => {
    const key = cacheKey(req);
    if (key) res.locals.pageCache = { key, generation };
    next();
  };

  const capture: RequestHandler = (_req, res, next) => {
    const pending = res.locals.pageCache as { key: string; generation: number } | undefined;
    if (!pending) return next();
    res.setHeader("X-Cache", "MISS");
    captureBody(res, (identity) => {
      if (!storable(res) || pending.generation !== generation) return;
      const headers = keptHeaders(res, identity.toString("utf8"));
      if (!headers) return;
      void Promise.all([
        gzip(identity, { level: 9 }),
        brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      ]).then(([gzipped, brotlied]) => {
        // A change while compressing makes this page stale: keep it only if nothing changed.
        if (pending.generation !== generation) return;
        const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
        entries.set(pending.key, makeEntry(headers, { identity, gzip: gzipped, br: brotlied }, etag, now()));
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

/**
 * Calls `done` with the whole body a response sent (as the route wrote it, before compression when
 * mounted after the compression middleware) once it has been sent.
 */
export function captureBody(res: Response, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding as BufferEncoding | undefined));
  };
  res.write = function (chunk: unknown, ...rest: unknown[]) {
    keep(chunk, typeof rest[0] === "string" ? rest[0] : undefined);
    return write(chunk, ...rest);
  } as Response["write"];
  res.end = function (chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, typeof rest[0] === "string" ? rest[0] : undefined);
    return end(chunk, ...rest);
  } as Response["end"];
  res.once("finish", () => done(Buffer.concat(chunks)));
}

/** Every answer's headers, built once when the page is stored. */
function makeEntry(
  kept: [string, string][],
  bodies: { identity: Buffer; gzip: Buffer; br: Buffer },
  etag: string,
  storedAt: number,
): Entry {
  const common: string[] = [];
  for (const [name, value] of kept) common.push(name, value);
  common.push("Cache-Control", SHARED_CACHE_CONTROL, "Vary", "Accept-Encoding, Cookie", "ETag", etag, "X-Cache", "HIT");
  const answer = (body: Buffer, encoding: string | null): Answer => ({
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
 * the public pages, exactly (no query string), without a session or toast cookie.
 */
export function cacheKey(req: IncomingMessage): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  // Express may have rewritten req.url under a mount path; the original URL is what was asked for.
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "";
  if (!CACHED_PAGES.has(url)) return null;
  const cookie = req.headers.cookie ?? "";
  // Someone signed in, or a toast waiting to be shown: the page is theirs alone.
  if (cookie.includes("session_token") || cookie.includes("fk_toast")) return null;
  return url;
}

function storable(res: Response): boolean {
  return (
    res.statusCode === 200 &&
    !res.getHeader("set-cookie") &&
    String(res.getHeader("content-type") ?? "").startsWith("text/html")
  );
}

/**
 * The headers to serve the stored page with: the rendered page's own (security headers, type), and
 * its Content-Security-Policy with the nonce replaced by the hashes of the page's inline scripts.
 * Null when the page cannot be served without its nonce.
 */
export function keptHeaders(res: Response, html: string): [string, string][] | null {
  const csp = res.getHeader("content-security-policy");
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (NOT_KEPT.has(name) || value === undefined) continue;
    kept.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
  }
  if (csp === undefined) return kept;
  const hashes = inlineScriptHashes(html).map((hash) => `'${hash}'`);
  const policy = String(csp);
  if (!/'nonce-[^']*'/.test(policy)) return [...kept, ["content-security-policy", policy]];
  const hashed = policy.replace(/'nonce-[^']*'/, hashes.join(" ") || "'none'");
  return [...kept, ["content-security-policy", hashed]];
}

/** CSP hashes (sha256-…) of every inline script of a page: what its policy must allow. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    const content = match[2] ?? "";
    if (/(?:^|\s)src\s*=/i.test(attributes) || content.length === 0) continue;
    hashes.add(`sha256-${createHash("sha256").update(content, "utf8").digest("base64")}`);
  }
  return [...hashes];
}

/** br when the client takes it, else gzip, else the page as is (q=0 refuses an encoding). */
export function chooseEncoding(header: string | string[] | undefined): "br" | "gzip" | "identity" {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (allows("br")) return "br";
  if (allows("gzip")) return "gzip";
  return "identity";
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || value === "*";
  });
}
