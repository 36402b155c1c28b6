import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// No file over 300 lines (docs/architecture.md): a file that long holds more than one concern. The
// database schema is one table list, and generated data is not written by hand, so they do not count.

const root = path.resolve(import.meta.dirname, "../..");
const MAX_LINES = 300;
const CODE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const EXEMPT = new Set(["app/server/db/schema.ts"]);

/** Source files still over the limit today; each entry leaves the list when its file is split. */
const SOURCE_WAITING = new Set<string>([]);

/** Test files still over the limit today. */
const TESTS_WAITING = new Set([
  "tests/e2e/desktop-api.spec.ts", // split by issue 23
  "tests/integration/account-security.test.ts", // split by issue 23
  "tests/integration/accounts.test.ts", // split by issue 23
  "tests/integration/admin.test.ts", // split by issue 23
  "tests/integration/customer-mail.test.ts", // split by issue 23
  "tests/integration/http-hardening.test.ts", // split by issue 23
  "tests/integration/license-actions.test.ts", // split by issue 23
  "tests/integration/license-api.test.ts", // split by issue 23
  "tests/integration/payment-problems.test.ts", // split by issue 23
  "tests/integration/webhook-order.property.test.ts", // split by issue 23
  "tests/unit/license-verify.test.ts", // split by issue 23
  "tests/unit/signed-in-page-cache.test.ts", // split by issue 23
]);

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

/** Files over the limit that are not waiting, and waiting files that are no longer over it. */
function check(folders: string[], waiting: Set<string>) {
  const counts = lineCounts(folders);
  expect(counts.size).toBeGreaterThan(20);
  const over = [...counts].filter(([, lines]) => lines > MAX_LINES).map(([file, lines]) => `${file}: ${lines}`);
  return {
    over: over.filter((entry) => !waiting.has(entry.split(":")[0]!)),
    // A split file must leave the list, so the list only shrinks.
    stale: [...waiting].filter((file) => (counts.get(file) ?? 0) <= MAX_LINES),
  };
}

describe(`no file over ${MAX_LINES} lines`, () => {
  it("in app/, server/, scripts/ and bench/ (outside the schema)", () => {
    expect(check(["app", "server", "scripts", "bench"], SOURCE_WAITING)).toEqual({ over: [], stale: [] });
  });

  it("in tests/", () => {
    expect(check(["tests"], TESTS_WAITING)).toEqual({ over: [], stale: [] });
  });
});
