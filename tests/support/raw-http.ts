import http from "node:http";
import { demoTwoFactorSecret } from "./demo-two-factor";
import { withUnusedCode } from "./totp";

/**
 * HTTP as a client on the wire does it, without fetch's help: any bytes as the body, chunked
 * bodies, duplicate headers, no Origin. A server may answer before it read the body (413) and
 * close the connection: the answer still counts; a connection that ends without one is "reset".
 */

export interface RawResponse {
  /** The status code, or "reset" (no answer: the connection closed), or "timeout". */
  status: number | "reset" | "timeout";
  headers: http.IncomingHttpHeaders;
  /** The first 64 KB of the body, as text. */
  body: string;
  error?: string;
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  /** A Buffer/string is sent with its Content-Length; an array of chunks is sent chunked. */
  body?: Buffer | string | Buffer[];
  timeoutMs?: number;
}

export function rawRequest({
  port,
  method = "POST",
  path,
  headers = {},
  body,
  timeoutMs = 60_000,
}: RawRequest): Promise<RawResponse> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (response: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(response);
    };
    const allHeaders: Record<string, string | string[]> = {
      Host: `127.0.0.1:${port}`,
      Connection: "close",
      ...headers,
    };
    if (typeof body === "string" || Buffer.isBuffer(body))
      allHeaders["Content-Length"] ??= String(Buffer.byteLength(body));
    const request = http.request({
      host: "127.0.0.1",
      port,
      method,
      path,
      headers: allHeaders,
      agent: false,
      setHost: false,
    });
    const timer = setTimeout(() => {
      done({ status: "timeout", headers: {}, body: "" });
      request.destroy();
    }, timeoutMs);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () =>
        done({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      response.on("data", (chunk: Buffer) => {
        if (size < 65_536) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("end", finish);
      response.on("error", finish);
      response.on("close", finish);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      // Writing into a connection the server closed after answering: the answer is what counts.
      setTimeout(() => done({ status: "reset", headers: {}, body: "", error: error.code ?? error.message }), 50);
    });
    if (Array.isArray(body)) {
      (async () => {
        for (const chunk of body) {
          if (request.destroyed) return;
          if (!request.write(chunk)) {
            await new Promise<void>((resolve) => {
              const go = () => {
                request.off("drain", go);
                request.off("close", go);
                resolve();
              };
              request.on("drain", go);
              request.on("close", go);
            });
          }
        }
        request.end();
      })().catch(() => {});
    } else {
      request.end(body);
    }
  });
}

/** A form POST as a browser sends it (with the site's Origin unless told otherwise). */
export function formPost(
  port: number,
  path: string,
  fields: Record<string, string> | URLSearchParams,
  options: { cookie?: string; origin?: string | null } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  const origin = options.origin === undefined ? `http://127.0.0.1:${port}` : options.origin;
  if (origin !== null) headers.Origin = origin;
  if (options.cookie) headers.Cookie = options.cookie;
  return rawRequest({ port, path, headers, body: new URLSearchParams(fields).toString() });
}

/** The Cookie header a browser sends next, given the Set-Cookie headers of an answer. */
export function cookieJar(setCookie: string[] | undefined, previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(/;\s*/).filter(Boolean)) {
    const [k, ...v] = part.split("=");
    jar.set(k!, v.join("="));
  }
  for (const line of setCookie ?? []) {
    const [pair] = line.split(";");
    const [k, ...v] = pair!.split("=");
    const value = v.join("=");
    if (/max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line) || value === "") jar.delete(k!.trim());
    else jar.set(k!.trim(), value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Signs in through the login form; the cookie to send next (throws unless it redirected). */
export async function signIn(port: number, email: string, password: string): Promise<string> {
  const response = await formPost(port, "/login", { email, password, redirectTo: "/" });
  if (response.status !== 302 && response.status !== 303) {
    throw new Error(`sign-in as ${email} answered ${response.status}: ${response.body.slice(0, 300)}`);
  }
  const cookie = cookieJar(response.headers["set-cookie"]);
  if (!String(response.headers.location ?? "").startsWith("/login/two-factor")) return cookie;
  // The seeded admin has two-factor on: the code step with its secret's current code.
  const second = await withUnusedCode(demoTwoFactorSecret(email), async (code) => {
    const answer = await formPost(port, "/login/two-factor", { code, redirectTo: "/" }, { cookie });
    return answer.status === 401 ? null : answer;
  });
  if (second.status !== 302 && second.status !== 303) {
    throw new Error(`two-factor for ${email} answered ${second.status}: ${second.body.slice(0, 300)}`);
  }
  return cookieJar(second.headers["set-cookie"], cookie);
}
