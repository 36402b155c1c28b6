// npm test: the whole suite. Route types once → the static checks two at a time (lint, layer rules, unused code,
// format, types; decision 0053) → Chromium present → build into build-test/ → Vitest (unit and integration; on
// PostgreSQL when TEST_DATABASE_URL is set, PGlite for what is engine-specific) → resilience (tests/resilience on
// the build) → Playwright in Chromium. Each step's time is printed in a table at the end, also when one fails.
import { spawn } from "node:child_process";

const env = { ...process.env, BUILD_DIR: "build-test", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" };
// Two cores: two static checks side by side (each is one process, mostly on one core).
const PARALLEL = 2;

const typegen = ["route types", "npx", ["react-router", "typegen"]];
const staticChecks = [
  // The slowest first, so the two lanes finish together.
  ["types", "npx", ["tsc"]],
  ["lint", "npx", ["eslint", "--max-warnings=0", "."]],
  // No file, export or dependency that nothing uses (knip.json); the route types are made above.
  ["unused code", "npx", ["knip", "--reporter", "compact"]],
  // The layer rules and no import circles (.dependency-cruiser.cjs, docs/architecture.md).
  ["layers", "npm", ["run", "--silent", "deps"]],
  ["format", "npx", ["prettier", "--check", "--log-level=warn", "."]],
];
const then = [
  ["Chromium", "node", ["scripts/ensure-chromium.mjs"]],
  ["build", "npx", ["react-router", "build"]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  // Fuzzing, kill -9, two instances and a rolling deploy behind nginx against the built server (build-test/); prints its figures.
  ["resilience tests", "npx", ["vitest", "run", "-c", "vitest.resilience.config.ts"]],
  ["browser tests", "npx", ["playwright", "test"]],
];

const timings = [];

/** Runs one step; `quiet` keeps its output until it ends (steps side by side do not interleave). */
function run([name, command, args], { quiet = false } = {}) {
  const started = Date.now();
  if (!quiet) console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0;
      timings.push({ name, seconds, ok });
      if (quiet) console.log(`\n▶ ${name}${output ? `\n${output.trimEnd()}` : ""}`);
      console.log(ok ? `✓ ${name} (${seconds.toFixed(1)} s)` : `\n✗ ${name} failed after ${seconds.toFixed(1)} s`);
      resolve(ok);
    });
  });
}

/** Runs the steps `lanes` at a time; true when every one passed (all run, so each failure is seen). */
async function runSideBySide(steps, lanes) {
  const queue = [...steps];
  let allPassed = true;
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) {
      if (!(await run(step, { quiet: true }))) allPassed = false;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return allPassed;
}

function printTimings(totalSeconds) {
  const width = Math.max(...timings.map((row) => row.name.length), "total".length);
  console.log(`\n${"step".padEnd(width)}  ${"seconds".padStart(8)}  result`);
  for (const { name, seconds, ok } of timings)
    console.log(`${name.padEnd(width)}  ${seconds.toFixed(1).padStart(8)}  ${ok ? "passed" : "FAILED"}`);
  console.log(`${"total".padEnd(width)}  ${totalSeconds.toFixed(1).padStart(8)}`);
}

const started = Date.now();
let passed = await run(typegen);
if (passed) {
  const staticStarted = Date.now();
  passed = await runSideBySide(staticChecks, PARALLEL);
  timings.push({ name: "static checks (side by side)", seconds: (Date.now() - staticStarted) / 1000, ok: passed });
}
for (const step of then) {
  if (!passed) break;
  passed = await run(step);
}
printTimings((Date.now() - started) / 1000);
process.exit(passed ? 0 : 1);
