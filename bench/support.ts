// What the TypeScript benchmarks share: a free port, and a PostgreSQL database of their own
// (BENCH_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), created for the run and dropped
// after it, with a data directory beside it. Both come from tests/support/scratch.ts, which the tests
// use too (bench/ leans on tests/support/, never the other way round: see that file).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createScratchDatabase, type ScratchDatabase } from "../tests/support/scratch";

export { freePort } from "../tests/support/scratch";

/**
 * Runs `run` with the address of a fresh PostgreSQL database and an empty data directory, then drops
 * both. Prints a line and returns false when PostgreSQL does not answer.
 */
export async function withScratchDatabase(
  prefix: string,
  run: (databaseUrl: string, dataDir: string) => Promise<void>,
): Promise<boolean> {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  let database: ScratchDatabase;
  try {
    database = await createScratchDatabase(base, prefix);
  } catch (error) {
    console.log(`  PostgreSQL: not reachable at ${base} (${(error as Error).message}); set BENCH_DATABASE_URL`);
    return false;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll("_", "-")}-`));
  try {
    await run(database.url, dataDir);
  } finally {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return true;
}
