import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got: its headers and raw body. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver for webhook tests (decision 0044): node:http on 127.0.0.1, a free port. It keeps
 * every request and answers `status` (200 unless a test sets another) with a short body.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { status: 200, body: "ok" };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(state.status, { "Content-Type": "text/plain" }).end(state.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    /** Answers from now on with this status (and body). */
    answer(status: number, body = status < 300 ? "ok" : "receiver down") {
      Object.assign(state, { status, body });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
