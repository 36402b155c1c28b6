// pg_dump and pg_restore for `npm run backup` / `npm run restore` on PostgreSQL: found on PATH, of a
// version that can read the server (the same major version or newer), or a message saying how to install them.
import { spawnSync } from "node:child_process";
import pg from "pg";

export class ToolError extends Error {
  override name = "ToolError";
}

/** The server's major version (e.g. 16). */
export async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("show server_version_num");
    return Math.floor(Number(rows[0]!.v) / 10000);
  } finally {
    await client.end();
  }
}

/** Checks `tool` (pg_dump or pg_restore) is installed and not older than the server. */
export function checkTool(tool: "pg_dump" | "pg_restore", server: number): void {
  const install = `install it: apt-get install postgresql-client-${server} (or postgresql-client)`;
  const run = spawnSync(tool, ["--version"], { encoding: "utf8" });
  if (run.error || run.status !== 0) throw new ToolError(`${tool} is not installed on this machine; ${install}`);
  const major = Number(/(\d+)(?:\.\d+)?/.exec(run.stdout)?.[1]);
  if (!Number.isInteger(major)) throw new ToolError(`cannot read ${tool}'s version from: ${run.stdout.trim()}`);
  if (major < server) {
    throw new ToolError(`${tool} ${major} is older than the PostgreSQL ${server} server; ${install}`);
  }
}

/** What pg_dump and pg_restore are given for a database: the address without its password, and their environment. */
export interface Connection {
  /** For `--dbname=`: the URL (or key=value string) with no password in it. */
  dbname: string;
  /** PGPASSWORD when the address held one (libpq reads it from the environment). */
  env: Record<string, string>;
}

const KEYWORD_PASSWORD = /(^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S*)\s*/;

/**
 * DATABASE_URL split for the tools (decision 0055): its password moves to PGPASSWORD, so it never
 * stands on a command line, which any user of the machine can read in /proc/<pid>/cmdline. Both a
 * URL's `user:password@` and `?password=` and a key=value string's `password=` are taken out.
 */
export function connectionFor(address: string): Connection {
  let url: URL | null = null;
  try {
    url = /^postgres(ql)?:\/\//.test(address) ? new URL(address) : null;
  } catch {
    url = null;
  }
  if (url) {
    const password = url.password ? decodeURIComponent(url.password) : url.searchParams.get("password");
    url.password = "";
    url.searchParams.delete("password");
    return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
  }
  const match = KEYWORD_PASSWORD.exec(address);
  if (!match) return { dbname: address, env: {} };
  const raw = match[2]!;
  const password = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
  return { dbname: address.replace(KEYWORD_PASSWORD, "$1").trim(), env: { PGPASSWORD: password } };
}

/** Runs a tool, throwing its error output when it fails; `env` adds to this process's environment. */
export function runTool(tool: string, args: string[], env: Record<string, string> = {}): void {
  const run = spawnSync(tool, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  if (run.error) throw new ToolError(`${tool}: ${run.error.message}`);
  if (run.status !== 0) throw new ToolError(`${tool} failed:\n${run.stderr.trim()}`);
}
