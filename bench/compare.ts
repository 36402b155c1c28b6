// `npm run bench:compare -- <ref> [<ref 2>]` (docs/benchmarks.md): a commit and this working tree (or a second
// commit) side by side in one run. A ref is checked out in a git worktree beside this one (`<this dir>-compare-<sha>`,
// node_modules hard-linked from here when package-lock.json is the same, else `npm ci` there), both are built
// (COMPARE_BUILD_DIR, default build-compare), and both servers run at once on embedded PGlite (the demo seed), then
// on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a scratch database each, dropped after), with a
// team owner of 50 members and licenses for the desktop API added after the first boot (bench/compare/seed.ts).
// Every figure is measured with wrk on both servers in alternating order (A B, then B A, …): the signed-in pages
// rendered every time (no compression accepted: what a first view costs) and their loaders (`.data`), for the demo
// customer (a license in every state), the team owner and the admin; anonymous `/` from the page cache; the desktop
// API's validate. Printed per figure: requests/s, the ratio to the same server's /healthz in the same round, the
// server process's CPU per request (PGlite runs in it), and the second ÷ the first. BENCH_DURATION (s a figure a
// round, 3), BENCH_ROUNDS (2), BENCH_CONNECTIONS (4), BENCH_ONLY (labels containing this), BENCH_ENGINES
// (pglite,postgres), COMPARE_SKIP_BUILD=1 (use both builds as they are), COMPARE_KEEP=1 (keep the worktrees),
// COMPARE_CPU_PROF=<dir> (the second server under `node --cpu-prof`, its profile written there when it stops).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../app/server/db/client.server";
import { signIn } from "../tests/support/raw-http";
import { REPO_ROOT, startServer, type ServerProcess } from "../tests/support/server-process";
import { seedForCompare, TEAM_OWNER, type Seeded } from "./compare/seed";
import { build, checkout, removeCheckout } from "./compare/trees";
import { cpuMs, cpuSpent, ensureWrk, luaScript } from "./license-api/wrk";
import { createScratchDatabase, freePort } from "../tests/support/scratch";

const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ONLY = process.env.BENCH_ONLY;
const BUILD = process.env.COMPARE_BUILD_DIR ?? "build-compare";
const PROFILE_DIR = process.env.COMPARE_CPU_PROF;
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const POSTGRES = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const RENDERED = "Accept-Encoding: identity";
const BROWSER = "Accept-Encoding: gzip, deflate, br, zstd";
const SERVER_ENV = {
  AUTH_RATE_LIMIT: "1000000000",
  API_RATE_LIMIT: "1000000000",
  API_KEY_RATE_LIMIT: "1000000000",
  LOG_LEVEL: "warn",
};

interface Side {
  label: string;
  root: string;
  server: ServerProcess;
  seeded: Seeded;
  cookies: { demo: string; owner: string; admin: string };
  luaFile: string;
}

/** Boots a tree once (migrate, demo seed), stops it, adds the bench's rows, boots it again, signs in. */
async function bootSide(label: string, root: string, databaseUrl: string | undefined, profile: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-compare-"));
  const env = { ...SERVER_ENV, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const first = await startServer({ port: await freePort(), dataDir, env, root });
  await first.stop();
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir });
  let seeded: Seeded;
  try {
    // The bench's rows are written with this tree's schema, whose inserts name every column it knows: an
    // older ref's database first gets this tree's migrations (they add; the ref's server ignores the rest).
    await database.migrate();
    seeded = await seedForCompare(database, dataDir);
  } finally {
    await database.close();
  }
  const nodeArgs = profile && PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [];
  const port = await freePort();
  const server = await startServer({ port, dataDir, env, root, nodeArgs });
  const session = (cookie: string) =>
    cookie
      .split("; ")
      .filter((c) => c.includes("session_token"))
      .join("; ");
  const cookies = {
    demo: session(await signIn(port, "demo@forgekit.example", "user-demo-1")),
    owner: session(await signIn(port, TEAM_OWNER.email, TEAM_OWNER.password)),
    admin: session(await signIn(port, "admin@forgekit.example", "admin-demo-1")),
  };
  const luaFile = path.join(dataDir, "validate.lua");
  fs.writeFileSync(luaFile, luaScript(seeded.calls));
  return { side: { label, root, server, seeded, cookies, luaFile } satisfies Side, dataDir };
}

interface Target {
  label: string;
  path: (side: Side) => string;
  headers: (side: Side) => string[];
  script?: (side: Side) => string;
}

const page = (label: string, to: (s: Side) => string, who?: keyof Side["cookies"], encoding = RENDERED): Target => ({
  label,
  path: to,
  headers: (s) => [...(who ? [`Cookie: ${s.cookies[who]}`] : []), encoding],
});

const TARGETS: Target[] = [
  page("/healthz", () => "/healthz"),
  page("anonymous / (page cache)", () => "/", undefined, BROWSER),
  // The floor of every signed-in page: the site's shell and the root loader, a page with nothing of its own.
  page("demo /contact (shell only)", () => "/contact", "demo"),
  page("demo /contact.data (root only)", () => "/contact.data", "demo"),
  page("demo /licenses", () => "/licenses", "demo"),
  page("demo /licenses.data", () => "/licenses.data", "demo"),
  page("demo /billing", () => "/billing", "demo"),
  page("demo /billing.data", () => "/billing.data", "demo"),
  page("demo /profile", () => "/profile", "demo"),
  page("demo /profile.data", () => "/profile.data", "demo"),
  page("owner /licenses", () => "/licenses", "owner"),
  page("owner /licenses.data", () => "/licenses.data", "owner"),
  page("owner /team", () => "/team", "owner"),
  page("owner /team.data", () => "/team.data", "owner"),
  page("admin /admin", () => "/admin", "admin"),
  page("admin user page (demo)", (s) => `/admin/users/${s.seeded.demoUserId}`, "admin"),
  page("admin user page (demo) .data", (s) => `/admin/users/${s.seeded.demoUserId}.data`, "admin"),
  page("admin user page (owner)", (s) => `/admin/users/${s.seeded.ownerId}`, "admin"),
  page("admin team page", (s) => `/admin/teams/${s.seeded.teamId}`, "admin"),
  {
    label: "API validate (POST)",
    path: () => "/api/v1/licenses/validate",
    headers: () => [],
    script: (s: Side) => s.luaFile,
  },
].filter((t) => !ONLY || t.label === "/healthz" || t.label.includes(ONLY));

interface Run {
  rate: number;
  cpuPerRequest: number;
  errors: number;
}

function wrk(side: Side, target: Target, seconds: number, warmUp = false): Run {
  const url = `${side.server.origin}${target.path(side)}`;
  const script = target.script?.(side);
  const args = [
    "-t2",
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    ...target.headers(side).flatMap((h) => ["-H", h]),
    ...(script ? ["-s", script] : []),
    url,
  ];
  const before = cpuMs([side.server.pid]);
  const result = spawnSync("wrk", args, { encoding: "utf8" });
  const used = cpuSpent(before, cpuMs([side.server.pid]));
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(result.stdout)?.[1] ?? 0);
  if (warmUp) return { rate, cpuPerRequest: NaN, errors: 0 };
  if (result.status !== 0 || !rate) throw new Error(`wrk ${url} failed:\n${result.stdout}\n${result.stderr}`);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1] ?? 0);
  return { rate, cpuPerRequest: requests ? used / requests : NaN, errors };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Checks each target answers 200 on a side (a page missing from an older build says so) and warms it up. */
async function usable(side: Side, target: Target): Promise<boolean> {
  if (target.script) return wrk(side, target, 2, true).errors === 0;
  const headers = Object.fromEntries(target.headers(side).map((h) => h.split(/:\s(.*)/s).slice(0, 2)));
  const url = `${side.server.origin}${target.path(side)}`;
  // Once more when a kept-alive connection was closed by the server just as it was reused.
  const answer = await fetch(url, { headers, redirect: "manual" })
    .catch(() => fetch(url, { headers, redirect: "manual" }))
    .catch((error: Error) => {
      throw new Error(`${side.label}: ${target.label}: ${error.message}\n${side.server.output()}`, { cause: error });
    });
  await answer.arrayBuffer();
  if (answer.status !== 200) {
    console.log(`    ${side.label}: ${target.label} answered ${answer.status}: left out`);
    return false;
  }
  wrk(side, target, 2, true);
  return true;
}

async function measure(engine: string, sides: [Side, Side]): Promise<void> {
  const targets: Target[] = [];
  for (const target of TARGETS)
    if ((await usable(sides[0], target)) && (await usable(sides[1], target))) targets.push(target);
  const runs = new Map<string, Run[][]>(targets.map((t) => [t.label, [[], []]]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const target of targets)
      for (const i of order) runs.get(target.label)![i]!.push(wrk(sides[i]!, target, SECONDS));
  }
  // Each round's figure ÷ the same server's /healthz of that round, then the median of those ratios.
  const healthz = runs.get("/healthz")!;
  const ratioOf = (label: string, i: number) =>
    median(runs.get(label)![i]!.map((run, round) => run.rate / healthz[i]![round]!.rate));
  const fmt = (n: number) => Math.round(n).toLocaleString("en").padStart(7);
  console.log(
    `\n${engine}: ${ROUNDS} rounds of ${SECONDS} s a figure, wrk -t2 -c${CONNECTIONS}, alternating; medians. ` +
      `"× healthz": ÷ the same server's /healthz; "CPU": the server process's ms per request.`,
  );
  const [a, b] = sides;
  console.log(
    `${"figure".padEnd(30)} | ${a.label.padEnd(28)} | ${b.label.padEnd(28)} | ${b.label} ÷ ${a.label}\n` +
      `${"".padEnd(30)} | ${"req/s  × healthz     CPU".padEnd(28)} | ${"req/s  × healthz     CPU".padEnd(28)} | req/s  × healthz  CPU`,
  );
  for (const target of targets) {
    const cells = [0, 1].map((i) => {
      const list = runs.get(target.label)![i]!;
      return {
        rate: median(list.map((r) => r.rate)),
        ratio: ratioOf(target.label, i),
        cpu: median(list.map((r) => r.cpuPerRequest)),
        errors: list.reduce((n, r) => n + r.errors, 0),
      };
    });
    const cell = (c: (typeof cells)[number]) =>
      `${fmt(c.rate)}  ${c.ratio.toFixed(3).padStart(7)}  ${c.cpu.toFixed(2).padStart(6)} ms`;
    const note = cells.some((c) => c.errors) ? `  (non-2xx: ${cells.map((c) => c.errors).join(" / ")})` : "";
    console.log(
      `${target.label.padEnd(30)} | ${cell(cells[0]!)} | ${cell(cells[1]!)} | ` +
        `${(cells[1]!.rate / cells[0]!.rate).toFixed(2)}×  ${(cells[1]!.ratio / cells[0]!.ratio).toFixed(2)}×  ` +
        `${(cells[1]!.cpu / cells[0]!.cpu).toFixed(2)}×${note}`,
    );
  }
}

type Tree = { dir: string; label: string };

async function runEngine(engine: string, base: Tree, mine: Tree, urls: [string?, string?]) {
  const dataDirs: string[] = [];
  const sides: Side[] = [];
  try {
    for (const [i, tree] of [base, mine].entries()) {
      const { side, dataDir } = await bootSide(tree.label, tree.dir, urls[i], i === 1);
      dataDirs.push(dataDir);
      sides.push(side);
    }
    console.log(`  ${engine}: both servers up (${sides.map((s) => `${s.label} ${s.server.origin}`).join(", ")})`);
    await measure(engine, sides as [Side, Side]);
  } finally {
    for (const side of sides) await side.server.stop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const [ref, other] = process.argv.slice(2);
  if (!ref) throw new Error("usage: npm run bench:compare -- <git ref> [<second git ref>]");
  if (!ensureWrk()) return;
  const tree = (name: string): Tree & { commit: string } => {
    const { dir, commit } = checkout(name);
    return { dir, commit, label: `${name} (${commit.slice(0, 7)})`.slice(0, 28) };
  };
  const base = tree(ref);
  // A second ref is checked out and measured instead of this working tree (one commit against its parent).
  const mine = other ? tree(other) : { dir: REPO_ROOT, label: "this tree", commit: "" };
  try {
    for (const side of [base, mine]) build(side.dir, side.label, BUILD);
    process.env.BUILD_DIR = BUILD;
    if (ENGINES.includes("pglite")) await runEngine("embedded PGlite", base, mine, []);
    if (ENGINES.includes("postgres") && POSTGRES) {
      const databases = [
        await createScratchDatabase(POSTGRES, "bench_cmp_a"),
        await createScratchDatabase(POSTGRES, "bench_cmp_b"),
      ];
      try {
        await runEngine("PostgreSQL", base, mine, [databases[0]!.url, databases[1]!.url]);
      } finally {
        for (const database of databases) await database.drop();
      }
    } else if (ENGINES.includes("postgres"))
      console.log("\n  PostgreSQL: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to compare on it too");
  } finally {
    for (const { dir } of process.env.COMPARE_KEEP === "1" ? [] : [base, ...(other ? [mine] : [])]) {
      removeCheckout(dir);
      console.log(`  removed the worktree ${dir} (COMPARE_KEEP=1 keeps it)`);
    }
  }
}

await main();
