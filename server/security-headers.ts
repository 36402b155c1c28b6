import { randomBytes } from "node:crypto";
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
