import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { parseEnv } from "~/server/env.server";

// Only the embedded engine keeps files of its own (PostgreSQL's are the server's business).

/** Every entry under a directory with its permission bits, e.g. { "pglite/base": "700" }. */
function modes(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      found.set(path.relative(root, full), (fs.statSync(full).mode & 0o777).toString(8));
      if (entry.isDirectory()) walk(full);
    }
  };
  found.set(".", (fs.statSync(root).mode & 0o777).toString(8));
  walk(root);
  return found;
}

function notPrivate(root: string): string[] {
  return [...modes(root)]
    .filter(([name, mode]) => {
      const isDir = fs.statSync(path.join(root, name)).isDirectory();
      return mode !== (isDir ? "700" : "600");
    })
    .map(([name, mode]) => `${name} ${mode}`);
}

describe("the embedded data directory is private to the site's user", () => {
  const parents: string[] = [];
  afterEach(() => {
    for (const dir of parents.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("creates DATA_DIR 0700 with the secrets, the lock and every PGlite file 0600 (directories 0700)", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "fk-modes-"));
    parents.push(parent);
    const dataDir = path.join(parent, "data");
    const previousUmask = process.umask(0o022);
    try {
      parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
      const database = await openDatabase({ dataDir });
      await database.migrate();
      expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
      expect(fs.readdirSync(path.join(dataDir, "pglite")).length).toBeGreaterThan(5);
      expect(notPrivate(dataDir)).toEqual([]);
      await database.close();
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      process.umask(previousUmask);
    }
  });

  it("makes an existing data directory from an older version private when the site opens it", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "fk-modes-"));
    parents.push(parent);
    const dataDir = path.join(parent, "data");
    const first = await openDatabase({ dataDir });
    await first.migrate();
    await first.close();
    parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    // What older versions left: world-readable everything.
    const loosen = (dir: string) => {
      fs.chmodSync(dir, 0o755);
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) loosen(full);
        else fs.chmodSync(full, 0o666);
      }
    };
    loosen(dataDir);
    expect(notPrivate(dataDir).length).toBeGreaterThan(5);

    parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const database = await openDatabase({ dataDir });
    expect(notPrivate(dataDir)).toEqual([]);
    await database.close();
  });
});
