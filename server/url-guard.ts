import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { hasMalformedEncoding, MALFORMED_ENCODING_MESSAGE } from "../app/domain/url-encoding";
import { logRequest, requestId } from "./request-log";

/**
 * The HTTP listener's first check, before the page caches, Express and React Router decode the
 * address: a malformed percent-encoding in the path or the query (`/%E0%A4%A`, `/%ED%A0%80`,
 * `?q=%C0%AE`) answers 400 with a plain message, for every route (issue 22; Express's decoding of a
 * route parameter used to end in a 500). The desktop API answers its own, signed 400
 * (readQuery in app/server/license-api/api-input.server.ts). True when it answered.
 */
export function refuseMalformedUrl(req: IncomingMessage, res: ServerResponse, logger: Logger): boolean {
  const url = req.url ?? "/";
  if (url.startsWith("/api/v1/") || !hasMalformedEncoding(url)) return false;
  const started = process.hrtime.bigint();
  const body = Buffer.from(MALFORMED_ENCODING_MESSAGE, "utf8");
  res.writeHead(400, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": body.length,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  // The path as sent, cut at the query (which may carry a one-time token).
  logRequest(logger, requestId(req), req.method, url.split("?")[0]!, 400, started, body.length);
  return true;
}
