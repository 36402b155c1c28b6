// Background jobs processed per second (app/server/jobs: pg-boss), on the embedded database and
// on PostgreSQL: N jobs queued with idempotency keys (each in its own transaction, as the app
// queues them), then run by the app's polling workers until all are completed.
// PostgreSQL: BENCH_DATABASE_URL, else postgres://root@127.0.0.1:5432/test when it answers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { parseEnv, setEnv } from "../app/server/env.server";
import { JOBS_SCHEMA, startJobs, stopJobs, type JobDefinitions } from "../app/server/jobs/jobs.server";
import { withScratchDatabase } from "./support";

const N = Number(process.env.BENCH_JOBS ?? 300);

setEnv(
  parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-jobs-")) }),
);

let done = 0;
const definitions: JobDefinitions = {
  "bench-noop": {
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    expireInSeconds: 60,
    payload: z.object({ i: z.number() }),
    handle: async () => {
      done++;
    },
  },
};

async function run(label: string, database: DatabaseHandle) {
  await database.migrate();
  setDatabase(database);
  done = 0;
  const queue = await startJobs(database, { definitions, work: false });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await queue.enqueue("bench-noop", { i }, { key: `bench:${label}:${i}` });
  const queued = performance.now() - t0;
  await stopJobs();
  // The same path as the app: pg-boss's workers poll, fetch one job each and complete it.
  const t1 = performance.now();
  const workers = await startJobs(database, { definitions, pollingIntervalSeconds: 0.5 });
  const completed = async () =>
    (
      await workers.executeSql(
        `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = 'bench-noop' AND state = 'completed'`,
      )
    ).rows[0]!.n as number;
  while ((await completed()) < N) await new Promise((resolve) => setTimeout(resolve, 20));
  const ran = performance.now() - t1;
  await stopJobs();
  setDatabase(undefined);
  console.log(
    `  ${label}: queued ${Math.round((N / queued) * 1000)}/s, processed ${Math.round((N / ran) * 1000)}/s ` +
      `(one worker, batches of 10; ${done} handler runs)`,
  );
}

console.log(`background jobs per second (${N} jobs with keys; queued one transaction each, then run)`);
const pglite = await openDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "bench-jobs-pglite-")) });
try {
  await run("embedded PGlite (on disk)", pglite);
} finally {
  await pglite.close();
}

await withScratchDatabase("bench_jobs", async (url) => {
  const postgres = await openDatabase({ url, maxConnections: 10 });
  try {
    await run("PostgreSQL", postgres);
  } finally {
    await postgres.close();
  }
});
