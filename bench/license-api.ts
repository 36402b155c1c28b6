// The desktop API's validation throughput (decisions 0041 and 0051): POST /api/v1/licenses/validate with a
// machine fingerprint (each license has its machine activated, as a newer tool validates) against the
// built site (`node server.js` on BUILD_DIR, default build-test/), once on embedded PGlite and once on
// PostgreSQL, measured with wrk and a Lua script that rotates over many keys, some of them superseded
// by a newer key. Prints validations per second, p50/p95/p99 latency and the CPU each validation cost
// the site's process and PostgreSQL's backends (steadier than requests/s on a shared machine).
// Target: ≥ 2,000/s on PostgreSQL. PostgreSQL: BENCH_DATABASE_URL, else
// postgres://root@127.0.0.1:5432/test when it answers; the bench creates its own database and drops
// it. BENCH_LICENSES, BENCH_DURATION (s a round), BENCH_CONNECTIONS, BENCH_THREADS, BENCH_ROUNDS,
// BENCH_PGLITE=0 (PostgreSQL only). Side by side: BENCH_BASELINE_BUILD=<another build directory of
// this repository> starts that build too on the same PostgreSQL database and alternates rounds
// between the two (A B, B A, …), printing each round and the ratios pair by pair. BENCH_CPU_PROF=<dir>
// runs this build under `node --cpu-prof` and prints where its time went (the profile stays there).
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../app/server/db/client.server";
import { startServer, type ServerProcess } from "../tests/support/server-process";
import { printProfile } from "./license-api/profile";
import { seed, type Call } from "./license-api/seed";
import { cpuMs, cpuSpent, DONE, ensureWrk, luaScript, median, runWrk, type Figures } from "./license-api/wrk";
import { freePort, withScratchDatabase } from "./support";

const LICENSES = Number(process.env.BENCH_LICENSES ?? 2000);
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const BASELINE = process.env.BENCH_BASELINE_BUILD;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (BASELINE ? 4 : 1));
const WITH_PGLITE = process.env.BENCH_PGLITE !== "0";
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const SERVER_ENV = { API_RATE_LIMIT: "1000000000", API_KEY_RATE_LIMIT: "1000000000", LOG_LEVEL: "warn" };

/** One validation by hand: signed, VALID with the machine for a current and a superseded key. */
async function sanityCheck(url: string, calls: Call[]): Promise<void> {
  for (const { key, fingerprint } of [calls[0]!, calls[1]!]) {
    const response = await fetch(`${url}/api/v1/licenses/validate`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key, fingerprint, nonce: "bench-sanity-check-0001" }),
    });
    const body = (await response.json()) as { code?: string; machine?: unknown };
    if (response.status !== 200 || body.code !== "VALID" || !body.machine || !response.headers.get("signature"))
      throw new Error(`validate answered ${response.status} ${JSON.stringify(body)}`);
  }
}

/** A running build under test. */
interface Target {
  label: string;
  server: ServerProcess;
}

interface Round extends Figures {
  /** CPU milliseconds per validation: the site's process (PGlite runs inside it) and PostgreSQL's backends. */
  serverCpu: number;
  databaseCpu: number;
}

const load = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;

/** PostgreSQL's backends serving the database at `url` (none for PGlite). */
async function backends(url: string | undefined): Promise<number[]> {
  if (!url) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** One round of wrk against a target, with the CPU the site and the database spent on it. */
async function round(target: Target, script: string, databaseUrl: string | undefined): Promise<Round> {
  const database = await backends(databaseUrl);
  const before = cpuMs([target.server.pid, ...database]);
  const figures = runWrk(`${target.server.origin}/api/v1/licenses/validate`, script, {
    seconds: SECONDS,
    threads: THREADS,
    connections: CONNECTIONS,
  });
  const after = cpuMs([target.server.pid, ...(await backends(databaseUrl))]);
  const serverAfter = new Map([[target.server.pid, after.get(target.server.pid)!]]);
  const serverCpu = cpuSpent(before, serverAfter);
  after.delete(target.server.pid);
  return {
    ...figures,
    serverCpu: serverCpu / figures.requests,
    databaseCpu: cpuSpent(before, after) / figures.requests,
  };
}

function describe(label: string, r: Round): string {
  const errors =
    r.statusErrors + r.socketErrors > 0 ? `; ${r.statusErrors} non-2xx answers, ${r.socketErrors} socket errors` : "";
  return (
    `  ${label}: ${Math.round(r.perSecond).toLocaleString("en")} validations/s, p50 ${r.p50.toFixed(1)} ms, ` +
    `p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms; CPU per validation: site ${r.serverCpu.toFixed(3)} ms` +
    `${r.databaseCpu > 0 ? `, PostgreSQL ${r.databaseCpu.toFixed(3)} ms` : ""}${errors} (${load()})`
  );
}

/** ROUNDS rounds over the targets, alternating which goes first; prints every round and the medians. */
async function rounds(targets: Target[], script: string, databaseUrl: string | undefined): Promise<Round[][]> {
  const results: Round[][] = targets.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? targets.keys() : [...targets.keys()].reverse();
    for (const i of order) {
      const result = await round(targets[i]!, script, databaseUrl);
      results[i]!.push(result);
      console.log(describe(`${targets[i]!.label}, round ${r + 1}`, result));
    }
  }
  return results;
}

function summary(targets: Target[], results: Round[][]): void {
  for (const [i, target] of targets.entries()) {
    const of = (pick: (r: Round) => number) => median(results[i]!.map(pick));
    console.log(
      `  ${target.label}, median of ${ROUNDS}: ${Math.round(of((r) => r.perSecond)).toLocaleString("en")} validations/s, ` +
        `p95 ${of((r) => r.p95).toFixed(1)} ms, CPU per validation: site ${of((r) => r.serverCpu).toFixed(3)} ms` +
        `${of((r) => r.databaseCpu) > 0 ? `, PostgreSQL ${of((r) => r.databaseCpu).toFixed(3)} ms` : ""}`,
    );
  }
  if (targets.length !== 2) return;
  const ratio = (pick: (r: Round) => number) =>
    median(results[0]!.map((r, k) => pick(r) / pick(results[1]![k]!))).toFixed(2);
  console.log(
    `  ${targets[0]!.label} ÷ ${targets[1]!.label}, pair by pair (median): validations/s ×${ratio((r) => r.perSecond)}, ` +
      `p95 ×${ratio((r) => r.p95)}, site CPU ×${ratio((r) => r.serverCpu)}, PostgreSQL CPU ×${ratio((r) => r.databaseCpu + 1e-9)}`,
  );
}

/** Starts the build(s) on the seeded database, warms them up, measures; returns this build's median validations/s. */
async function measure(label: string, dataDir: string, env: Record<string, string>, calls: Call[]): Promise<number> {
  const script = path.join(dataDir, "validate.lua");
  fs.writeFileSync(script, luaScript(calls));
  const builds = BASELINE && env.DATABASE_URL ? [undefined, BASELINE] : [undefined];
  const targets: Target[] = [];
  try {
    for (const build of builds) {
      const server = await startServer({
        port: await freePort(),
        dataDir,
        env: { ...SERVER_ENV, ...env, ...(build ? { BUILD_DIR: build } : {}) },
        nodeArgs: PROFILE_DIR && !build ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [],
      });
      targets.push({ label: `${label}, ${build ?? "this build"}`, server });
      await sanityCheck(server.origin, calls);
      const options = { seconds: 2, threads: THREADS, connections: CONNECTIONS };
      runWrk(`${server.origin}/api/v1/licenses/validate`, script, options); // warm-up: JIT, pool, caches
    }
    const results = await rounds(targets, script, env.DATABASE_URL);
    summary(targets, results);
    if (targets.length === 1) keysCeiling(targets[0]!.server, dataDir);
    return median(results[0]!.map((r) => r.perSecond));
  } finally {
    for (const target of targets) await target.server.stop();
    if (PROFILE_DIR) printProfile(PROFILE_DIR); // written as the server stopped
  }
}

/** The same server without the database: the router, the IP rate limit, JSON and signing alone. */
function keysCeiling(server: ServerProcess, dataDir: string): void {
  const doneScript = path.join(dataDir, "done.lua");
  fs.writeFileSync(doneScript, DONE);
  const options = { seconds: Math.max(2, Math.round(SECONDS / 2)), threads: THREADS, connections: CONNECTIONS };
  const keys = runWrk(`${server.origin}/api/v1/keys`, doneScript, options);
  console.log(`  GET /api/v1/keys on the same server: ${Math.round(keys.perSecond).toLocaleString("en")}/s`);
}

async function main() {
  console.log(
    `license API: POST /api/v1/licenses/validate with a fingerprint over ${LICENSES.toLocaleString("en")} licenses ` +
      `(a quarter of the keys superseded, one machine each), wrk ${THREADS} thread(s), ${CONNECTIONS} connections, ` +
      `${ROUNDS} round(s) of ${SECONDS} s; ${os.cpus().length} cores, ${load()}`,
  );
  if (!ensureWrk()) return;

  if (WITH_PGLITE) {
    const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-api-pglite-"));
    try {
      const database = await openDatabase({ dataDir: pgliteDir });
      let calls: Call[];
      try {
        calls = await seed(database, pgliteDir, LICENSES);
      } finally {
        await database.close();
      }
      await measure("embedded PGlite", pgliteDir, {}, calls);
    } finally {
      fs.rmSync(pgliteDir, { recursive: true, force: true });
    }
  }

  await withScratchDatabase("bench_api", async (url, dataDir) => {
    const database = await openDatabase({ url });
    let calls: Call[];
    try {
      calls = await seed(database, dataDir, LICENSES);
    } finally {
      await database.close();
    }
    const perSecond = await measure("PostgreSQL", dataDir, { DATABASE_URL: url }, calls);
    console.log(`  target ≥ 2,000 validations/s on PostgreSQL: ${perSecond >= 2000 ? "met" : "NOT met"}`);
  });
}

await main();
