import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import type { Env } from "../app/server/env.server";

/**
 * One origin check for every request that changes something (decision 0055): a POST, PUT, PATCH or
 * DELETE sent by a page of another origin (a sibling subdomain included: SameSite cookies do not stop
 * it) is refused with 403 before any body is read or any route runs, pages, `.data` requests and
 * resource routes alike. React Router's own check covers only actions of routes with a component;
 * this one covers every route. Mounted after the desktop API (`/api/v1`: bearer or key, no cookies).
 */

export const FOREIGN_ORIGIN_MESSAGE =
  "Refused: this request was sent from another site. Open this site's own page and send the form from there.";

/** Methods that change nothing, never checked. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Server-to-server endpoints that prove themselves with a signature or a secret, never with a
 * cookie: a foreign Origin gives them nothing to abuse (Paddle's webhook, `npm run demo:renew`).
 */
const SIGNED_ENDPOINTS = new Set(["/api/webhooks/paddle", "/api/demo/renew"]);

/** The origin (`scheme://host[:port]`) of a header's URL, or null when it is `null` or not a URL. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a state-changing request came from another origin, by what a browser sends:
 * - `Origin` (every browser sends it on a cross-origin POST, and on same-origin ones too): it must be
 *   one of `site`; `null` (a sandboxed frame, a privacy redirect) and anything unreadable are foreign.
 * - no `Origin`: `Sec-Fetch-Site` other than `same-origin` or `none` is foreign; else a `Referer`
 *   must be of the site.
 * - none of them: not a browser's cross-site request (curl, a script, an old browser on the site's own
 *   page), which carries no victim's cookie by accident: let through.
 */
export function isForeignRequest(headers: IncomingHttpHeaders, site: (origin: string) => boolean): boolean {
  const origin = single(headers.origin);
  if (origin !== undefined) {
    const parsed = originOf(origin);
    return parsed === null || !site(parsed);
  }
  const fetchSite = single(headers["sec-fetch-site"]);
  if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const referer = single(headers.referer);
  if (referer === undefined) return false;
  const parsed = originOf(referer);
  return parsed === null || !site(parsed);
}

/**
 * The site's own origins: PUBLIC_URL's (behind a proxy, the address browsers use). Outside production
 * rules (embedded mode: a demo on `127.0.0.1` or a LAN address, `npm run dev`) the address the request
 * was sent to counts too; in production only PUBLIC_URL does.
 */
export function siteOrigins(env: Pick<Env, "PUBLIC_URL" | "embedded">) {
  const publicOrigin = new URL(env.PUBLIC_URL).origin;
  return (origin: string, requestOrigin: string | null): boolean =>
    origin === publicOrigin || (env.embedded && requestOrigin !== null && origin === requestOrigin);
}

/** The Express middleware: 403 with a plain message for a foreign state-changing request. */
export function originGuard(env: Pick<Env, "PUBLIC_URL" | "embedded">): RequestHandler {
  const isSite = siteOrigins(env);
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || SIGNED_ENDPOINTS.has(req.path)) return next();
    const host = req.headers.host;
    const requestOrigin = host ? originOf(`${req.protocol}://${host}`) : null;
    if (!isForeignRequest(req.headers, (origin) => isSite(origin, requestOrigin))) return next();
    res.status(403).set("Cache-Control", "no-store");
    if (req.path.startsWith("/api/")) res.json({ error: FOREIGN_ORIGIN_MESSAGE });
    else res.type("text/plain").send(FOREIGN_ORIGIN_MESSAGE);
  };
}
