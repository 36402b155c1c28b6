import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Response } from "express";

/**
 * What both page caches (page-cache.server.ts, signed-in-page-cache.server.ts) do alike: capture the
 * body a route rendered, keep the headers it may be served again with (its CSP's nonce replaced by
 * the hashes of its inline scripts), compress it, and pick the encoding a client takes.
 */

export const gzip = promisify(zlib.gzip);
export const brotli = promisify(zlib.brotliCompress);
/** Brotli at a quality (0–11): the public pages are compressed once at 11, signed-in pages at 5. */
export function brotliAt(body: Buffer, quality: number): Promise<Buffer> {
  return brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } });
}

/** The URL as asked for: Express may have rewritten req.url under a mount path, not originalUrl. */
export function requestedUrl(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "";
}

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

/** An answer kept in memory: its header list (name, value, name, value…) made once, and its body. */
export interface StoredAnswer {
  headers: string[];
  body: Buffer | null;
}

/** The kept headers as a header list, followed by the cache's own. */
export function headerList(kept: [string, string][], ...own: string[]): string[] {
  const list: string[] = [];
  for (const [name, value] of kept) list.push(name, value);
  list.push(...own);
  return list;
}

/** Writes a stored answer with this request's X-Request-Id (no body for HEAD); returns the body's size. */
export function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  answer: StoredAnswer,
  requestId: string,
): { status: number; bytes: number } {
  const headers = answer.headers.slice();
  headers.push("X-Request-Id", requestId);
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : (answer.body ?? undefined));
  return { status, bytes: answer.body?.length ?? 0 };
}
