import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { oauthFormOrigins } from "../app/server/auth/oauth-providers.server";
import type { Env } from "../app/server/env.server";

/** A fresh CSP nonce per request (`res.locals.cspNonce`): the page's inline scripts carry it. */
export function nonce(_req: Request, res: Response, next: NextFunction): void {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

/**
 * The security headers of every answer (helmet): the Content-Security-Policy (this request's nonce,
 * Paddle's origins when it takes payments, the tutorial video's, the OAuth providers' form targets),
 * HSTS in production, and a referrer policy that keeps native form posts' Origin.
 */
export function securityHeaders(env: Env, dev: boolean): RequestHandler {
  const paddle = env.PAYMENT_PROVIDER === "paddle";
  const video = new URL(env.TUTORIAL_VIDEO_URL).origin;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'", ...oauthFormOrigins(env)],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`,
          ...(paddle ? ["https://cdn.paddle.com"] : []),
        ],
        styleSrc: ["'self'", "'unsafe-inline'", ...(paddle ? ["https://cdn.paddle.com"] : [])],
        imgSrc: ["'self'", "data:", ...(paddle ? ["https://cdn.paddle.com"] : [])],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(dev ? ["ws:", "wss:"] : []), ...(paddle ? ["https://*.paddle.com"] : [])],
        frameSrc: [video, ...(paddle ? ["https://*.paddle.com"] : [])],
        ...(env.embedded ? {} : { upgradeInsecureRequests: [] }),
      },
    },
    strictTransportSecurity: env.embedded ? false : { maxAge: 63072000, includeSubDomains: true },
    // helmet's default (no-referrer) makes browsers send `Origin: null` on native form posts,
    // which React Router refuses: forms submitted before the scripts load would fail. This policy
    // still sends only the origin to other sites.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}

const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let taken = POOL_NONCES;

/** 16 random bytes in base64 as `nonce` makes them, cut from a pool refilled by randomBytes (one call per 256). */
function pooledNonce(): string {
  if (taken === POOL_NONCES) {
    pool = randomBytes(16 * POOL_NONCES);
    taken = 0;
  }
  const at = 16 * taken++;
  return pool.toString("base64", at, at + 16);
}

/** Sets a middleware's headers on an answer made without Express, with a fresh CSP nonce. */
export type SetHeaders = (res: ServerResponse) => void;

/**
 * The headers `middleware` (helmet: `securityHeaders`) sets, captured once by running it on a stand-in
 * response, for answers the HTTP listener makes before Express (decision 0051): the same names,
 * values and order, the CSP's nonce a fresh one each time as `nonce` makes it.
 */
export function capturedHeaders(middleware: RequestHandler): SetHeaders {
  const mark = randomBytes(16).toString("base64");
  const headers = new Map<string, [string, string]>();
  const res = {
    locals: { cspNonce: mark },
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  let finished = false;
  void middleware({} as Request, res as unknown as Response, () => (finished = true));
  if (!finished) throw new Error("The security headers' middleware must set its headers at once");
  const list = [...headers.values()].map(([name, value]) => ({ name, value, nonced: value.includes(mark) }));
  return (answer) => {
    const fresh = pooledNonce();
    for (const { name, value, nonced } of list) answer.setHeader(name, nonced ? value.replaceAll(mark, fresh) : value);
  };
}
