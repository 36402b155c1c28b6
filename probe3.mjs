import { chromium } from "playwright-core";
import fs from "node:fs";
const exe = "/usr/bin/chromium-headless-shell";
const extra = (process.env.ARGS ?? "").split(" ").filter(Boolean);
function cpu() {
  const out = {};
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.includes("headless")) continue;
      const type = (cmd.match(/--type=([a-z-]+)/) ?? [, "browser"])[1];
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      out[type] = (out[type] ?? 0) + (Number(stat[11]) + Number(stat[12])) / 100;
    } catch {}
  }
  return out;
}
const t0 = Date.now();
const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox", "--disable-gpu", ...extra] });
const base = "http://localhost:4700";
const a = cpu();
for (let i = 0; i < 6; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: process.env.RM ? "reduce" : "no-preference" });
  if (process.env.TRACE) await ctx.tracing.start({ screenshots: true, snapshots: true }); const page = await ctx.newPage();
  for (const path of ["/", "/pricing", "/download", "/login"]) await page.goto(base + path, { waitUntil: "load" });
  await page.getByLabel("E-mail").fill("demo@forgekit.example");
  await page.getByLabel("Password").fill("user-demo-1");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(base + "/licenses");
  await page.goto(base + "/billing");
  await page.goto(base + "/profile");
  await page.screenshot({ fullPage: true });
  if (process.env.TRACE) await ctx.tracing.stop(); await ctx.close();
}
const b = cpu();
const d = Object.fromEntries(Object.keys(b).map((k) => [k, +(b[k] - (a[k] ?? 0)).toFixed(2)]));
console.log(process.env.ARGS ?? "", process.env.RM ? "RM" : "", "wall", (Date.now() - t0) / 1000, JSON.stringify(d));
await browser.close();
