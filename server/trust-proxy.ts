import type { IncomingMessage } from "node:http";
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

/**
 * Logs once per process when a proxy seems to be in front of the site but TRUST_PROXY is unset: a
 * check of one request's headers (for the HTTP server, before the page cache answers), and the same
 * as Express middleware.
 */
export function trustProxyCheck(logger: Logger, trustProxy: string | undefined): (req: IncomingMessage) => void {
  if (trustProxy === "true") logger.warn(TRUST_PROXY_TRUE_WARNING);
  if (trustProxy) return () => {};
  return (req) => {
    if (!warned && req.headers["x-forwarded-proto"] !== undefined) {
      warned = true;
      logger.warn(TRUST_PROXY_UNSET_WARNING);
    }
  };
}
