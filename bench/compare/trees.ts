// The trees bench/compare.ts measures: a git ref checked out in a worktree beside this one, and its build.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../tests/support/server-process";

const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();

/** The ref's commit checked out beside this tree, with node_modules; returns its directory. */
export function checkout(ref: string): { dir: string; commit: string } {
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
  const dir = `${REPO_ROOT}-compare-${commit.slice(0, 7)}`;
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    console.log(`  git worktree add ${dir} (${commit.slice(0, 7)})`);
    git("worktree", "add", "--detach", dir, commit);
  }
  if (!fs.existsSync(path.join(dir, "node_modules"))) {
    const same =
      spawnSync("git", ["diff", "--quiet", commit, "--", "package-lock.json"], { cwd: REPO_ROOT }).status === 0;
    if (same) execFileSync("cp", ["-al", path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules")]);
    else {
      console.log("  package-lock.json differs from this tree's: npm ci in the worktree");
      execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
    }
  }
  return { dir, commit };
}

/** Builds a tree into `dir` (kept as it is with COMPARE_SKIP_BUILD=1). */
export function build(root: string, label: string, dir: string): void {
  if (process.env.COMPARE_SKIP_BUILD === "1" && fs.existsSync(path.join(root, dir, "server", "index.js"))) return;
  const started = Date.now();
  execFileSync("npx", ["react-router", "build"], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: dir, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  console.log(`  built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function removeCheckout(dir: string): void {
  git("worktree", "remove", "--force", dir);
}
