import { spawnSync } from "node:child_process";
import fs from "node:fs";

/**
 * Vitest's global setup: the integration tests that start the real server (`node server.js`) need
 * a build. `npm test` makes one first; a bare `vitest run` on a fresh checkout makes it here, once,
 * before any worker starts. Runs that name only unit tests skip it.
 */
export default function ensureBuild(): void {
  const filters = process.argv
    .slice(2)
    .filter((arg) => !arg.startsWith("-") && arg !== "run" && !arg.endsWith("vitest"));
  if (filters.length > 0 && filters.every((filter) => filter.startsWith("tests/unit"))) return;
  const dir = process.env.BUILD_DIR ?? "build-test";
  if (fs.existsSync(`${dir}/server/index.js`)) return;
  console.log(`No build in ${dir}/: building it once for the tests that start the server…`);
  const result = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    env: { ...process.env, BUILD_DIR: dir },
  });
  if (result.status !== 0) throw new Error(`the build for the tests failed (exit ${result.status})`);
}
