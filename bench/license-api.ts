// The desktop API's validation throughput (issues 12 and 26): POST /api/v1/licenses/validate with a
// machine fingerprint (each license has its machine activated, as a newer tool validates) against the
// built site (`node server.js` on BUILD_DIR, default build-test/), once on embedded PGlite and once on
// PostgreSQL, measured with wrk (Debian's package; installed through apt-get when missing and run as
// root) and a Lua script that rotates over many keys, some of them superseded by a newer key.
// Prints validations per second and the p95 latency per engine. Target: ≥ 2,000/s on PostgreSQL.
// PostgreSQL: BENCH_DATABASE_URL, else postgres://root@127.0.0.1:5432/test when it answers; the
// bench creates its own database and drops it. BENCH_LICENSES, BENCH_DURATION (s), BENCH_CONNECTIONS.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { licenses, machines, profiles, users } from "../app/server/db/schema";
import { fingerprintHash } from "../app/server/machines/machine-records.server";
import { parseEnv } from "../app/server/env.server";
import { createLicenseKeys } from "../app/server/license-keys/license-key.server";
import { startServer } from "../tests/support/server-process";
import { freePort, withScratchDatabase } from "./support";

const LICENSES = Number(process.env.BENCH_LICENSES ?? 2000);
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const DAY = 86_400_000;

function ensureWrk(): boolean {
  if (spawnSync("wrk", ["--version"]).error === undefined) return true;
  if (process.getuid?.() !== 0) {
    console.log("  wrk is not installed: `apt-get update && apt-get install -y wrk` as root, then run again");
    return false;
  }
  console.log("  installing wrk (apt-get)…");
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "wrk"],
  ]) {
    const result = spawnSync("apt-get", args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0) {
      console.log(`  apt-get ${args.join(" ")} failed`);
      return false;
    }
  }
  return true;
}

/**
 * LICENSES users with one active yearly license each, keys made with the data directory's secrets
 * (the ones the server reads); every fourth license then gets a new key, so its first key is a
 * superseded one the API must still resolve. Each license has one machine activated (a fingerprint
 * seen just now, so validations record nothing within the hour). Returns the keys and fingerprints.
 */
async function seed(database: DatabaseHandle, dataDir: string): Promise<Call[]> {
  await database.migrate();
  const env = parseEnv({ NODE_ENV: "development", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const keys = createLicenseKeys(env.LICENSE_SECRET, env.LICENSE_SALT);
  const start = new Date(Date.now() - DAY);
  const end = new Date(Date.now() + 365 * DAY);
  const tag = Date.now().toString(36);
  const issued: Call[] = [];
  for (let from = 0; from < LICENSES; from += 500) {
    const count = Math.min(500, LICENSES - from);
    const emails = Array.from({ length: count }, (_, i) => `bench-api-${tag}-${from + i}@example.com`);
    const made = await database.db
      .insert(users)
      .values(emails.map((email) => ({ email, name: "Bench", emailVerified: true })))
      .returning({ id: users.id, email: users.email });
    await database.db.insert(profiles).values(made.map((user) => ({ id: user.id, full_name: "Bench User" })));
    const rows = made.map((user) => ({
      user_id: user.id,
      email: user.email,
      license_key: keys.generate({
        email: user.email,
        windows_username: null,
        computer_name: null,
        start_date: start,
        end_date: end,
      }),
      license_type: "yearly" as const,
      status: "active" as const,
      start_date: start,
      end_date: end,
      auto_renew: true,
      purchase_date: start,
    }));
    const inserted = await database.db
      .insert(licenses)
      .values(rows)
      .returning({ id: licenses.id, key: licenses.license_key, email: licenses.email, user_id: licenses.user_id });
    const fingerprints = inserted.map((_, i) => `bench-machine-${tag}-${String(from + i).padStart(6, "0")}`);
    await database.db.insert(machines).values(
      inserted.map((row, i) => ({
        license_id: row.id,
        user_id: row.user_id,
        fingerprint_hash: fingerprintHash(fingerprints[i]!),
        name: `BENCH-${from + i}`,
        platform: "Windows 11 x64",
        app_version: "2.4.0",
      })),
    );
    for (const [i, row] of inserted.entries()) {
      issued.push({ key: row.key, fingerprint: fingerprints[i]! });
      if (i % 4 !== 0) continue;
      const next = keys.generate({
        email: row.email,
        windows_username: null,
        computer_name: null,
        start_date: start,
        end_date: new Date(end.getTime() + DAY),
      });
      await database.db
        .update(licenses)
        .set({ license_key: next, end_date: new Date(end.getTime() + DAY) })
        .where(eq(licenses.id, row.id));
    }
  }
  return issued;
}

/** wrk's summary on one line the bench reads: requests, duration, latency percentiles, errors. */
const DONE = `function done(summary, latency, requests)
  io.write(string.format("BENCH requests=%d duration_us=%d p50_us=%d p95_us=%d p99_us=%d status_errors=%d socket_errors=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

interface Call {
  key: string;
  fingerprint: string;
}

function luaScript(calls: Call[]): string {
  return `-- POST /api/v1/licenses/validate, rotating over ${calls.length} keys with their machines, a fresh nonce each time
local keys = {
${calls.map((call) => `  ${JSON.stringify(call.key)},`).join("\n")}
}
local fingerprints = {
${calls.map((call) => `  ${JSON.stringify(call.fingerprint)},`).join("\n")}
}
local threads = {}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end
function init(args)
  n = id * 7919
  headers = { ["Content-Type"] = "application/json" }
end
function request()
  n = n + 1
  local at = (n % #keys) + 1
  local body = '{"key":"' .. keys[at] .. '","fingerprint":"' .. fingerprints[at] .. '","nonce":"' .. string.format("bench%04d%012d", id, n) .. '"}'
  return wrk.format("POST", "/api/v1/licenses/validate", headers, body)
end
${DONE}`;
}

interface Figures {
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  statusErrors: number;
  socketErrors: number;
}

function runWrk(url: string, script: string, seconds: number): Figures {
  const result = spawnSync(
    "wrk",
    [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", script, url],
    { encoding: "utf8" },
  );
  const line = /BENCH (.+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !line)
    throw new Error(`wrk failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  const value = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(line)![1]);
  return {
    perSecond: value("requests") / (value("duration_us") / 1e6),
    p50: value("p50_us") / 1000,
    p95: value("p95_us") / 1000,
    p99: value("p99_us") / 1000,
    statusErrors: value("status_errors"),
    socketErrors: value("socket_errors"),
  };
}

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

async function measure(label: string, dataDir: string, env: Record<string, string>, keys: Call[]) {
  const script = path.join(dataDir, "validate.lua");
  fs.writeFileSync(script, luaScript(keys));
  const doneScript = path.join(dataDir, "done.lua");
  fs.writeFileSync(doneScript, DONE);
  const server = await startServer({
    port: await freePort(),
    dataDir,
    env: { API_RATE_LIMIT: "1000000000", API_KEY_RATE_LIMIT: "1000000000", LOG_LEVEL: "warn", ...env },
  });
  try {
    await sanityCheck(server.origin, keys);
    const validate = `${server.origin}/api/v1/licenses/validate`;
    runWrk(validate, script, 2); // warm-up: JIT, connection pool, caches
    const figures = runWrk(validate, script, SECONDS);
    // The same server without the database: the router, rate limit, JSON and signing alone.
    const keysOnly = runWrk(`${server.origin}/api/v1/keys`, doneScript, Math.max(2, Math.round(SECONDS / 2)));
    const errors =
      figures.statusErrors + figures.socketErrors > 0
        ? `; ${figures.statusErrors} non-2xx answers, ${figures.socketErrors} socket errors`
        : "";
    console.log(
      `  ${label}: ${Math.round(figures.perSecond).toLocaleString("en")} validations/s, ` +
        `p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms${errors}` +
        ` (GET /api/v1/keys, no database: ${Math.round(keysOnly.perSecond).toLocaleString("en")}/s)`,
    );
    return figures;
  } finally {
    await server.stop();
  }
}

async function main() {
  console.log(
    `license API: POST /api/v1/licenses/validate with a fingerprint over ${LICENSES.toLocaleString("en")} licenses ` +
      `(a quarter of the keys superseded, one machine each), wrk ${THREADS} thread(s), ${CONNECTIONS} connections, ${SECONDS} s per engine`,
  );
  if (!ensureWrk()) return;

  const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-api-pglite-"));
  try {
    const database = await openDatabase({ dataDir: pgliteDir });
    let keys: Call[];
    try {
      keys = await seed(database, pgliteDir);
    } finally {
      await database.close();
    }
    await measure("embedded PGlite", pgliteDir, {}, keys);
  } finally {
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  }

  await withScratchDatabase("bench_api", async (url, dataDir) => {
    const database = await openDatabase({ url });
    let keys: Call[];
    try {
      keys = await seed(database, dataDir);
    } finally {
      await database.close();
    }
    const figures = await measure("PostgreSQL", dataDir, { DATABASE_URL: url }, keys);
    console.log(`  target ≥ 2,000 validations/s on PostgreSQL: ${figures.perSecond >= 2000 ? "met" : "NOT met"}`);
  });
}

await main();
