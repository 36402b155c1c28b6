import { outboundRequest } from "../outbound/outbound-request.server";

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
 * POSTs the body with its signature through the outbound rules (outbound-request.server.ts: no
 * redirects followed, in production https only and no internal address); the answer read up to an
 * excerpt.
 */
export async function postWebhook(
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
  const requestHeaders = {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  };
  try {
    return await outboundRequest(
      url,
      { method: "POST", headers: requestHeaders, body, strict, timeoutMs: TIMEOUT_MS },
      async (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res as AsyncIterable<Buffer>) {
          if (size < EXCERPT_CHARS * 4) chunks.push(chunk);
          size += chunk.length;
        }
        const status = res.statusCode ?? 0;
        const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
        const ok = status >= 200 && status < 300;
        return done({ ok, status, error: ok ? null : `HTTP ${status}`, excerpt });
      },
    );
  } catch (error) {
    return done({
      ok: false,
      status: null,
      error: error instanceof Error ? error.message : String(error),
      excerpt: null,
    });
  }
}
