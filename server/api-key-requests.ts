import type { Request, Response } from "express";
import { parseJsonBody, readNonce } from "../app/server/license-api/api-input.server";
import {
  hitApiRateLimit,
  hitIpAndKeyRateLimits,
  hitKeyRateLimit,
} from "../app/server/license-api/api-rate-limit.server";
import { readBody, tooMany, type Body } from "./api-answer";

/**
 * What the desktop API's routes that name a license key share (server/api-v1.ts, server/api-v1-leases.ts):
 * the client IP, the JSON body with its nonce, and the key's rate limit counted with the deferred IP
 * (decision 0048).
 */

export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";

/** Counts the client IP of a key path's request that ended before its key was counted (bad input, 413). */
export async function countDeferredIp(req: Request, res: Response): Promise<{ limited: boolean; retryAfter: number }> {
  if (res.locals.ipDeferred !== true) return { limited: false, retryAfter: 0 };
  res.locals.ipDeferred = false;
  return hitApiRateLimit(clientIp(req));
}

/** The JSON body with its required nonce (read first, so that every later error echoes it); null when 413 was answered. */
export async function jsonBody(req: Request, res: Response): Promise<Body | null> {
  const raw = await readBody(req);
  if (raw === null) {
    // Answered 413 already; the request still counts against its client IP.
    void countDeferredIp(req, res).catch(() => {});
    return null;
  }
  const body = parseJsonBody(raw);
  res.locals.apiNonce = readNonce(body.nonce, { required: true });
  return body;
}

/**
 * Counts a request naming a license key against API_KEY_RATE_LIMIT, and against API_RATE_LIMIT
 * for its client IP when that was left to it (one statement for both: decision 0048); true when it
 * was answered 429.
 */
export async function keyLimited(key: string, req: Request, res: Response): Promise<boolean> {
  const deferred = res.locals.ipDeferred === true;
  res.locals.ipDeferred = false;
  const { limited, retryAfter } = deferred
    ? await hitIpAndKeyRateLimits(clientIp(req), key)
    : await hitKeyRateLimit(key);
  if (limited) tooMany(res, retryAfter);
  return limited;
}
