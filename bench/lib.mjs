// Shared helpers for the benchmarks: start the built server on a fresh data directory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function freshDataDir(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  return dir;
}

/** Starts `node server.js`; resolves when GET url answers 200, with the elapsed seconds. */
export async function startServer({ port, dataDir, env = {}, buildDir = process.env.BUILD_DIR ?? "build" }) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: buildDir, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) {
        await res.arrayBuffer();
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    seconds,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

export function ensureBuild(buildDir = process.env.BUILD_DIR ?? "build") {
  if (!fs.existsSync(path.join(root, buildDir, "server", "index.js"))) {
    throw new Error(
      `No build in ${buildDir}/: run \`npm run build\` (or BUILD_DIR=${buildDir} npx react-router build) first`,
    );
  }
}
