// npm test: the whole suite. Lint, the layer rules, unused code and format check → Chromium present → build into
// build-test/ → Vitest (unit and integration; PostgreSQL too when TEST_DATABASE_URL is set) → resilience
// (tests/resilience on the build) → Playwright in Chromium.
import { spawnSync } from "node:child_process";

const env = { ...process.env, BUILD_DIR: "build-test", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" };
const steps = [
  // Style first: a maintainer sees a lint or format problem in seconds, not after the browser tests.
  ["lint", "npx", ["eslint", "--max-warnings=0", "."]],
  // The layer rules and no import circles (.dependency-cruiser.cjs, docs/architecture.md).
  ["layers", "npm", ["run", "--silent", "deps"]],
  // No file, export or dependency that nothing uses (knip.json).
  ["unused code", "npm", ["run", "--silent", "unused"]],
  ["format", "npx", ["prettier", "--check", "--log-level=warn", "."]],
  ["Chromium", "node", ["scripts/ensure-chromium.mjs"]],
  ["types", "sh", ["-c", "npx react-router typegen && npx tsc"]],
  ["build", "npx", ["react-router", "build"]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  // Fuzzing, kill -9, two instances and a rolling deploy behind nginx against the built server (build-test/); prints its figures.
  ["resilience tests", "npx", ["vitest", "run", "-c", "vitest.resilience.config.ts"]],
  ["browser tests", "npx", ["playwright", "test"]],
];
for (const [name, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds} s)`);
}
