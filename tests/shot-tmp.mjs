import { chromium } from "@playwright/test";
const [,, url, out, js] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const width of [1280, 390]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js !== "nojs" });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForTimeout(800);
  const el = page.getByTestId("team-offer");
  if (await el.count()) await el.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${out}-${width}.png`, fullPage: false });
  await ctx.close();
}
await browser.close();
