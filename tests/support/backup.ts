import { spawnSync } from "node:child_process";
import pg from "pg";
import { REPO_ROOT } from "./server-process";

/**
 * A fresh PostgreSQL database on TEST_DATABASE_URL's server (empty, or a copy of `template`), and the
 * function that drops it.
 */
export async function scratchDatabase(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${prefix.replace(/[^a-z0-9_]/g, "_")}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Runs `npm run backup` / `npm run restore` as an operator would, with only the given variables. */
export function runScript(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** How many migrations a database has applied (drizzle's journal table). */
export async function appliedMigrations(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<number> {
  const { rows } = await query("select count(*)::int as n from drizzle.__drizzle_migrations");
  return Number((rows[0] as { n: number }).n);
}
