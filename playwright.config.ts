import fs from "node:fs";
import os from "node:os";
import { defineConfig } from "@playwright/test";

// The browser tests run against the real built server (node server.js on BUILD_DIR, default build-test/),
// one per worker, each on a fresh database seeded with the demo data (tests/e2e/site.ts, decision 0063).
// Chromium is Debian's, never downloaded: its headless shell when installed (about half the time of a
// page visit in the full browser, decision 0067), else /usr/bin/chromium; CHROMIUM_PATH names another.
process.env.BUILD_DIR ??= "build-test";
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
/** One worker per core: each drives its own Chromium against its own site (E2E_WORKERS to choose). */
const workers = Number(process.env.E2E_WORKERS ?? Math.max(1, Math.min(2, os.availableParallelism())));

/**
 * A test runs at phone width too when something in it depends on the width: it checks the layout at the
 * project's width (fits the screen, rows inside their boxes), takes the mobile menu (the drawer below
 * 768 px), branches on the width or keeps screenshots at both. Such a test is tagged `@phone`
 * (`test("…", { tag: "@phone" }, …)`); phone-width.spec.ts, tagged as a whole, visits every page at 390 once.
 */
const PHONE = /@phone/;

export default defineConfig({
  testDir: "tests/e2e",
  // Spec files are spread over the workers; the tests of one file run in order, on one site.
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A journey of several pages took 23 s in a CI run while other work loaded the machine.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    // Animations and transitions end at once (app.css honours prefers-reduced-motion), so a dialog or a
    // toast is still the moment it shows: Playwright waits for nothing to settle and Chromium paints no
    // frames in between (decision 0077). E2E_MOTION=1 shows them as a visitor sees them.
    reducedMotion: process.env.E2E_MOTION === "1" ? "no-preference" : "reduce",
    // A trace on the retry only (decision 0076): recording one for every test cost a quarter of the step's CPU.
    trace: (process.env.E2E_TRACE as "on" | undefined) ?? "on-first-retry",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // No optimizing compiler: a test's page lives seconds, too short for TurboFan to pay for the CPU it
        // takes; measured 0.90 × the CPU of two spec files (decision 0082). E2E_CHROMIUM_ARGS adds flags.
        "--js-flags=--no-opt",
        ...(process.env.E2E_CHROMIUM_ARGS ?? "").split(" ").filter(Boolean),
      ],
    },
  },
  // Every test at 1280; at 390 (with touch) the tests tagged @phone (decisions 0053 and 0067).
  projects: [
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } }, testIgnore: /phone-width\.spec\.ts$/ },
    {
      name: "mobile",
      use: { viewport: { width: 390, height: 844 }, hasTouch: true },
      grep: PHONE,
    },
  ],
});
