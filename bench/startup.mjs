// Seconds from `npm start` on a fresh data directory to the first page served.
// `npm start` = build + boot; both are timed, boot three times on fresh data directories
// (each run creates the embedded database, migrates and seeds it).
import { execSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { freshDataDir, root, startServer } from "./lib.mjs";

const buildDir = process.env.BUILD_DIR ?? "build-bench";
const t0 = performance.now();
execSync("npx react-router build", { cwd: root, env: { ...process.env, BUILD_DIR: buildDir }, stdio: "ignore" });
const buildSeconds = (performance.now() - t0) / 1000;

const boots = [];
for (let i = 0; i < 3; i++) {
  const server = await startServer({ port: 4700 + i, dataDir: freshDataDir("startup"), buildDir });
  boots.push(server.seconds);
  await server.stop();
}
const warm = await (async () => {
  const dir = freshDataDir("restart");
  const first = await startServer({ port: 4710, dataDir: dir, buildDir });
  await first.stop();
  const second = await startServer({ port: 4711, dataDir: dir, buildDir });
  await second.stop();
  return second.seconds;
})();
const median = [...boots].sort((a, b) => a - b)[1];
console.log("startup (fresh data directory → first page served)");
console.log(`  build (react-router build):       ${buildSeconds.toFixed(2)} s`);
console.log(
  `  boot, fresh data dir (median of 3): ${median.toFixed(2)} s   runs: ${boots.map((s) => s.toFixed(2)).join(", ")}`,
);
console.log(`  npm start total (build + boot):   ${(buildSeconds + median).toFixed(2)} s`);
console.log(`  restart on an existing data dir:  ${warm.toFixed(2)} s`);
