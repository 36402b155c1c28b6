// Housekeeping soak (docs/benchmarks.md): three hours of simulated traffic compressed into seconds, on the
// embedded database and on PostgreSQL. Every simulated minute adds sign-ins (sessions), e-mail
// tokens (verifications), rate-limit windows from new client addresses, failed sign-ins and
// webhook events; every 15 simulated minutes the housekeeping prune runs at the simulated time.
// The row counts of the pruned tables must stop growing. Time is compressed: sessions and tokens
// here live 30 minutes and webhook events are kept 30 minutes (WEBHOOK_RETENTION_DAYS scaled down);
// rate-limit windows and sign-in failures keep their real one-hour rule.
// PostgreSQL: BENCH_DATABASE_URL, else postgres://root@127.0.0.1:5432/test when it answers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { parseEnv, setEnv } from "../app/server/env.server";
import { pruneExpired } from "../app/server/housekeeping/prune.server";
import { rate_limits, sessions, sign_in_failures, users, verifications, webhook_events } from "../app/server/db/schema";
import { withScratchDatabase } from "./support";

const MINUTE = 60_000;
const HOURS = 3;
const PER_MINUTE = { sessions: 20, verifications: 5, rate_limits: 30, sign_in_failures: 5, webhook_events: 10 };
const LIFETIME = 30 * MINUTE;
const TABLES = Object.keys(PER_MINUTE) as (keyof typeof PER_MINUTE)[];
const HEADINGS = ["sessions", "tokens", "rate limits", "sign-in fail", "webhooks", "all inserted"];

setEnv(
  parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-soak-")) }),
);

async function counts(database: DatabaseHandle): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
      rows: { n: number }[];
    };
    result[table] = Number(rows[0]!.n);
  }
  return result;
}

/** One simulated minute of traffic at `at`. */
async function traffic(database: DatabaseHandle, userId: string, at: Date, minute: number): Promise<void> {
  const db = database.db;
  const n = (count: number) => Array.from({ length: count }, (_, i) => i);
  const expires = new Date(at.getTime() + LIFETIME);
  await db
    .insert(sessions)
    .values(n(PER_MINUTE.sessions).map((i) => ({ token: `s-${minute}-${i}`, userId, expiresAt: expires })));
  await db
    .insert(verifications)
    .values(
      n(PER_MINUTE.verifications).map((i) => ({ identifier: `v-${minute}-${i}`, value: "x", expiresAt: expires })),
    );
  await db
    .insert(rate_limits)
    .values(n(PER_MINUTE.rate_limits).map((i) => ({ key: `sign-in:ip:${minute}.${i}`, count: 1, window_start: at })));
  await db.insert(sign_in_failures).values(
    n(PER_MINUTE.sign_in_failures).map((i) => ({
      email: `u${i}@example.com`,
      client_ip: `10.${minute}.0.${i}`,
      failures: 1,
      last_failure_at: at,
    })),
  );
  await db.insert(webhook_events).values(
    n(PER_MINUTE.webhook_events).map((i) => ({
      event_id: `evt_${minute}_${i}`,
      event_type: "transaction.completed",
      occurred_at: at,
      payload: { data: { id: `txn_${minute}_${i}` } },
      received_at: at,
    })),
  );
}

async function soak(label: string, database: DatabaseHandle): Promise<void> {
  await database.migrate();
  const [user] = await database.db
    .insert(users)
    .values({ email: `soak-${Date.now()}@example.com`, name: "Soak" })
    .returning({ id: users.id });
  const start = Date.now();
  const started = performance.now();
  const rows: string[] = [];
  const peaks: number[][] = [];
  for (let minute = 1; minute <= HOURS * 60; minute++) {
    const at = new Date(start + minute * MINUTE);
    await traffic(database, user!.id, at, minute);
    if (minute % 15 !== 0) continue;
    await pruneExpired(database.db, {
      now: at,
      webhookRetentionDays: LIFETIME / (24 * 60 * MINUTE),
      hourlyKinds: [],
    });
    const after = await counts(database);
    peaks.push(TABLES.map((t) => after[t]!));
    const inserted = minute * TABLES.reduce((sum, t) => sum + PER_MINUTE[t], 0);
    const cells = [...TABLES.map((t) => after[t]!), inserted].map((v) => String(v).padStart(13));
    rows.push(`    ${String(minute).padStart(4)} min${cells.join("")}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const lastHour = peaks.slice(-4);
  const hourBefore = peaks.slice(-8, -4);
  const bounded = TABLES.every(
    (_, i) => Math.max(...lastHour.map((p) => p[i]!)) <= Math.max(...hourBefore.map((p) => p[i]!)),
  );
  console.log(
    `  ${label}: ${HOURS} simulated hours in ${seconds} s; rows after each prune (every 15 simulated minutes)`,
  );
  console.log(`    time    ${HEADINGS.map((h) => h.padStart(13)).join("")}`);
  for (const row of rows) console.log(row);
  console.log(`    row counts in the last hour no higher than the hour before: ${bounded ? "yes" : "NO"}`);
  if (!bounded) process.exitCode = 1;
}

async function main() {
  console.log("Housekeeping soak (bench/housekeeping-soak.ts)");
  const embedded = await openDatabase({ memory: true });
  try {
    await soak("PGlite", embedded);
  } finally {
    await embedded.close();
  }
  await withScratchDatabase("bench_soak", async (url) => {
    const database = await openDatabase({ url, maxConnections: 2 });
    try {
      await soak("PostgreSQL", database);
    } finally {
      await database.close();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
