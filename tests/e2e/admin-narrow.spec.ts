import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_USER, expect, test } from "./support";

/**
 * Admin pages at 390 px: every table becomes labelled cards below md, so neither the page
 * nor any box inside it scrolls sideways; axe finds nothing.
 */
async function expectNothingScrollsSideways(page: Page) {
  const wide = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > 390) found.push(`page ${root.scrollWidth}px`);
    for (const table of document.querySelectorAll("table")) {
      for (let box: HTMLElement | null = table; box && box !== document.body; box = box.parentElement) {
        if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "visible") {
          found.push(`${box.tagName.toLowerCase()} around "${table.caption?.textContent ?? "a table"}"`);
        }
      }
    }
    return found;
  });
  expect(wide).toEqual([]);
}

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function check(page: Page) {
  await expectNothingScrollsSideways(page);
  await expectAccessible(page);
}

test.describe("admin pages at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the list pages, the seeded customer's page, jobs and tokens neither scroll sideways nor fail axe", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(120_000);
    await signIn(DEMO_ADMIN);
    for (const path of ["/admin", "/admin/users", "/admin/releases", "/admin/audit"]) {
      await page.goto(path);
      await expect(
        page.getByRole("navigation", { name: "Administration" }).locator('[aria-current="page"]'),
      ).toBeVisible();
      if (path === "/admin") await page.getByText("Show the figures per day").click();
      await check(page);
    }
    await page.goto(`/admin/users?q=${encodeURIComponent(DEMO_USER.email)}`);
    await expect(page.getByTestId("admin-user-result").first()).toBeVisible();
    await check(page);
    await page.getByTestId("admin-user-result").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}/);
    await expect(page.getByTestId("admin-payment").first()).toBeVisible();
    await expect(page.getByTestId("admin-license").first()).toBeVisible();
    await check(page);
    await page.goto("/admin/jobs");
    await check(page);
    await page.goto("/admin/tokens");
    await check(page);
  });
});
