import type { IncomingMessage, ServerResponse } from "node:http";
import type { DesktopAnswer } from "../app/server/license-api/desktop-answers.server";
import { signatureHeader, signingKeys } from "../app/server/license-api/signing.server";
import { FORM_BODY_LIMIT } from "./body-limit";

/** How the API (/api/v1) answers and reads bodies: shared by its routers (api-v1.ts, api-v1-releases.ts). */

export const API_BODY_LIMIT = FORM_BODY_LIMIT;

export type Body = Record<string, unknown>;

/** Sends a body as JSON with its Signature header (no ETag, no 304: the signed bytes always go out). */
export function sendSigned<R extends ServerResponse>(res: R, status: number, body: unknown): R {
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", bytes.length);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Signature", signatureHeader(signingKeys(), bytes));
  res.end(bytes);
  return res;
}

/**
 * An answer of the endpoints: the body, then the request's nonce (when it sent one) and issued_at.
 * Express's routes pass the response alone (the nonce is `res.locals.apiNonce`); the listener's fast
 * path (api-fast-path.ts) passes its own.
 */
export function answer<R extends ServerResponse>(
  res: R,
  status: number,
  body: Body,
  nonce = (res as ServerResponse & { locals?: { apiNonce?: string } }).locals?.apiNonce,
): R {
  return sendSigned(res, status, {
    ...body,
    ...(nonce !== undefined ? { nonce } : {}),
    issued_at: new Date().toISOString(),
  });
}

/** The 429 of a rate limit: Retry-After and a signed error. */
export function tooMany<R extends ServerResponse>(res: R, retryAfter: number, nonce?: string): R {
  res.setHeader("Retry-After", String(retryAfter));
  return answer(res, 429, { error: `Too many requests. Try again in ${retryAfter} seconds.` }, nonce);
}

/** The request body (read here, at most API_BODY_LIMIT), or null when the body limit refused it (413 sent). */
export function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | null) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= API_BODY_LIMIT) chunks.push(chunk);
    });
    req.on("end", () => settle(size <= API_BODY_LIMIT ? Buffer.concat(chunks) : null));
    req.on("error", () => settle(null));
    req.on("close", () => settle(null));
  });
}

/** Sends a decided answer (app/server/license-api/desktop-answers.server.ts): its body, or the 429 of a rate limit. */
export function sendAnswer<R extends ServerResponse>(res: R, decided: DesktopAnswer, nonce?: string): R {
  if (decided.status === 429) return tooMany(res, decided.retryAfter, nonce);
  return answer(res, decided.status, decided.body, nonce);
}
