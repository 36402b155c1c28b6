import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The resilience suite (tests/resilience): fuzzing, kill -9, two-instance and rolling-deploy tests against the
// built server (`node server.js` on BUILD_DIR, build-test/ in `npm test`). One file at a time:
// each starts servers of its own and the machine has two cores.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/resilience/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 240_000,
  },
});
