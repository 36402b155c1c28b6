// Admin user search latency with 100,000 users and 300,000 licenses, on PostgreSQL and on the
// embedded database. Target (issue 6): p95 under 50 ms on PostgreSQL.
// PostgreSQL: BENCH_DATABASE_URL, else postgres://root@127.0.0.1:5432/test when it answers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { searchUsers } from "../app/server/admin/search-users.server";
import { openDatabase, type DatabaseHandle } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { parseEnv, setEnv } from "../app/server/env.server";
import { withScratchDatabase } from "./support";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
setEnv(
  parseEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-search-")),
  }),
);

const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Barbara",
  "Ken",
  "Dennis",
  "Linus",
  "Margaret",
  "Edsger",
  "Donald",
  "Frances",
  "John",
  "Radia",
  "Tim",
  "Guido",
  "Bjarne",
  "Anders",
  "Hedy",
  "Katherine",
  "Niklaus",
];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Liskov",
  "Thompson",
  "Ritchie",
  "Torvalds",
  "Hamilton",
  "Dijkstra",
  "Knuth",
  "Allen",
  "Backus",
  "Perlman",
  "Berners-Lee",
  "van Rossum",
  "Stroustrup",
  "Hejlsberg",
  "Lamarr",
  "Johnson",
  "Wirth",
  "Kay",
  "Cerf",
  "Kahn",
  "Postel",
  "Engelbart",
  "Sutherland",
  "Hoare",
  "Milner",
  "Codd",
  "Gray",
  "Stonebraker",
  "Lamport",
  "Rivest",
  "Shamir",
  "Adleman",
  "Diffie",
  "Hellman",
  "Karp",
  "Cook",
  "Tarjan",
  "Hartmanis",
  "Stearns",
  "Blum",
  "Yao",
  "Valiant",
  "Pearl",
  "Bengio",
  "Hinton",
  "LeCun",
  "Feigenbaum",
];

async function seed(database: DatabaseHandle) {
  const first = `array[${FIRST.map((n) => `'${n}'`).join(",")}]`;
  const last = `array[${LAST.map((n) => `'${n.replace("'", "''")}'`).join(",")}]`;
  const run = (query: string) => database.db.execute(sql.raw(query));
  await run(`insert into users (id, email, name, email_verified)
    select md5('u' || i)::uuid, 'user' || i || '@mail' || (i % 97) || '.example', '', true from generate_series(1, ${USERS}) i`);
  await run(`insert into profiles (id, full_name, company_name)
    select md5('u' || i)::uuid, (${first})[1 + i % ${FIRST.length}] || ' ' || (${last})[1 + (i / ${FIRST.length}) % ${LAST.length}],
      case when i % 3 = 0 then 'Company ' || (i % 1000) end from generate_series(1, ${USERS}) i`);
  await run(`insert into licenses (user_id, email, license_key, license_type, status, start_date, end_date, created_at)
    select md5('u' || (1 + (j % ${USERS})))::uuid,
      case when j % 3 = 0 then 'billing-' || (1 + (j % ${USERS})) || '@corp' || (j % 53) || '.example' else 'user' || (1 + (j % ${USERS})) || '@mail' || ((1 + (j % ${USERS})) % 97) || '.example' end,
      md5('k' || j), (array['monthly','6_months','yearly','tester'])[1 + j % 4], 'active', now() - interval '10 days', now() + interval '20 days', now() - (j || ' seconds')::interval
    from generate_series(0, ${USERS * 3 - 1}) j`);
  await run("analyze");
}

function terms(): string[] {
  const list: string[] = [];
  for (let i = 0; i < 40; i++) {
    const n = 1 + Math.floor(Math.random() * USERS);
    list.push(LAST[i % LAST.length]!.toLowerCase()); // a surname: ~2% of users, more than a page of results
    list.push(`${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`); // a full name
    list.push(`user${n}@`); // an account e-mail
    list.push(`billing-${n}@`); // a license e-mail
    list.push(`zz-nobody-${i}`); // no match
  }
  return list;
}

async function measure(label: string, database: DatabaseHandle) {
  const t0 = performance.now();
  await database.migrate();
  await seed(database);
  const seedSeconds = (performance.now() - t0) / 1000;
  setDatabase(database);
  const queries = terms();
  for (const term of queries.slice(0, 20)) await searchUsers(term); // warm-up
  const times: number[] = [];
  for (const term of queries) {
    const start = performance.now();
    await searchUsers(term);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  console.log(
    `  ${label}: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms over ${times.length} searches (seeded in ${seedSeconds.toFixed(0)} s)`,
  );
  setDatabase(undefined);
  return at(0.95);
}

console.log(`admin user search: ${USERS.toLocaleString("en")} users, ${(USERS * 3).toLocaleString("en")} licenses`);
await withScratchDatabase("bench_search", async (url) => {
  const postgres = await openDatabase({ url, maxConnections: 4 });
  try {
    const p95 = await measure("PostgreSQL", postgres);
    console.log(`  target p95 < 50 ms on PostgreSQL: ${p95 < 50 ? "met" : "NOT met"}`);
  } finally {
    await postgres.close();
  }
});
const pglite = await openDatabase({ memory: true });
await measure("embedded PGlite (in memory)", pglite);
await pglite.close();
