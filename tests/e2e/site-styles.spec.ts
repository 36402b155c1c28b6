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
