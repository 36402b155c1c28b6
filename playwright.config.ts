import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// The browser tests run against the real built server (node server.js) on a fresh
// embedded database, seeded with the demo data. Chromium is Debian's; never downloaded.
const port = Number(process.env.E2E_PORT ?? 4300);
const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "fk-e2e-"));
process.env.E2E_DATA_DIR = dataDir;
/** On PostgreSQL when one is there (tests/e2e/fresh-database.mjs); else the embedded PGlite in dataDir. */
const serverDatabase = process.env.TEST_DATABASE_URL;
const databaseName = `fk_e2e_${port}`;
const databaseUrl = serverDatabase
  ? Object.assign(new URL(serverDatabase), { pathname: `/${databaseName}` }).href
  : null;

/**
 * The specs run at phone width too: each checks the layout at the project's width (fits the screen,
 * rows inside their boxes), takes the mobile menu (the drawer below 768 px) or branches on the width.
 */
const WIDTH_SPECIFIC_SPECS = [
  "accounts", // signs out and in through the mobile drawer
  "home", // the drawer by keyboard and touch
  "invoices-and-friction", // invoice rows no wider than the viewport
  "licenses-attention", // the past-due card fits and says what to do at 1280 and 390
  "no-javascript-pages", // the menu without scripts differs below 768 px
  "refund-extensions", // screenshots at the project's width
  "support-desk", // fits the screen at 1280 and 390
  "trial-conversion", // /billing's rows inside their boxes at 390
  "phone-width", // every page at 390, once
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A journey of several pages took 23 s in a CI run while other work loaded the machine.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Every spec at 1280; at 390 (with touch) only the specs where something depends on the width
  // (decision 0053), plus phone-width.spec.ts, which visits every page at 390 once.
  projects: [
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } }, testIgnore: /phone-width\.spec\.ts$/ },
    {
      name: "mobile",
      use: { viewport: { width: 390, height: 844 }, hasTouch: true },
      testMatch: WIDTH_SPECIFIC_SPECS.map((name) => `**/${name}.spec.ts`),
    },
  ],
  webServer: {
    command: databaseUrl
      ? `node tests/e2e/fresh-database.mjs ${JSON.stringify(serverDatabase)} ${databaseName} && node server.js`
      : "node server.js",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      BUILD_DIR: process.env.BUILD_DIR ?? "build-test",
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: "warn",
      // Many sign-ins from one address in a few minutes; the limits are proven in the integration suite.
      AUTH_RATE_LIMIT: "1000",
      // The download page shows the winget command only with a package id.
      WINGET_PACKAGE_ID: "ForgeKit.ForgeKit",
      // The seller the demo invoices name (decision 0040): legal name, address lines and tax id.
      SELLER_NAME: "ForgeKit Software Ltd",
      SELLER_ADDRESS: "1 Forge Lane | Leeds LS1 1AA | United Kingdom",
      SELLER_TAX_ID: "GB123456789",
    },
  },
});
