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

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
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
  projects: [
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
    { name: "mobile", use: { viewport: { width: 390, height: 844 }, hasTouch: true } },
  ],
  webServer: {
    command: "node server.js",
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
      LOG_LEVEL: "warn",
      // Many sign-ins from one address in a few minutes; the limits are proven in the integration suite.
      AUTH_RATE_LIMIT: "1000",
      // The download page shows the winget command only with a package id.
      WINGET_PACKAGE_ID: "ForgeKit.ForgeKit",
      // The seller the demo invoices name (issue 28): legal name, address lines and tax id.
      SELLER_NAME: "ForgeKit Software Ltd",
      SELLER_ADDRESS: "1 Forge Lane | Leeds LS1 1AA | United Kingdom",
      SELLER_TAX_ID: "GB123456789",
    },
  },
});
