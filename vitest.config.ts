import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    // Integration tests that start the built server get a build if there is none (npm test builds first).
    globalSetup: ["tests/support/ensure-build.ts"],
    pool: "forks",
    // Generous: a PGlite start or a child server under a loaded 2-core machine can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files each start their own database.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Pure rules and rendering: no database, no server, no module state a file leaves for the next.
        // One module graph per worker instead of one per file: importing was two thirds of their time
        // (decision 0053).
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], isolate: false },
      },
      // Each integration file in a module graph of its own: sharing the worker's graph saved the imports but
      // made the tests half as slow again (decision 0068).
      { extends: true, test: { name: "integration", include: ["tests/integration/**/*.test.ts"] } },
    ],
  },
});
