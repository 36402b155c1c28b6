import type { Request, RequestHandler, Response } from "express";

/** Forms and every other post: far more than any of the site's forms needs. */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Paddle's webhook deliveries, and the admin release form (up to 100 notes of 2000 characters). */
export const LARGE_BODY_LIMIT = 1024 * 1024;
/** After refusing, at most this much more is read and thrown away (so the client sees the 413) before the connection is cut. */
/** How long a refused upload's connection stays open after reading stopped, for the 413 to arrive. */
const CLOSE_DELAY_MS = 1500;
const DISCARD_BYTES = 256 * 1024;
const DISCARD_MS = 5_000;

/** The largest body a path accepts. */
export function bodyLimitFor(path: string): number {
  if (path === "/api/webhooks/paddle") return LARGE_BODY_LIMIT;
  if (path === "/admin/releases" || path === "/admin/releases.data") return LARGE_BODY_LIMIT;
  return FORM_BODY_LIMIT;
}

function describe(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

export function tooLargeMessage(limit: number): string {
  return `The request is too large: this address accepts at most ${describe(limit)}.`;
}

/**
 * Refuses request bodies over the path's limit with 413 before anything reads them: a declared
 * Content-Length is checked up front, and a chunked body is counted as it arrives and cut off as
 * soon as it passes the limit (whoever was reading it gets an error). The rest of the body is
 * never kept: a little is read and dropped so the client sees the answer, then the connection
 * is closed.
 */
export function bodyLimit(limitFor: (path: string) => number = bodyLimitFor): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(req.path);
    const declared = req.headers["content-length"];
    if (declared !== undefined) {
      // Node's parser has already refused malformed lengths and bodies longer than declared.
      if (Number(declared) > limit) {
        refuse(req, res, limit);
        return;
      }
      next();
      return;
    }
    if (req.headers["transfer-encoding"] === undefined) {
      next();
      return;
    }
    let received = 0;
    const emit = req.emit;
    req.emit = function (this: Request, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "data") {
        received += (args[0] as Buffer).length;
        if (received > limit) {
          req.emit = emit;
          refuse(req, res, limit);
          return false;
        }
      }
      return emit.call(this, event, ...args);
    } as Request["emit"];
    next();
  };
}

class PayloadTooLargeError extends Error {
  readonly status = 413;
  constructor(message: string) {
    super(message);
    this.name = "PayloadTooLargeError";
  }
}

function refuse(req: Request, res: Response, limit: number): void {
  const message = tooLargeMessage(limit);
  // From now on the body is only counted and dropped: nothing reaches a reader any more.
  let discarded = 0;
  const emit = req.emit;
  const cut = () => req.socket?.destroy();
  let closing = false;
  // Enough dropped: stop reading (the client's sends now wait on TCP) and close a moment later, so the
  // answer already written reaches the client before the connection goes (closing at once could
  // reset it before the client read the 413).
  const closeSoon = () => {
    if (closing) return;
    closing = true;
    req.pause();
    const timer = setTimeout(cut, CLOSE_DELAY_MS);
    timer.unref();
    req.socket?.once("close", () => clearTimeout(timer));
  };
  req.emit = function (this: Request, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "data") {
      discarded += (args[0] as Buffer).length;
      if (discarded > DISCARD_BYTES) closeSoon();
      return true;
    }
    return emit.call(this, event, ...args);
  } as Request["emit"];
  // A reader already waiting for the body (a chunked upload) fails instead of waiting forever.
  if (req.listenerCount("error") > 0) emit.call(req, "error", new PayloadTooLargeError(message));

  if (!res.headersSent) {
    res.status(413).set("Cache-Control", "no-store");
    if (req.path.startsWith("/api/")) res.json({ error: message });
    else res.type("text/plain").send(message);
  }
  res.once("finish", () => {
    if (req.complete || closing) return;
    // Drop what the client still sends, briefly, then close the connection.
    const timer = setTimeout(cut, DISCARD_MS);
    timer.unref();
    req.socket?.once("close", () => clearTimeout(timer));
    req.resume();
  });
}
