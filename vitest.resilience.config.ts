import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The resilience suite (tests/resilience): fuzzing, kill -9, two-instance and rolling-deploy tests against the
// built server (`node server.js` on BUILD_DIR, build-test/ in `npm test`). Two files at a time, on ports of
// their own: the crash test's ten restarts on one, the others one after another on the second (decision 0081).
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/resilience/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 240_000,
  },
});
