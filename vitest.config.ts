import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/** Integration files that need modules of their own (decision 0068). */
const ISOLATED = ["tests/integration/auth/account-abuse.test.ts"];

/**
 * Files about two app servers on one database: only PostgreSQL is shared by two processes (the embedded
 * PGlite belongs to one), so without TEST_DATABASE_URL they have nothing to run and are left out.
 */
const TWO_SERVERS_ON_POSTGRES = [
  "tests/integration/admin/writes-on-two-servers.test.ts",
  "tests/integration/cache/two-servers.test.ts",
  "tests/integration/license-api/leases-two-servers.test.ts",
  "tests/integration/machines/two-servers.test.ts",
  "tests/integration/teams/last-seat-two-servers.test.ts",
];
const postgresOnly = process.env.TEST_DATABASE_URL ? [] : TWO_SERVERS_ON_POSTGRES;

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
      {
        extends: true,
        // The same for the integration files: each starts its own database and wires it into the server
        // modules (startTestApp resets configuration, database, auth, provider and mailer), so they
        // share the modules of their worker; importing the app once per file was half of this step's
        // time (decision 0068).
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: [...ISOLATED, ...postgresOnly],
          isolate: false,
        },
      },
      // Files that replace a module with vi.mock: in a shared graph the module may be loaded already.
      { extends: true, test: { name: "integration (isolated)", include: [...ISOLATED] } },
    ],
  },
});
