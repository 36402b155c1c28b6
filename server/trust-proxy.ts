import type { RequestHandler } from "express";
import type { Logger } from "pino";

/** TRUST_PROXY as Express's `trust proxy` setting: `true`/`false`, a hop count, or addresses. */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  const hops = Number(value);
  return Number.isInteger(hops) ? hops : value;
}

export const TRUST_PROXY_UNSET_WARNING =
  "Requests carry X-Forwarded-Proto but TRUST_PROXY is not set: behind a TLS-terminating proxy or load balancer, " +
  "set TRUST_PROXY to the number of proxies in front of the site (e.g. 1) or their addresses, so client addresses " +
  "(rate limits, logs) and https are seen correctly.";

export const TRUST_PROXY_TRUE_WARNING =
  "TRUST_PROXY=true trusts every X-Forwarded-For entry, which clients can forge to escape per-IP rate limits: " +
  "set the number of proxies in front of the site (e.g. 1) or their addresses instead.";

let warned = false;

/** Logs once per process when a proxy seems to be in front of the site but TRUST_PROXY is unset. */
export function trustProxyWarning(logger: Logger, trustProxy: string | undefined): RequestHandler {
  if (trustProxy === "true") logger.warn(TRUST_PROXY_TRUE_WARNING);
  return (req, _res, next) => {
    if (!trustProxy && !warned && req.headers["x-forwarded-proto"] !== undefined) {
      warned = true;
      logger.warn(TRUST_PROXY_UNSET_WARNING);
    }
    next();
  };
}
