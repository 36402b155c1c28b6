import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The caches live in one folder with one entry point (docs/caching.md, decision 0031): code outside
// app/server/cache/ imports only caches.server.ts from it, and the channel and cookie names are spelled
// only in names.server.ts.

const root = path.resolve(import.meta.dirname, "../../..");
const CACHE_DIR = path.join(root, "app/server/cache");
const ENTRY = path.join(CACHE_DIR, "caches.server.ts");
const SOURCE_DIRS = ["app", "server", "scripts"];

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Where an import specifier points (relative or `~/`), without its extension; null for packages. */
function resolved(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return path.join(root, "app", specifier.slice(2));
  if (specifier.startsWith(".")) return path.resolve(path.dirname(from), specifier);
  return null;
}

const outside = SOURCE_DIRS.flatMap(sourceFiles).filter((file) => !file.startsWith(CACHE_DIR + path.sep));

describe("the caches' folder", () => {
  it("is imported from outside only through caches.server.ts", () => {
    const breaches: string[] = [];
    let entryImports = 0;
    for (const file of outside) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const target = resolved(file, match[1]!);
        if (!target?.startsWith(CACHE_DIR + path.sep)) continue;
        if (target.replace(/\.ts$/, "") === ENTRY.replace(/\.ts$/, "")) entryImports++;
        else breaches.push(`${path.relative(root, file)} → ${match[1]}`);
      }
    }
    expect(breaches).toEqual([]);
    expect(entryImports).toBeGreaterThan(5);
  });

  it("spells the channel and cookie names nowhere else in the code", () => {
    const names = [
      "forgekit_user_changes",
      "forgekit_public_pages",
      "forgekit_sessions",
      '"session_token"',
      '"fk_toast"',
    ];
    const files = [...outside, ...sourceFiles("app/server/cache")].filter((file) => !file.endsWith("names.server.ts"));
    const spelled = files.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      return names.filter((name) => text.includes(name)).map((name) => `${path.relative(root, file)}: ${name}`);
    });
    expect(spelled).toEqual([]);
  });
});
