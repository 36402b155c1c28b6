import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

/** The request's id: the X-Request-Id it came with (a proxy's, at most 100 characters) or a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return (typeof given === "string" && given.slice(0, 100)) || randomUUID();
}

/** One log line per request: id, method, path (never the query: it can carry one-time tokens), status, time, size. */
export function logRequest(
  logger: Logger,
  id: string,
  method: string | undefined,
  path: string,
  status: number,
  started: bigint,
  bytes: number | undefined,
): void {
  // Checked first: building the line costs more than a page from the cache when nobody reads it.
  if (!logger.isLevelEnabled("info")) return;
  logger.info({
    req_id: id,
    method,
    path,
    status,
    ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    bytes: bytes || undefined,
  });
}

/** The Express request log for everything the page cache did not answer (`started` when the request came). */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = (res.locals.started as bigint | undefined) ?? process.hrtime.bigint();
    const id = (res.locals.requestId as string | undefined) ?? requestId(req);
    res.setHeader("X-Request-Id", id);
    // Read now: a mounted router (/api/v1) strips its prefix from req.path while it handles the request.
    const path = req.path;
    res.on("finish", () => {
      logRequest(logger, id, req.method, path, res.statusCode, started, Number(res.getHeader("content-length") ?? 0));
    });
    next();
  };
}
