import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { demoTwoFactorSecret } from "./demo-two-factor";
import { migratedPostgresTemplate, withMigratedEmbeddedDatabase } from "./migrated-template";
import { freePort, scratchDatabaseFor } from "./scratch";
import { withUnusedCode } from "./totp";
import type { EngineName } from "./test-app";

/**
 * The real site (`node server.js` on the built app) listening on a free port, on a fresh
 * embedded data directory or a fresh PostgreSQL database, seeded with the demo data. The build
 * is BUILD_DIR's (npm test builds into build-test/ before running Vitest).
 */
export interface LiveServer {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Everything the server printed on stdout so far (pino's JSON lines and the banner). */
  output: () => string;
  /** Resident memory of the server process, in bytes (Linux). */
  rss: () => number;
  stop: () => Promise<void>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function startLiveServer(engine: EngineName, env: Record<string, string> = {}): Promise<LiveServer> {
  const buildDir = process.env.BUILD_DIR ?? "build-test";
  if (!fs.existsSync(path.join(root, buildDir, "server", "index.js"))) {
    throw new Error(
      `No build in ${buildDir}/: run \`BUILD_DIR=${buildDir} npx react-router build\` first (npm test does).`,
    );
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-live-"));
  // Already migrated: the server's own migration at start finds nothing to apply.
  const template = engine === "postgres" ? await migratedPostgresTemplate(process.env.TEST_DATABASE_URL!) : undefined;
  const scratch = await scratchDatabaseFor(engine, "live", template);
  if (engine === "pglite") await withMigratedEmbeddedDatabase(dataDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      BUILD_DIR: buildDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...scratch.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  // Ready when /healthz answers (or the process died: say why).
  for (;;) {
    const state = await Promise.race([exited.then(() => "exited" as const), healthy(url)]);
    if (state === "exited") throw new Error(`the server exited while starting:\n${out}\n${err}`);
    if (state) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    port,
    pid: child.pid!,
    dataDir,
    output: () => out,
    rss: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
  });
}

export interface LiveResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request to the live server (no redirects followed). */
export function send(
  server: LiveServer,
  method: string,
  pathname: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<LiveResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      `${server.url}${pathname}`,
      { method, headers: { Connection: "close", ...headers } },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    // A refused upload: the server answers (413) and closes while the rest of the body is still being
    // written, so writing fails (EPIPE) after the answer came; the answer is what counts.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}

/** A form POST as a browser sends it (same-origin Origin header). */
export function postForm(
  server: LiveServer,
  pathname: string,
  fields: Record<string, string> | [string, string][],
  { cookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<LiveResponse> {
  return send(server, "POST", pathname, {
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.url,
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Signs in through the login form and returns the cookies a browser would send next. */
export async function liveSignIn(
  server: LiveServer,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await postForm(server, "/login", { email, password, redirectTo: "/" }, { headers });
  if (res.status !== 302) throw new Error(`sign-in failed for ${email}: ${res.status} ${res.body.slice(0, 200)}`);
  const cookie = (res.headers["set-cookie"] ?? [])
    .map((line) => line.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  if (!String(res.headers.location ?? "").startsWith("/login/two-factor")) return cookie;
  // The seeded admin has two-factor on: the code step with its secret's current code.
  const second = await withUnusedCode(demoTwoFactorSecret(email), async (code) => {
    const answer = await postForm(server, "/login/two-factor", { code, redirectTo: "/" }, { cookie, headers });
    return answer.status === 401 ? null : answer;
  });
  if (second.status !== 302) throw new Error(`two-factor failed for ${email}: ${second.status}`);
  return (second.headers["set-cookie"] ?? [])
    .map((line) => line.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}
