// Runs every benchmark in turn and prints their figures (`npm run bench`).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

const only = process.argv.slice(2);
const scripts = fs
  .readdirSync(path.join(root, "bench"))
  .filter((f) => f.endsWith(".mjs") && !["run.mjs", "lib.mjs"].includes(f))
  .sort((a, b) => (a === "startup.mjs" ? -1 : b === "startup.mjs" ? 1 : a.localeCompare(b)))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
for (const script of scripts) {
  execFileSync(process.execPath, [path.join("bench", script)], { cwd: root, stdio: "inherit" });
  console.log("");
}
