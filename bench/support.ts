// What the TypeScript benchmarks that start the built site share: a free port, and a PostgreSQL
// database of their own (BENCH_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), created
// for the run and dropped after it, with a data directory beside it.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs `run` with the address of a fresh PostgreSQL database and an empty data directory, then drops
 * both. Prints a line and returns false when PostgreSQL does not answer.
 */
export async function withScratchDatabase(
  prefix: string,
  run: (databaseUrl: string, dataDir: string) => Promise<void>,
): Promise<boolean> {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
  } catch {
    console.log(`  PostgreSQL: not reachable at ${base}; set BENCH_DATABASE_URL`);
    return false;
  }
  const name = `${prefix}_${Date.now().toString(36)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll("_", "-")}-`));
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    await run(url.toString(), dataDir);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return true;
}
