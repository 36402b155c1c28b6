import type { RequestHandler } from "express";
import { hasSessionCookie } from "./names.server";

/**
 * Pages that show license keys, profile, admin, team or mailbox data (and their `.data` requests);
 * `/team/invitation` shows the team and the invited address to anyone with the link, `/email-change` and
 * `/email-confirmation` the account's addresses.
 */
const PRIVATE_PAGES =
  /^\/(licenses|billing|profile|admin|extend-license|success|team|dev\/mailbox|email-change|email-confirmation)(\.data|\/|$)/;

/**
 * `Cache-Control: private, no-store` on every page answer that may hold someone's data: any
 * response to a request carrying a session cookie, and every response of the private pages
 * (the dev mailbox has no session). A route that already says `no-store` keeps its own value;
 * anything weaker (a public page's `max-age`) is replaced. Mounted after the static files, so
 * hashed assets stay cacheable for signed-in users.
 */
export function privateCache(): RequestHandler {
  return (req, res, next) => {
    if (!hasSessionCookie(req.headers.cookie) && !PRIVATE_PAGES.test(req.path)) {
      next();
      return;
    }
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: unknown[]) {
      const current = String(res.getHeader("Cache-Control") ?? "");
      if (!/(^|,)\s*no-store\s*(,|$)/i.test(current)) res.setHeader("Cache-Control", "private, no-store");
      return (writeHead as (...a: unknown[]) => typeof res).apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}
