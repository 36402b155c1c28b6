// Lighthouse (decision 0029): the four category scores and FCP/LCP of the public pages of the built site
// (`node server.js` on BUILD_DIR, default build-test/, embedded defaults on PGlite), mobile with
// Lighthouse's default simulated throttling, driving Debian's Chromium headless (never a downloaded
// browser; CHROMIUM_PATH overrides /usr/bin/chromium). Target: 100 in every category on every page.
// BENCH_PAGES (comma-separated paths) and BENCH_RUNS (median of that many runs per page, default 1).
// BENCH_SIGNED_IN_PAGES (default /licenses,/team) are audited as the demo customer, whose session cookie
// Lighthouse sends with every request of the page (`extraHeaders`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { signIn } from "../tests/support/raw-http";
import { startServer } from "../tests/support/server-process";
import { DEMO_ACCOUNTS } from "../app/server/seed.server";
import { freePort } from "./support";

const PAGES = (process.env.BENCH_PAGES ?? "/,/pricing,/download,/release-notes").split(",").filter(Boolean);
const SIGNED_IN_PAGES = (process.env.BENCH_SIGNED_IN_PAGES ?? "/licenses,/team").split(",").filter(Boolean);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

interface PageFigures {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  failing: string[];
}

/**
 * Lighthouse 12 with Chromium 156 now and then finds no navigation start in its trace (NO_NAVSTART,
 * "Please run Lighthouse again"): such a run measured nothing, so it is run again, up to twice.
 */
async function audit(url: string, port: number, cookie?: string, attempt = 1): Promise<PageFigures> {
  try {
    return await auditOnce(url, port, cookie);
  } catch (error) {
    if (attempt >= 3 || !String(error).includes("NO_NAVSTART")) throw error;
    console.log(`    ${url}: no navigation start in the trace, run again`);
    return audit(url, port, cookie, attempt + 1);
  }
}

async function auditOnce(url: string, port: number, cookie?: string): Promise<PageFigures> {
  const result = await lighthouse(url, {
    port,
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  // The audits that cost points (weighted, score below 1), to say what to fix.
  const failing = Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map(
        (ref) =>
          `${category.id}:${ref.id}${lhr.audits[ref.id]?.displayValue ? ` (${lhr.audits[ref.id]!.displayValue})` : ""}`,
      ),
  );
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as PageFigures["scores"],
    fcp: lhr.audits["first-contentful-paint"]?.numericValue ?? NaN,
    lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
    failing,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  console.log(`lighthouse: mobile, simulated throttling, ${CHROMIUM} headless, ${RUNS} run(s) a page`);
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`  no Chromium at ${CHROMIUM}: \`apt-get install -y chromium\` or set CHROMIUM_PATH`);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
  const server = await startServer({ port: await freePort(), dataDir });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const customer = DEMO_ACCOUNTS[1];
    const cookie = SIGNED_IN_PAGES.length > 0 ? await signIn(server.port, customer.email, customer.password) : "";
    const pages = [
      ...PAGES.map((page) => ({ page, cookie: undefined })),
      ...SIGNED_IN_PAGES.map((page) => ({ page, cookie })),
    ];
    for (const { page, cookie } of pages) {
      const runs: PageFigures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(`${server.origin}${page}`, chrome.port, cookie));
      const scores = CATEGORIES.map((c) => `${c} ${median(runs.map((r) => r.scores[c]))}`).join(", ");
      const fcp = median(runs.map((r) => r.fcp)) / 1000;
      const lcp = median(runs.map((r) => r.lcp)) / 1000;
      console.log(`  ${page.padEnd(15)} ${scores}; FCP ${fcp.toFixed(1)} s, LCP ${lcp.toFixed(1)} s`);
      const failing = [...new Set(runs.flatMap((r) => r.failing))];
      if (failing.length > 0) console.log(`    costs points: ${failing.join(", ")}`);
      // "Every run" is the target: each run's performance score and total blocking time.
      if (RUNS > 1)
        console.log(
          `    runs: performance ${runs.map((r) => r.scores.performance).join(", ")}; ` +
            `blocking ${runs.map((r) => Math.round(r.tbt)).join(", ")} ms; FCP ${runs.map((r) => (r.fcp / 1000).toFixed(1)).join(", ")} s`,
        );
    }
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
