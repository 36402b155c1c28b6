// Page throughput (docs/benchmarks.md): requests per second with wrk (Debian's package; this benchmark installs
// wrk and nginx through apt-get when they are missing and it runs as root) against the built site
// (`node server.js` on BUILD_DIR, default build-test/), once on embedded PGlite and once on a
// PostgreSQL database it creates and drops, in the same run and in alternating rounds:
// - anonymous `/` from the app, from nginx serving the very same bytes (a file, gzip off), and from a bare
//   Node `http` server (one process, as the app) writing the very same headers and bytes;
// - signed-in `/licenses` (the seeded demo user, 9 licenses) and its `/licenses.data` against the same
//   server's `/healthz`: as a browser asks (compression accepted: repeat views come from memory,
//   decision 0028), and without compression (never kept: every answer rendered, as a first view).
// Each timed round follows one untimed second of the same requests. Prints the median of BENCH_ROUNDS
// rounds and the ratios. Targets: `/` ≥ 0.7 × the bare Node server,
// `/licenses` ≥ 0.2 × `/healthz`, `/licenses.data` ≥ 0.5 × `/healthz`.
// BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test), BENCH_DURATION (s a round, 8),
// BENCH_ROUNDS (3), BENCH_CONNECTIONS (20), BENCH_ENGINES (pglite,postgres).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, type ServerProcess } from "../tests/support/server-process";
import { answerHeaders, startBareNode, startNginx } from "./reference-servers";
import { freePort, withScratchDatabase } from "./support";

const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const DEMO_USER = { email: "demo@forgekit.example", password: "user-demo-1" };

function ensurePackages(): boolean {
  const missing = [
    ["wrk", "wrk"],
    ["nginx", "nginx-light"],
  ].filter(([bin]) => spawnSync("sh", ["-c", `command -v ${bin} || test -x /usr/sbin/${bin}`]).status !== 0);
  if (missing.length === 0) return true;
  const names = missing.map(([, pkg]) => pkg!);
  if (process.getuid?.() !== 0) {
    console.log(`  missing ${names.join(", ")}: \`apt-get update && apt-get install -y ${names.join(" ")}\` as root`);
    return false;
  }
  console.log(`  installing ${names.join(", ")} (apt-get)…`);
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", ...names],
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
 * Requests per second of one wrk round; throws on non-2xx answers or socket errors. Each round is
 * preceded by one second of the same requests, not counted: the figure before it may have left the
 * server with another workload's garbage (rendering `/licenses` leaves megabytes of it), which the
 * next figure would otherwise pay for, and a bare server, another process, never does.
 */
function wrk(url: string, headers: string[] = []): number {
  spawnSync("wrk", ["-t2", `-c${CONNECTIONS}`, "-d1s", ...headers.flatMap((h) => ["-H", h]), url]);
  const args = ["-t2", `-c${CONNECTIONS}`, `-d${SECONDS}s`, ...headers.flatMap((h) => ["-H", h]), url];
  const result = spawnSync("wrk", args, { encoding: "utf8" });
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !rate) throw new Error(`wrk ${url} failed:\n${result.stdout}\n${result.stderr}`);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1];
  const socket = /Socket errors: (.+)/.exec(result.stdout)?.[1];
  if (bad || socket) console.log(`    note: ${url}: ${bad ? `${bad} non-2xx answers ` : ""}${socket ?? ""}`);
  return Number(rate);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

/** `/` as wrk gets it (no compression asked) once the page cache answers it: its headers and bytes. */
async function cachedHome(origin: string): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${origin}/`, { headers: { "Accept-Encoding": "identity" } });
    if (response.headers.get("x-cache") === "HIT") return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the page cache never answered /");
}

/** Posts the login form as a browser does (same-origin Origin header); returns the session cookie. */
async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ ...DEMO_USER, redirectTo: "/" }),
  });
  if (response.status !== 302) throw new Error(`signing in answered ${response.status}`);
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.split("=")[0]!.endsWith("session_token"));
  if (!session) throw new Error("signing in set no session cookie");
  return session;
}

interface EngineFigures {
  home: number;
  nginx: number;
  bareNode: number;
  licenses: number;
  licensesData: number;
  licensesRendered: number;
  licensesDataRendered: number;
  healthz: number;
  licensesBytes: number;
}

/** What Chromium sends: signed-in pages may then come from memory (decision 0028). */
const BROWSER_ENCODING = "Accept-Encoding: gzip, deflate, br, zstd";
/** A client that takes no compression always gets a rendered answer: what a first view costs. */
const NO_ENCODING = "Accept-Encoding: identity";

async function measure(label: string, server: ServerProcess): Promise<EngineFigures> {
  console.log(`  ${label}: server up at ${server.origin}`);
  const homeResponse = await cachedHome(server.origin);
  const html = Buffer.from(await homeResponse.arrayBuffer());
  const cookie = await signIn(server.origin);
  const cookieHeader = `Cookie: ${cookie}`;
  const page = await fetch(`${server.origin}/licenses`, { headers: { Cookie: cookie } });
  const pageHtml = await page.text();
  const cards = (pageHtml.match(/<li>/g) ?? []).length;
  if (page.status !== 200 || !pageHtml.includes("Your licenses")) throw new Error(`/licenses answered ${page.status}`);
  const nginx = await startNginx(html);
  const bareNode = await startBareNode(html, answerHeaders(homeResponse));
  console.log(`    signed in; nginx at ${nginx.url}, a bare Node server at ${bareNode.url}; warming up`);
  const runs: Record<keyof Omit<EngineFigures, "licensesBytes">, number[]> = {
    home: [],
    nginx: [],
    bareNode: [],
    licenses: [],
    licensesData: [],
    licensesRendered: [],
    licensesDataRendered: [],
    healthz: [],
  };
  try {
    // Warm-up: JIT, connection pool, caches.
    spawnSync("wrk", ["-t2", `-c${CONNECTIONS}`, "-d2s", bareNode.url]);
    for (const target of [`${server.origin}/`, `${server.origin}/licenses`, `${server.origin}/licenses.data`]) {
      for (const encoding of [BROWSER_ENCODING, NO_ENCODING])
        spawnSync("wrk", ["-t2", `-c${CONNECTIONS}`, "-d2s", "-H", cookieHeader, "-H", encoding, target]);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      runs.home.push(wrk(`${server.origin}/`));
      runs.nginx.push(wrk(nginx.url));
      runs.bareNode.push(wrk(bareNode.url));
      runs.licenses.push(wrk(`${server.origin}/licenses`, [cookieHeader, BROWSER_ENCODING]));
      runs.licensesRendered.push(wrk(`${server.origin}/licenses`, [cookieHeader, NO_ENCODING]));
      runs.healthz.push(wrk(`${server.origin}/healthz`));
      runs.licensesData.push(wrk(`${server.origin}/licenses.data`, [cookieHeader, BROWSER_ENCODING]));
      runs.licensesDataRendered.push(wrk(`${server.origin}/licenses.data`, [cookieHeader, NO_ENCODING]));
      console.log(
        `    ${label} round ${round}: / ${fmt(runs.home.at(-1)!)}, nginx ${fmt(runs.nginx.at(-1)!)}, ` +
          `bare Node ${fmt(runs.bareNode.at(-1)!)}, ` +
          `/licenses ${fmt(runs.licenses.at(-1)!)} (rendered ${fmt(runs.licensesRendered.at(-1)!)}), ` +
          `/licenses.data ${fmt(runs.licensesData.at(-1)!)} (rendered ${fmt(runs.licensesDataRendered.at(-1)!)}), ` +
          `/healthz ${fmt(runs.healthz.at(-1)!)} requests/s`,
      );
    }
  } finally {
    await nginx.stop();
    await bareNode.stop();
  }
  const figures = {
    home: median(runs.home),
    nginx: median(runs.nginx),
    bareNode: median(runs.bareNode),
    licenses: median(runs.licenses),
    licensesData: median(runs.licensesData),
    licensesRendered: median(runs.licensesRendered),
    licensesDataRendered: median(runs.licensesDataRendered),
    healthz: median(runs.healthz),
    licensesBytes: Buffer.byteLength(pageHtml),
  };
  const ratio = (a: number, b: number, target: number) =>
    `${(a / b).toFixed(3)} (target ≥ ${target}: ${a / b >= target ? "met" : "NOT met"})`;
  console.log(
    [
      `  ${label} (medians of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections):`,
      `    anonymous /         ${fmt(figures.home)}/s   nginx, same ${html.length} bytes: ${fmt(figures.nginx)}/s   bare Node: ${fmt(figures.bareNode)}/s`,
      `    /licenses           ${fmt(figures.licenses)}/s as a browser asks (${Math.round(figures.licensesBytes / 1024)} KB of HTML, ${cards} list items); rendered every time: ${fmt(figures.licensesRendered)}/s`,
      `    /licenses.data      ${fmt(figures.licensesData)}/s as a browser asks; rendered every time: ${fmt(figures.licensesDataRendered)}/s`,
      `    /healthz            ${fmt(figures.healthz)}/s`,
      `    / ÷ bare Node            ${ratio(figures.home, figures.bareNode, 0.7)}; ÷ nginx ${(figures.home / figures.nginx).toFixed(3)}`,
      `    /licenses ÷ /healthz      ${ratio(figures.licenses, figures.healthz, 0.2)}; rendered ${(figures.licensesRendered / figures.healthz).toFixed(3)}`,
      `    /licenses.data ÷ /healthz ${ratio(figures.licensesData, figures.healthz, 0.5)}; rendered ${(figures.licensesDataRendered / figures.healthz).toFixed(3)}`,
    ].join("\n"),
  );
  return figures;
}

const SERVER_ENV = { AUTH_RATE_LIMIT: "1000000000", LOG_LEVEL: "warn" };

async function main() {
  console.log(`throughput: wrk -t2 -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s per figure, alternating`);
  if (!ensurePackages()) return;

  if (ENGINES.includes("pglite")) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-throughput-pglite-"));
    try {
      const server = await startServer({ port: await freePort(), dataDir, env: SERVER_ENV });
      try {
        await measure("embedded PGlite", server);
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  if (!ENGINES.includes("postgres")) return;
  await withScratchDatabase("bench_throughput", async (databaseUrl, dataDir) => {
    // Embedded defaults (demo seed, generated secrets) on PostgreSQL: SITE_MODE stays embedded.
    const server = await startServer({
      port: await freePort(),
      dataDir,
      env: { ...SERVER_ENV, DATABASE_URL: databaseUrl },
    });
    try {
      await measure("PostgreSQL", server);
    } finally {
      await server.stop();
    }
  });
}

await main();
