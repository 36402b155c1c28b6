import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { addressProblem } from "../app/domain/url-encoding";
import { answer } from "./api-answer";
import { logRequest, requestId } from "./request-log";

/**
 * The HTTP listener's first check, before the desktop API's fast path, the page caches, Express and
 * React Router decode the address: a malformed percent-encoding in the path or the query (`/%E0%A4%A`,
 * `/%ED%A0%80`, `?q=%C0%AE`), and a control character anywhere in the decoded path (`/%00`, so in
 * every route parameter), answer 400 with a plain message, for every route (Express's decoding of a
 * route parameter used to end in a 500, and PostgreSQL refuses NUL). The desktop API answers its own
 * malformed encodings (readQuery in app/server/license-api/api-input.server.ts); its control
 * characters are answered here, as its signed JSON with `"field": "address"`. True when it answered.
 */
export function refuseMalformedUrl(req: IncomingMessage, res: ServerResponse, logger: Logger): boolean {
  const url = req.url ?? "/";
  const api = url.startsWith("/api/v1/");
  const problem = addressProblem(url, { api });
  if (problem === null) return false;
  const started = process.hrtime.bigint();
  const path = url.split("?")[0]!;
  if (api) {
    answer(res, 400, { error: problem, field: "address" });
    logRequest(logger, requestId(req), req.method, path, 400, started, Number(res.getHeader("content-length") ?? 0));
    return true;
  }
  const body = Buffer.from(problem, "utf8");
  res.writeHead(400, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": body.length,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  // The path as sent, cut at the query (which may carry a one-time token).
  logRequest(logger, requestId(req), req.method, path, 400, started, body.length);
  return true;
}
