// The admin search bench's data (bench/admin-search.ts): `users` users with 3 licenses each
// and their short ids; two licenses in three are Paddle subscriptions with their purchase payments
// (customer, subscription and transaction ids); one user in ten changed e-mail address once. Seeded
// set-based (generate_series), secondary indexes dropped and built after the rows. And the terms of
// each kind the bench searches for, drawn from what the seed made.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../../app/server/db/client.server";

export const FIRST =
  "Ada Grace Alan Barbara Ken Dennis Linus Margaret Edsger Donald Frances John Radia Tim Guido Bjarne".split(" ");
export const LAST =
  `Lovelace Hopper Turing Liskov Thompson Ritchie Torvalds Hamilton Dijkstra Knuth Allen Backus Perlman
  Berners-Lee Stroustrup Hejlsberg Lamarr Johnson Wirth Kay Cerf Kahn Postel Engelbart Sutherland Hoare Milner
  Codd Gray Stonebraker Lamport Rivest Shamir Adleman Diffie Hellman Karp Cook Tarjan Hartmanis Stearns Blum Yao
  Valiant Pearl Bengio Hinton LeCun Feigenbaum Naur`.split(/\s+/);

// License j's short id: a bijection of j onto 40 bits, written as 8 Crockford base32 characters
// (the same in SQL and here, so the benchmark knows which ids exist).
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const MIX = 2654435761n;
const SPACE = 2n ** 40n;
function shortIdOf(j: number): string {
  const x = (BigInt(j) * MIX + 12345n) % SPACE;
  const chars = Array.from({ length: 8 }, (_, i) => ALPHABET[Number((x >> BigInt(5 * (7 - i))) & 31n)]);
  return `FK-${chars.slice(0, 4).join("")}-${chars.slice(4).join("")}`;
}
const shortIdSql = (() => {
  const x = `((j::bigint * ${MIX} + 12345) % ${SPACE})`;
  const char = (i: number) => `substr('${ALPHABET}', 1 + ((${x} >> ${5 * (7 - i)}) & 31)::int, 1)`;
  return `'FK-' || ${[0, 1, 2, 3].map(char).join(" || ")} || '-' || ${[4, 5, 6, 7].map(char).join(" || ")}`;
})();

/** Drops the secondary indexes of the seeded tables; the returned statements build them again. */
async function dropIndexes(run: (query: string) => Promise<unknown>, database: DatabaseHandle): Promise<string[]> {
  const result = await database.db.execute(
    sql.raw(`select indexname, indexdef from pg_indexes i
      where tablename in ('users', 'profiles', 'licenses', 'payments', 'user_email_history', 'license_keys')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  );
  const rows = (result as unknown as { rows: { indexname: string; indexdef: string }[] }).rows;
  for (const row of rows) await run(`drop index "${row.indexname}"`);
  return rows.map((row) => row.indexdef);
}

export async function seed(database: DatabaseHandle, users: number) {
  const run = (query: string) => database.db.execute(sql.raw(query));
  const first = `array[${FIRST.map((n) => `'${n}'`).join(",")}]`;
  const last = `array[${LAST.map((n) => `'${n}'`).join(",")}]`;
  const user = (j: string) => `md5('u' || (1 + (${j} % ${users})))::uuid`;
  const tables = ["users", "profiles", "licenses", "payments", "user_email_history"];
  for (const table of tables) await run(`alter table ${table} disable trigger user`);
  const indexes = await dropIndexes(run, database);
  await run(`insert into users (id, email, name, email_verified)
    select md5('u' || i)::uuid, 'user' || i || '@mail' || (i % 97) || '.example', '', true from generate_series(1, ${users}) i`);
  await run(`insert into profiles (id, full_name, company_name)
    select md5('u' || i)::uuid, (${first})[1 + i % ${FIRST.length}] || ' ' || (${last})[1 + (i / ${FIRST.length}) % ${LAST.length}],
      case when i % 3 = 0 then 'Company ' || (i % 1000) end from generate_series(1, ${users}) i`);
  await run(`insert into user_email_history (user_id, email, changed_at)
    select md5('u' || i)::uuid, 'old' || i || '@previous' || (i % 89) || '.example', now() - interval '30 days'
    from generate_series(10, ${users}, 10) i`);
  await run(`insert into licenses (short_id, user_id, email, license_key, license_type, status, start_date, end_date,
      paddle_subscription_id, created_at)
    select ${shortIdSql}, ${user("j")},
      case when j % 3 = 0 then 'billing-' || (1 + (j % ${users})) || '@corp' || (j % 53) || '.example'
        else 'user' || (1 + (j % ${users})) || '@mail' || ((1 + (j % ${users})) % 97) || '.example' end,
      md5('k' || j), (array['monthly','6_months','yearly','tester'])[1 + j % 4], 'active', now() - interval '10 days',
      now() + interval '20 days', case when j % 3 <> 0 then 'sub_bench_' || j end, now() - (j || ' seconds')::interval
    from generate_series(0, ${users * 3 - 1}) j`);
  await run(`insert into payments (id, license_id, user_id, kind, subscription_id, customer_id, amount_cents, billed_at)
    select 'txn_bench_' || substr(l.paddle_subscription_id, 11), l.id, l.user_id, 'purchase', l.paddle_subscription_id,
      'ctm_bench_' || replace(l.user_id::text, '-', ''), 900, l.start_date
    from licenses l where l.paddle_subscription_id is not null`);
  await run(`insert into license_keys (key_hash, license_id)
    select encode(sha256(convert_to(license_key, 'UTF8')), 'hex'), id from licenses`);
  await run("set maintenance_work_mem = '512MB'");
  for (const statement of indexes) await run(statement);
  for (const table of tables) await run(`alter table ${table} enable trigger user`);
  // As autovacuum leaves a database in use: statistics, and the visibility map for index-only scans.
  await run("vacuum (analyze)");
}

/** Sample terms of each kind, drawn at random from what the seed made. */
export function queryKinds(users: number): Record<string, () => string> {
  const n = () => 1 + Math.floor(Math.random() * users);
  const j = () => Math.floor(Math.random() * users * 3);
  const subscribed = () => {
    const k = j();
    return k % 3 === 0 ? k + 1 : k;
  };
  const compact = (k: number) => shortIdOf(k).replace(/-/g, "").slice(2);
  const customer = () => `ctm_bench_${createHashUuid(`u${1 + (subscribed() % users)}`)}`;
  return {
    "surname (≈2% of users)": () => LAST[Math.floor(Math.random() * LAST.length)]!.toLowerCase(),
    "full name": () => `${FIRST[n() % FIRST.length]} ${LAST[n() % LAST.length]}`,
    "account e-mail": () => `user${n()}@`,
    "license e-mail": () => `billing-${n()}@`,
    "previous e-mail": () => `old${10 * Math.ceil(n() / 10)}@`,
    "short id, whole": () => shortIdOf(j()),
    "short id, 4 characters": () => {
      const at = Math.floor(Math.random() * 5);
      return compact(j()).slice(at, at + 4);
    },
    "short id, fk- and 4, lowercase": () => `fk-${compact(j()).slice(0, 4).toLowerCase()}`,
    "Paddle customer id": customer,
    "subscription id": () => `sub_bench_${subscribed()}`,
    "transaction id": () => `txn_bench_${subscribed()}`,
    "no match": () => `zz-nobody-${LAST[n() % LAST.length]!.toLowerCase()}`,
  };
}

/** md5('u' || i)::uuid without hyphens, as the seed's customer ids are. */
function createHashUuid(text: string): string {
  return createHash("md5").update(text).digest("hex");
}
