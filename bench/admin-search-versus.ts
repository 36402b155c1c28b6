// The admin search of this tree against an older one, side by side on the same seeded database
// (docs/benchmarks.md): each term is searched by both, alternating which goes first, and the pages compared.
// BENCH_BASELINE_TREE: a directory holding the older tree (e.g. `git archive <commit> | tar -x -C
// /tmp/base`, with a node_modules link); BENCH_KEEP_DATABASE: the database bench/admin-search.ts
// seeded and kept (its migrations applied by this tree first). BENCH_SAMPLES terms per kind (60).
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { parseSearchQuery } from "../app/domain/admin-search";
import { searchUsers } from "../app/server/admin/search-users.server";
import { openDatabase } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { parseEnv, setEnv } from "../app/server/env.server";
import { FIRST, LAST, queryKinds } from "./admin-search/seed";

type Search = typeof searchUsers;
type Parse = typeof parseSearchQuery;
const tree = process.env.BENCH_BASELINE_TREE;
const kept = process.env.BENCH_KEEP_DATABASE;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
/** Every kind bench/admin-search.ts measures, and two kinds of name it does not. */
const kinds = (users: number): Record<string, () => string> => ({
  ...queryKinds(users),
  "first name (6% of users)": () => pick(FIRST).toLowerCase(),
  "part of a surname": () =>
    pick(LAST.filter((name) => name.length >= 6))
      .toLowerCase()
      .slice(1, 5),
});
const percentile = (times: number[], p: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(p * times.length))]!;

async function timed(search: Search, term: string, into: number[]): Promise<string> {
  const start = performance.now();
  const page = await search(term);
  into.push(performance.now() - start);
  return page.users.map((user) => user.id).join();
}

async function compare(before: Search, users: number) {
  for (const [kind, term] of Object.entries(kinds(users))) {
    const old: number[] = [];
    const now: number[] = [];
    let differ = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const t = term();
      const beforeFirst = i % 2 === 0;
      const a = beforeFirst ? await timed(before, t, old) : await timed(searchUsers, t, now);
      const b = beforeFirst ? await timed(searchUsers, t, now) : await timed(before, t, old);
      if (a !== b) differ++;
    }
    const figures = (times: number[]) =>
      `p50 ${percentile(times, 0.5).toFixed(1)} / p95 ${percentile(times, 0.95).toFixed(1)} ms`;
    console.log(
      `    ${kind.padEnd(32)} before ${figures(old)}   after ${figures(now)}   pages differing ${differ}/${SAMPLES}`,
    );
  }
}

if (!tree || !kept) {
  console.log(
    "admin search versus an older tree: set BENCH_BASELINE_TREE and BENCH_KEEP_DATABASE (see the file's head)",
  );
} else {
  const env = { NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: os.tmpdir() };
  setEnv(parseEnv(env));
  const older = (file: string) => import(path.resolve(tree, file));
  (await older("app/server/env.server.ts")).setEnv(parseEnv(env));
  const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test");
  url.pathname = `/${kept}`;
  const database = await openDatabase({ url: url.toString(), maxConnections: 4 });
  await database.migrate();
  setDatabase(database);
  (await older("app/server/db/db.server.ts")).setDatabase(database);
  console.log(`admin search, this tree versus ${tree} on ${kept} (load average ${os.loadavg()[0]!.toFixed(1)})`);
  const counted = await database.db.execute(sql`select count(*)::int as n from users`);
  const users = (counted as unknown as { rows: { n: number }[] }).rows[0]!.n;
  // The older search parses the term with its own rules: its `~/` imports resolve to this tree.
  const olderSearch = (await older("app/server/admin/search-users.server.ts")).searchUsers as Search;
  const { parseSearchQuery: parseOlder } = (await older("app/domain/admin-search.ts")) as { parseSearchQuery: Parse };
  const before = ((term: string) => olderSearch(parseOlder(term).query!)) as Search;
  await compare(before, users);
  console.log(`  load average ${os.loadavg()[0]!.toFixed(1)} at the end`);
  await database.close();
}
