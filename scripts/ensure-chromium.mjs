// Makes sure Debian's Chromium is there for the browser tests; Playwright never downloads one.
import { execSync } from "node:child_process";
import fs from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (fs.existsSync(chromium)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!isRoot || process.env.CHROMIUM_PATH) {
  console.error(
    `Chromium is missing at ${chromium}. Install Debian's package as root:\n` +
      "  apt-get update && apt-get install -y chromium\n" +
      "or point CHROMIUM_PATH at an existing Chromium or Chrome binary.",
  );
  process.exit(1);
}
console.log("Installing Debian's chromium for the browser tests (apt-get)…");
try {
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
  });
} catch {
  console.error("Could not install chromium with apt-get. Install it by hand: apt-get install -y chromium");
  process.exit(1);
}
if (!fs.existsSync(chromium)) {
  console.error(`apt-get finished but ${chromium} is still missing.`);
  process.exit(1);
}
