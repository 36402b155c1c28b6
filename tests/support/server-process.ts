import net from "node:net";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withMigratedEmbeddedDatabase } from "./migrated-template";

/**
 * The built site as `npm start` runs it (`node server.js` on BUILD_DIR, default build-test/, the
 * build `npm test` makes), in a child process the resilience tests can stop, or kill -9.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ServerProcess {
  port: number;
  /** http://127.0.0.1:PORT: the address requests go to, and the Origin a browser on it sends. */
  origin: string;
  dataDir: string;
  pid: number;
  /** What the process printed (stdout and stderr), for failure messages. */
  output: () => string;
  /** SIGTERM and wait: the graceful stop (requests finish, the database is closed). */
  stop: () => Promise<void>;
  /** SIGKILL and wait: a crash, nothing flushed, no lock released. */
  kill9: () => Promise<void>;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<string>;
}

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function buildDir(root = REPO_ROOT): string {
  const dir = process.env.BUILD_DIR ?? "build-test";
  if (!fs.existsSync(path.join(root, dir, "server", "index.js"))) {
    throw new Error(
      `No server build in ${dir}/: run \`BUILD_DIR=${dir} npx react-router build\` first (npm test does).`,
    );
  }
  return dir;
}

/**
 * Fails at once when another process listens on the port (a server an interrupted run left behind):
 * the test would otherwise talk to that server, with another data directory, and fail far from the cause.
 */
async function refuseTakenPort(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} is taken by another process (a server left running by an earlier run?).`)
          : error,
      ),
    );
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

/** The server's environment: this process's, as `npm start` would see it, with the given settings. */
function childEnvironment({
  root,
  port,
  origin,
  dataDir,
  env,
}: {
  root: string;
  port: number;
  origin: string;
  dataDir: string;
  env: Record<string, string>;
}): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // As `npm start` would: not vitest's NODE_ENV=test, not a database the tests use.
    if (
      value !== undefined &&
      !["NODE_ENV", "DATABASE_URL", "VITEST", "VITEST_MODE", "VITEST_POOL_ID", "VITEST_WORKER_ID", "TEST"].includes(key)
    )
      childEnv[key] = value;
  }
  return Object.assign(childEnv, {
    BUILD_DIR: buildDir(root),
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...env,
  });
}

/**
 * Starts `node server.js` and waits until /healthz answers. Embedded defaults (PGlite in
 * dataDir, dev mailbox, demo checkout) unless env says otherwise (e.g. DATABASE_URL).
 */
export async function startServer({
  port,
  dataDir,
  env = {},
  nodeArgs = [],
  root = REPO_ROOT,
  migrated,
}: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  /** Node's own options before `server.js` (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** The tree whose server.js and build run (another commit's worktree: bench/compare.ts). */
  root?: string;
  /**
   * On the embedded database, start from a copy of the migrated one when the data directory is empty
   * (the server then applies no migration). Default: under Vitest, for this tree.
   */
  migrated?: boolean;
}): Promise<ServerProcess> {
  const origin = `http://127.0.0.1:${port}`;
  await refuseTakenPort(port);
  const childEnv = childEnvironment({ root, port, origin, dataDir, env });
  if ((migrated ?? (Boolean(process.env.VITEST) && root === REPO_ROOT)) && !childEnv.DATABASE_URL)
    await withMigratedEmbeddedDatabase(dataDir);
  const child = spawn(process.execPath, [...nodeArgs, "server.js"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve(signal ?? String(code));
    });
  });
  let gone: string | null = null;
  void exited.then((how) => (gone = how));

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (gone !== null) throw new Error(`the server on port ${port} exited (${gone}) before it was healthy:\n${output}`);
    try {
      const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server on port ${port} did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const signal = async (name: NodeJS.Signals) => {
    if (gone === null) child.kill(name);
    await exited;
  };
  return {
    port,
    origin,
    dataDir,
    pid: child.pid!,
    output: () => output,
    exited,
    kill9: () => signal("SIGKILL"),
    stop: async () => {
      const force = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await signal("SIGTERM");
      clearTimeout(force);
    },
  };
}
