import net from "node:net";
import type { LiveServer } from "./live-server";

const MB = 1024 * 1024;

export interface Upload {
  /** The status line's code, or null when the connection ended without an answer. */
  status: number | null;
  response: string;
  /** Body bytes written before the first byte of the answer arrived. */
  sentBeforeAnswer: number;
  /** Whether the server ended the connection (the client never does). */
  closedByServer: boolean;
}

/**
 * Streams a large body to the server over a raw socket (chunked, or with a declared length),
 * and stops writing as soon as an answer arrives, as browsers and curl do.
 */
export function upload(
  server: LiveServer,
  pathname: string,
  { total, chunked }: { total: number; chunked: boolean },
): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let response = "";
    let sent = 0;
    let sentBeforeAnswer = -1;
    let closedByServer = false;
    let drained: (() => void) | null = null;
    const chunk = Buffer.alloc(MB, "x");
    const finish = () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(response);
      resolve({
        status: status ? Number(status[1]) : null,
        response,
        sentBeforeAnswer: sentBeforeAnswer < 0 ? sent : sentBeforeAnswer,
        closedByServer,
      });
    };
    socket.on("data", (data: Buffer) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      response += data.toString("utf8");
      drained?.();
    });
    socket.on("end", () => {
      closedByServer = true;
      drained?.();
    });
    socket.on("error", () => {
      closedByServer = true;
      drained?.();
    });
    socket.on("close", finish);
    socket.on("drain", () => drained?.());
    void (async () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.url}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\n` +
          (chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${total}\r\n`) +
          "\r\n",
      );
      socket.write(chunked ? `5\r\nemail\r\n` : "email");
      while (sent < total && sentBeforeAnswer < 0 && !closedByServer) {
        const ok = chunked
          ? socket.write(`${chunk.length.toString(16)}\r\n`) && socket.write(chunk) && socket.write("\r\n")
          : socket.write(chunk);
        sent += chunk.length;
        if (!ok) await new Promise<void>((r) => (drained = r));
        drained = null;
      }
    })();
  });
}
