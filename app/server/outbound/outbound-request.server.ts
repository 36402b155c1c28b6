import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { guardedLookup, isInternalAddress, OutboundRefused } from "./outbound-address.server";

/**
 * The one way the server fetches an address someone typed (decision 0055): webhook deliveries and
 * the installer's checksum. With the production rules (`strict`): https only and no internal address,
 * whether written as an IP literal or resolved for the connection (outbound-address.server.ts).
 * Always: http(s) only, no user name or password, no redirect followed (a 3xx is the answer), and
 * one time limit for the whole exchange; how much of the answer is read is the caller's `read`.
 */

export interface OutboundOptions {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** The production rules (outboundRulesStrict()). */
  strict: boolean;
  /** For the whole exchange: connecting, the answer and `read`. */
  timeoutMs: number;
}

/** Why the address may not be fetched, or null: its shape, then (strict) a literal internal address. */
export function outboundUrlProblem(url: URL, strict: boolean): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "only http:// and https:// addresses are fetched";
  if (strict && url.protocol !== "https:") return "only https:// addresses are fetched in production";
  if (url.username || url.password) return "the address must not contain a user name or password";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (strict && isIP(host) !== 0 && isInternalAddress(host)) return `${host} is a private or loopback address`;
  return null;
}

/**
 * Sends one request and hands the answer to `read` (which consumes its body as it needs); rejects with
 * OutboundRefused when the rules refuse the address (before any connection), or with the network's
 * error (an internal address found by the lookup, no answer within the time limit).
 */
export function outboundRequest<T>(
  raw: string,
  options: OutboundOptions,
  read: (response: IncomingMessage) => Promise<T>,
): Promise<T> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return Promise.reject(new OutboundRefused("the address is not a URL"));
  }
  const problem = outboundUrlProblem(url, options.strict);
  if (problem !== null) return Promise.reject(new OutboundRefused(problem));
  return new Promise<T>((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, { method: options.method, headers: options.headers, lookup: guardedLookup(options.strict) });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${options.timeoutMs / 1000} seconds`)),
      options.timeoutMs,
    );
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    req.on("response", (response) => {
      read(response).then(
        (value) => settle(() => resolve(value)),
        (error: unknown) =>
          settle(() => {
            req.destroy();
            reject(error);
          }),
      );
    });
    req.on("error", (error) => settle(() => reject(error)));
    req.end(options.body);
  });
}
