// Admin user search latency per kind of query (target: p95 under 50 ms on PostgreSQL with 1,000,000
// users and 3,000,000 licenses), p50/p95 and a verdict per kind; the data is bench/admin-search/seed.ts.
// PostgreSQL: a scratch database (tests/support/scratch.ts) on BENCH_DATABASE_URL's server, default
// postgres://root@127.0.0.1:5432/test, dropped after the run. Size: BENCH_USERS or `--users=N`
// (default 1,000,000; e.g. `--users=20000` for a quick run). BENCH_KEEP_DATABASE=<name> keeps the
// seeded database under that name and measures it again next time without seeding (this tree's
// migrations applied first). BENCH_SAMPLES terms per kind (30), BENCH_ROUNDS rounds over the kinds (1).
// `--explain` prints each kind's EXPLAIN (ANALYZE, BUFFERS) figures instead (`--plans`: the plans too).
// The embedded PGlite (in memory) is measured at BENCH_PGLITE_USERS (default 100,000; 0 skips it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { searchUsers } from "../app/server/admin/search-users.server";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { parseEnv, setEnv } from "../app/server/env.server";
import { explainKinds } from "./admin-search/explain";
import { queryKinds, seed } from "./admin-search/seed";
import { withScratchDatabase } from "./support";

const usersArgument = process.argv.find((arg) => arg.startsWith("--users="))?.slice("--users=".length);
const PG_USERS = Number(usersArgument ?? process.env.BENCH_USERS ?? 1_000_000);
const PGLITE_USERS = Number(process.env.BENCH_PGLITE_USERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const EXPLAIN = process.argv.includes("--explain");
const PLANS = process.argv.includes("--plans");
setEnv(
  parseEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-search-")),
  }),
);

const percentile = (times: number[], p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
const TARGET_MS = 50;
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

/** p50 and p95 of `times` (sorted here), with the verdict against the target. */
function figures(label: string, times: number[], extra = "") {
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 0.95);
  console.log(
    `    ${label.padEnd(32)} p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ${p95 < TARGET_MS ? "met" : "NOT met"}${extra}`,
  );
  return p95;
}

/** Times SAMPLES searches of each kind (after a warm-up round), ROUNDS times over; returns the worst p95. */
async function timeKinds(database: DatabaseHandle, kinds: [string, () => string][]): Promise<number> {
  for (const [, term] of kinds) for (let i = 0; i < 3; i++) await searchUsers(term()); // warm-up
  const times = new Map(kinds.map(([kind]) => [kind, [] as number[]]));
  const found = new Map(kinds.map(([kind]) => [kind, 0]));
  // Rounds interleave the kinds, so a busy minute of the machine falls on all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, term] of kinds) {
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        const page = await searchUsers(term());
        times.get(kind)!.push(performance.now() - start);
        if (page.users.length > 0) found.set(kind, found.get(kind)! + 1);
      }
    }
  }
  // The machine's floor: a round trip that does nothing, as often as one kind, right after the kinds.
  const floor: number[] = [];
  for (let i = 0; i < SAMPLES * ROUNDS; i++) {
    const start = performance.now();
    await database.db.execute(sql`select 1`);
    floor.push(performance.now() - start);
  }
  let worst = 0;
  for (const [kind] of kinds) {
    const p95 = figures(kind, times.get(kind)!, `  (found in ${found.get(kind)}/${SAMPLES * ROUNDS})`);
    worst = Math.max(worst, p95);
  }
  worst = Math.max(worst, figures("all kinds", [...times.values()].flat()));
  floor.sort((a, b) => a - b);
  console.log(
    `    ${"(select 1, for reference)".padEnd(32)} p50 ${percentile(floor, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(floor, 0.95).toFixed(1).padStart(6)} ms`,
  );
  return worst;
}

/** Seeds unless `seeded`, then times each kind of query (or explains it, with --explain); returns the worst p95. */
async function measure(label: string, database: DatabaseHandle, users: number, seeded = false): Promise<number> {
  const t0 = performance.now();
  await database.migrate();
  if (!seeded) await seed(database, users);
  const size = seeded ? await userCount(database) : users;
  console.log(
    `  ${label}: ${size.toLocaleString("en")} users, ${(size * 3).toLocaleString("en")} licenses, ${seeded ? "kept" : "seeded"} in ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${load()}`,
  );
  setDatabase(database);
  const kinds = Object.entries(queryKinds(size));
  const worst = EXPLAIN ? (await explainKinds(database, kinds, SAMPLES, PLANS), 0) : await timeKinds(database, kinds);
  console.log(`    load average ${load()} at the end`);
  setDatabase(undefined);
  return worst;
}

async function userCount(database: DatabaseHandle): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from users`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

/** Seeds (unless kept from an earlier run) and measures the PostgreSQL database at `url`. */
async function measurePostgres(url: string, seeded: boolean) {
  const postgres = await openDatabase({ url, maxConnections: 4 });
  try {
    const p95 = await measure("PostgreSQL", postgres, PG_USERS, seeded);
    if (!EXPLAIN)
      console.log(
        `  target p95 < ${TARGET_MS} ms on PostgreSQL for every kind: ${p95 < TARGET_MS ? "met" : "NOT met"}`,
      );
  } finally {
    await postgres.close();
  }
}

/** The kept database named `name` on the server at `base`, created when missing. */
async function keptDatabase(base: string, name: string): Promise<{ url: string; exists: boolean }> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
    if (!exists) await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { url: url.toString(), exists };
  } finally {
    await admin.end();
  }
}

console.log("admin user search, per kind of query");
const kept = process.env.BENCH_KEEP_DATABASE;
if (kept) {
  const { url, exists } = await keptDatabase(
    process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test",
    kept,
  );
  await measurePostgres(url, exists);
} else {
  await withScratchDatabase("bench_search", (url) => measurePostgres(url, false));
}
if (PGLITE_USERS > 0 && !EXPLAIN) {
  const pglite = await openDatabase({ memory: true });
  await measure("embedded PGlite (in memory)", pglite, PGLITE_USERS);
  await pglite.close();
}
