import type { Page } from "@playwright/test";
import { DEMO_USER, expect, test, waitForHydration } from "./support";

// Lighthouse (decision 0029): public pages carry the stylesheet inline (nothing blocks the first paint);
// signed-in pages link the hashed file the browser keeps. Either way the page is styled, also after
// client-side navigation between the two kinds.
const styleKind = (page: Page) =>
  page.evaluate(() => document.getElementById("site-css")?.tagName.toLowerCase() ?? null);
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test.describe("the site's stylesheet", () => {
  test("a visitor's page has it inline and requests no stylesheet; navigating keeps it", async ({ page }) => {
    const stylesheets: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "stylesheet") stylesheets.push(request.url());
    });
    await page.goto("/");
    await waitForHydration(page);
    expect(await styleKind(page)).toBe("style");
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
    const background = await bodyBackground(page);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
    await page.getByRole("link", { name: "Pricing" }).first().click();
    await expect(page).toHaveURL(/\/pricing$/);
    expect(await styleKind(page)).toBe("style");
    expect(await bodyBackground(page)).toBe(background);
    expect(stylesheets).toEqual([]);
  });

  test("a signed-in page links the hashed stylesheet instead of repeating it", async ({ page, signIn }) => {
    await signIn(DEMO_USER);
    const response = await page.goto("/licenses");
    await waitForHydration(page);
    expect(await styleKind(page)).toBe("link");
    const html = await response!.text();
    expect(html).not.toContain("<style");
    expect(html).toMatch(/<link id="site-css" rel="stylesheet" href="\/assets\/[^"]+\.css"/);
    expect(await bodyBackground(page)).not.toBe("rgba(0, 0, 0, 0)");
  });
});

// Decisions 0029 and 0088: the page's JavaScript is requested only once its first text is on screen,
// so on a slow phone the scripts do not compete with the first paint; the page then hydrates as before.
test.describe("the page's scripts wait for its first paint", () => {
  for (const path of ["/", "/pricing"]) {
    test(`${path}: no script is requested before the first contentful paint`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
        scripts: performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
          .map((entry) => entry.startTime),
        inert: document.querySelectorAll('link[rel="x-modulepreload"], script[type="x-deferred-module"]').length,
      }));
      expect(timing.paint).not.toBeNull();
      expect(timing.scripts.length).toBeGreaterThan(5);
      expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint!);
      // Every preload and module script was turned back on.
      expect(timing.inert).toBe(0);
    });
  }
});
