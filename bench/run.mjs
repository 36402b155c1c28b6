// Runs every benchmark in turn and prints their figures (`npm run bench`); lib.mjs and support.ts are
// what they share, not benchmarks.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

const only = process.argv.slice(2);
const scripts = fs
  .readdirSync(path.join(root, "bench"))
  .filter(
    (f) => (f.endsWith(".mjs") || f.endsWith(".ts")) && !["run.mjs", "lib.mjs", "support.ts", "compare.ts"].includes(f),
  )
  .sort((a, b) => (a === "startup.mjs" ? -1 : b === "startup.mjs" ? 1 : a.localeCompare(b)))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
for (const script of scripts) {
  // TypeScript benchmarks import the app's modules directly (through tsx).
  const args = script.endsWith(".ts") ? ["--import", "tsx", path.join("bench", script)] : [path.join("bench", script)];
  execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  console.log("");
}
