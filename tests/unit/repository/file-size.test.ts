import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// No file over 300 lines (docs/architecture.md): a file that long holds more than one concern. The
// database schema is one table list, and generated data is not written by hand, so they do not count.
// Test files are cut by what they test, not by length; the tests' own code (tests/support) keeps the cap.

const root = path.resolve(import.meta.dirname, "../../..");
const MAX_LINES = 300;
const CODE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const EXEMPT = new Set(["app/server/db/schema.ts"]);

/** The code files git tracks or would add under these folders, with their line counts. */
function lineCounts(folders: string[]): Map<string, number> {
  const output = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", ...folders], {
    cwd: root,
    encoding: "utf8",
  });
  const counts = new Map<string, number>();
  for (const file of output.split("\0")) {
    const full = path.join(root, file);
    if (!CODE.test(file) || EXEMPT.has(file) || !fs.existsSync(full)) continue;
    counts.set(file, fs.readFileSync(full, "utf8").replace(/\n$/, "").split("\n").length);
  }
  return counts;
}

/** The files over the limit, each with its line count. */
function over(folders: string[]): string[] {
  const counts = lineCounts(folders);
  expect(counts.size).toBeGreaterThan(20);
  return [...counts].filter(([, lines]) => lines > MAX_LINES).map(([file, lines]) => `${file}: ${lines}`);
}

describe(`no file over ${MAX_LINES} lines`, () => {
  it("in app/, server/, scripts/ and bench/ (outside the schema)", () => {
    expect(over(["app", "server", "scripts", "bench"])).toEqual([]);
  });

  it("in the tests' shared code (tests/support)", () => {
    expect(over(["tests/support", "tests/e2e/support.ts", "tests/e2e/support-keys.ts"])).toEqual([]);
  });
});
