import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Decision 0068: the integration files of a worker share its modules, so vi.mock cannot replace a module
// another file loaded first. A file that mocks one must be listed in ISOLATED (vitest.config.ts), which
// runs it in a module graph of its own.

const root = path.resolve(import.meta.dirname, "../../..");

function integrationFiles(): string[] {
  return fs
    .readdirSync(path.join(root, "tests/integration"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.posix.join("tests/integration", file.split(path.sep).join("/")));
}

describe("integration files that mock a module run isolated", () => {
  it("every file calling vi.mock or vi.doMock is in vitest.config.ts's ISOLATED list, and only those", () => {
    const config = fs.readFileSync(path.join(root, "vitest.config.ts"), "utf8");
    const listed = /const ISOLATED = \[([^\]]*)\]/.exec(config)?.[1] ?? "";
    const isolated = [...listed.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
    const files = integrationFiles();
    expect(files.length).toBeGreaterThan(100);
    const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(mocking.length).toBeGreaterThan(0);
    expect(isolated.sort()).toEqual(mocking.sort());
  });
});
