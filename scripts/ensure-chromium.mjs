// Makes sure Debian's Chromium is there for the browser tests; Playwright never downloads one.
// The tests drive Debian's headless shell (package chromium-headless-shell, the same Chromium build
// without the desktop browser around it) when it is installed: a page visit costs about half the
// time and a third of the browser's CPU of the full browser in headless mode (decision 0067).
// Without it they drive /usr/bin/chromium, as before. CHROMIUM_PATH names another binary.
import { execSync } from "node:child_process";
import fs from "node:fs";

const FULL = "/usr/bin/chromium";
const SHELL = "/usr/bin/chromium-headless-shell";

if (process.env.CHROMIUM_PATH) {
  if (fs.existsSync(process.env.CHROMIUM_PATH)) process.exit(0);
  console.error(`CHROMIUM_PATH names ${process.env.CHROMIUM_PATH}, which does not exist.`);
  process.exit(1);
}
const missing = [
  ["chromium", FULL],
  ["chromium-headless-shell", SHELL],
].filter(([, path]) => !fs.existsSync(path));
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const packages = missing.map(([name]) => name).join(" ");
if (!isRoot) {
  if (fs.existsSync(FULL)) {
    console.log(
      `Using ${FULL}; \`apt-get install -y chromium-headless-shell\` as root makes the browser tests faster.`,
    );
    process.exit(0);
  }
  console.error(
    `Chromium is missing at ${FULL}. Install Debian's packages as root:\n` +
      `  apt-get update && apt-get install -y ${packages}\n` +
      "or point CHROMIUM_PATH at an existing Chromium or Chrome binary.",
  );
  process.exit(1);
}
console.log(`Installing Debian's ${packages} for the browser tests (apt-get)…`);
try {
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, {
    stdio: "inherit",
  });
} catch {
  // The headless shell is only faster: the full browser is enough.
  if (!fs.existsSync(FULL)) {
    try {
      execSync("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
    } catch {
      console.error("Could not install chromium with apt-get. Install it by hand: apt-get install -y chromium");
      process.exit(1);
    }
  }
}
if (!fs.existsSync(FULL) && !fs.existsSync(SHELL)) {
  console.error(`apt-get finished but neither ${FULL} nor ${SHELL} is there.`);
  process.exit(1);
}
