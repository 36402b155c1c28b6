import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import type { Logger } from "pino";
import { ApiInputError, inputErrorBody, readQuery } from "../app/server/license-api/api-input.server";
import { hitApiRateLimit } from "../app/server/license-api/api-rate-limit.server";
import { keysAnswer, validateAnswer, type DesktopRequestState } from "../app/server/license-api/desktop-answers.server";
import type { RateLimitResult } from "../app/server/auth/rate-limit.server";
import { answer, API_BODY_LIMIT, readBody, sendAnswer, tooMany } from "./api-answer";
import type { Metrics } from "./metrics";
import { logRequest } from "./request-log";
import type { SetHeaders } from "./security-headers";

/**
 * The desktop tool's most frequent requests, `POST /api/v1/licenses/validate` and `GET /api/v1/keys`,
 * answered by the HTTP listener before Express (decision 0051), with the answers, headers, rate
 * limits, request log and metrics Express's stack (request log, helmet, api-v1.ts) gives them. Only
 * the plain form of each request comes here: the exact path, no cookie (a post with a session
 * forgets the user's cached pages: Express does that), a POST's body with a Content-Length within
 * the API's limit (an oversized or chunked body is refused by Express's body limit). Everything else,
 * HEAD included, goes on to Express as before.
 */

const VALIDATE = "/api/v1/licenses/validate";
const KEYS = "/api/v1/keys";
const NOT_LIMITED: RateLimitResult = { limited: false, retryAfter: 0 };

/** One request on the fast path: what Express keeps in `req`, `res.locals` (the nonce, the deferred IP) and `req.route`. */
interface Exchange extends DesktopRequestState {
  req: IncomingMessage;
  res: ServerResponse;
  ip: string;
  /** The route pattern metrics name the request by, once the route was reached (Express's `req.route`). */
  route: string;
}

export interface ApiFastPathOptions {
  /** The Express app: its `trust proxy` setting decides the client IP, as `req.ip` does. */
  app: express.Express;
  logger: Logger;
  metrics: Metrics | null;
  /** The security headers Express's helmet sets (`capturedHeaders`). */
  securityHeaders: SetHeaders;
}

/** The request's route on the fast path, or null when Express answers it. */
function fastRoute(req: IncomingMessage): ((x: Exchange) => Promise<void>) | null {
  if (req.headers.cookie !== undefined) return null;
  const url = req.url!;
  if (req.method === "POST" && url === VALIDATE) {
    const declared = req.headers["content-length"];
    const plain = declared !== undefined && req.headers["transfer-encoding"] === undefined;
    return plain && Number(declared) <= API_BODY_LIMIT ? validate : null;
  }
  if (req.method === "GET" && (url === KEYS || url.startsWith(`${KEYS}?`))) return keys;
  return null;
}

/** `req.ip` as Express computes it (its own getter, with the app's `trust proxy` setting). */
function clientIpOf(app: express.Express): (req: IncomingMessage) => string {
  const ip = Object.getOwnPropertyDescriptor(express.request, "ip")!.get!;
  return (req) =>
    (ip.call({ app, headers: req.headers, socket: req.socket, connection: req.socket }) as string | undefined) ??
    req.socket.remoteAddress ??
    "unknown";
}

/**
 * The listener's fast path: true when it took the request (answered now or once its body and the
 * database have answered), false when Express is to answer it. `id` and `started` are the request
 * log's, as the front door gives them to Express.
 */
export function apiFastPath(options: ApiFastPathOptions) {
  const clientIp = clientIpOf(options.app);
  const { logger, metrics } = options;
  return (req: IncomingMessage, res: ServerResponse, id: string, started: bigint): boolean => {
    const route = fastRoute(req);
    if (!route) return false;
    const x: Exchange = { req, res, ip: clientIp(req), ipDeferred: false, route: "/api/v1/*" };
    res.setHeader("X-Request-Id", id);
    options.securityHeaders(res);
    const path = req.url!.split("?")[0]!;
    res.once("finish", () => {
      metrics?.answered(req.method, x.route, res.statusCode, started);
      logRequest(logger, id, req.method, path, res.statusCode, started, Number(res.getHeader("content-length") ?? 0));
    });
    route(x).catch((error: unknown) => failed(x, error, logger));
    return true;
  };
}

/** api-v1.ts's `countDeferredIp`: a key path's request that ended before its key was counted. */
async function countDeferredIp(x: Exchange): Promise<RateLimitResult> {
  if (!x.ipDeferred) return NOT_LIMITED;
  x.ipDeferred = false;
  return hitApiRateLimit(x.ip);
}

/** api-v1.ts's error handler. */
async function failed(x: Exchange, error: unknown, logger: Logger): Promise<void> {
  if (x.res.headersSent) return;
  const ip = await countDeferredIp(x).catch(() => NOT_LIMITED);
  if (ip.limited) return void tooMany(x.res, ip.retryAfter, x.apiNonce);
  if (error instanceof ApiInputError) {
    answer(x.res, 400, inputErrorBody(error), x.apiNonce);
    return;
  }
  logger.error({ err: error, path: x.req.url!.split("?")[0] }, "desktop API request failed");
  answer(x.res, 500, { error: "Something went wrong on our side. Please try again." }, x.apiNonce);
}

/** POST /api/v1/licenses/validate, as api-v1.ts's route (and the middleware before it) answers it. */
async function validate(x: Exchange): Promise<void> {
  // A key path: the client IP is counted with the key once the body is read (decision 0048).
  x.ipDeferred = true;
  x.route = VALIDATE;
  const raw = await readBody(x.req);
  if (raw === null) {
    void countDeferredIp(x).catch(() => {});
    return;
  }
  sendAnswer(x.res, await validateAnswer(raw, x.ip, x), x.apiNonce);
}

/** GET /api/v1/keys: the client IP counted, then the answer api-v1.ts's route gives. */
async function keys(x: Exchange): Promise<void> {
  const { limited, retryAfter } = await hitApiRateLimit(x.ip);
  if (limited) return void tooMany(x.res, retryAfter);
  // Express checks every path's query before the route is reached (metrics name it by then).
  readQuery(x.req.url!);
  x.route = KEYS;
  sendAnswer(x.res, keysAnswer(x.req.url!, x), x.apiNonce);
}
