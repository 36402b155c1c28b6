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

/** Runs a tool, throwing its error output when it fails. */
export function runTool(tool: string, args: string[]): void {
  const run = spawnSync(tool, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw new ToolError(`${tool}: ${run.error.message}`);
  if (run.status !== 0) throw new ToolError(`${tool} failed:\n${run.stderr.trim()}`);
}
