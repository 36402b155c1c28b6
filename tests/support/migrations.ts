import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrationsFolder } from "~/server/db/client.server";

const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

/** How many migrations there are. */
export function migrationCount(): number {
  return journal.entries.length;
}

/** How many migrations a database as it was before `tag` has applied. */
export function appliedBefore(tag: string): number {
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag}`);
  return at;
}

/** A migrations folder holding only the first `n` migrations. */
export function firstMigrations(n: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fk-mig-"));
  fs.mkdirSync(path.join(dir, "meta"));
  const entries = journal.entries.slice(0, n);
  fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    fs.copyFileSync(path.join(migrationsFolder(), `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}
