import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { guardedLookup } from "./webhook-address.server";

/** What one POST to an endpoint gave: a 2xx is a delivery; anything else, or no answer, a failure. */
export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

const TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 500;

/**
 * POSTs the body with its signature; no redirects followed; the answer read up to an excerpt. In
 * production the connection's DNS lookup refuses internal addresses (webhook-address.server.ts).
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  { strict }: { strict: boolean },
): Promise<PostResult> {
  const started = Date.now();
  const done = (partial: Omit<PostResult, "durationMs">): PostResult => ({
    ...partial,
    durationMs: Date.now() - started,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done({ ok: false, status: null, error: "invalid URL", excerpt: null }));
    }
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers },
      timeout: TIMEOUT_MS,
      lookup: guardedLookup(strict),
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < EXCERPT_CHARS * 4) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
        const ok = status >= 200 && status < 300;
        resolve(done({ ok, status, error: ok ? null : `HTTP ${status}`, excerpt }));
      });
      res.on("error", (error) =>
        resolve(done({ ok: false, status: res.statusCode ?? null, error: error.message, excerpt: null })),
      );
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} seconds`)));
    req.on("error", (error) => resolve(done({ ok: false, status: null, error: error.message, excerpt: null })));
    req.end(body);
  });
}
