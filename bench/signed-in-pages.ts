// Signed-in pages (decision 0028): requests per second of the seeded customer's /licenses, /billing and
// /profile and the seeded admin's /admin on the built site (`node server.js` on BUILD_DIR, default
// build-test/), on a PostgreSQL database this benchmark creates and drops (BENCH_DATABASE_URL, default
// postgres://root@127.0.0.1:5432/test), against the same server's /healthz, with wrk (Debian's
// package; installed by bench/throughput.ts when missing). Each customer page is measured as a browser
// asks (compression accepted: a repeat view may come from memory, decision 0028) and rendered every
// time (no compression accepted: what a first view costs); so is the admin's /admin (ten seconds).
// Point BUILD_DIR at an older build to compare. BENCH_DURATION (s a round, 5), BENCH_ROUNDS (3).
import { spawnSync } from "node:child_process";
import { signIn } from "../tests/support/raw-http";
import { startServer } from "../tests/support/server-process";
import { freePort, withScratchDatabase } from "./support";

const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BROWSER = "Accept-Encoding: gzip, deflate, br, zstd";
const RENDERED = "Accept-Encoding: identity";

function wrk(url: string, headers: string[]): number {
  const args = ["-t2", "-c10", `-d${SECONDS}s`, ...headers.flatMap((h) => ["-H", h]), url];
  const result = spawnSync("wrk", args, { encoding: "utf8" });
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !rate) throw new Error(`wrk ${url} failed:\n${result.stdout}\n${result.stderr}`);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1];
  if (bad) console.log(`    note: ${url}: ${bad} non-2xx answers`);
  return Number(rate);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token"))
    .join("; ");

async function main() {
  if (spawnSync("sh", ["-c", "command -v wrk"]).status !== 0) {
    console.log(
      "  wrk is missing: run `npm run bench -- throughput` once (it installs wrk and nginx), or apt-get install wrk",
    );
    return;
  }
  await withScratchDatabase("bench_signed_in", async (databaseUrl, dataDir) => {
    const port = await freePort();
    const server = await startServer({
      port,
      dataDir,
      env: { DATABASE_URL: databaseUrl, AUTH_RATE_LIMIT: "1000000000", LOG_LEVEL: "warn" },
    });
    try {
      const customer = `Cookie: ${sessionOnly(await signIn(port, "demo@forgekit.example", "user-demo-1"))}`;
      const staff = `Cookie: ${sessionOnly(await signIn(port, "admin@forgekit.example", "admin-demo-1"))}`;
      const targets: [string, string, string[]][] = [
        ["/healthz", "/healthz", []],
        ["/licenses (browser)", "/licenses", [customer, BROWSER]],
        ["/licenses (rendered)", "/licenses", [customer, RENDERED]],
        ["/licenses.data (browser)", "/licenses.data", [customer, BROWSER]],
        ["/licenses.data (rendered)", "/licenses.data", [customer, RENDERED]],
        ["/billing (browser)", "/billing", [customer, BROWSER]],
        ["/billing (rendered)", "/billing", [customer, RENDERED]],
        ["/profile (browser)", "/profile", [customer, BROWSER]],
        ["/profile (rendered)", "/profile", [customer, RENDERED]],
        ["/admin (browser)", "/admin", [staff, BROWSER]],
        ["/admin (rendered)", "/admin", [staff, RENDERED]],
        ["/admin.data (browser)", "/admin.data", [staff, BROWSER]],
        ["/admin.data (rendered)", "/admin.data", [staff, RENDERED]],
      ];
      for (const [label, target, headers] of [...targets]) {
        const page = await fetch(`${server.origin}${target}`, {
          headers: Object.fromEntries(headers.map((h) => h.split(/:\s(.*)/s).slice(0, 2) as [string, string])),
          redirect: "manual",
        });
        await page.arrayBuffer();
        // An older build (BUILD_DIR) may not have the page yet.
        if (page.status === 404) {
          console.log(`  ${label}: not in this build`);
          targets.splice(
            targets.findIndex(([l]) => l === label),
            1,
          );
          continue;
        }
        if (page.status !== 200) throw new Error(`${target} answered ${page.status}`);
        spawnSync("wrk", ["-t2", "-c10", "-d1s", ...headers.flatMap((h) => ["-H", h]), `${server.origin}${target}`]);
      }
      const runs = new Map<string, number[]>(targets.map(([label]) => [label, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, target, headers] of targets)
          runs.get(label)!.push(wrk(`${server.origin}${target}`, headers));
      }
      const healthz = median(runs.get("/healthz")!);
      console.log(
        `signed-in pages on PostgreSQL, ${process.env.BUILD_DIR ?? "build-test"} (medians of ${ROUNDS} rounds of ${SECONDS} s, wrk -t2 -c10):`,
      );
      for (const [label] of targets) {
        const rate = median(runs.get(label)!);
        console.log(
          `  ${label.padEnd(27)} ${Math.round(rate).toLocaleString("en").padStart(7)}/s   ${(rate / healthz).toFixed(3)} × /healthz`,
        );
      }
    } finally {
      await server.stop();
    }
  });
}

await main();
