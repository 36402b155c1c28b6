import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_USER, expect, test } from "./support";

/**
 * Every page at 390 px, once (decision 0053): the specs run at 1280 only unless something in them
 * depends on the width, so this pass makes sure no page goes unseen at phone width. Each page must
 * not scroll sideways; its screenshot is kept in test-results/ for a person to look at.
 */
const PUBLIC_PAGES = [
  "/",
  "/download",
  "/pricing",
  "/contact",
  "/release-notes",
  "/privacy-policy",
  "/terms-of-service",
  "/refund-policy",
  "/login",
  "/register",
  "/confirm-email?email=someone%40example.com",
  "/forgot-password",
  "/reset-password",
  "/no-such-page",
];
const USER_PAGES = ["/licenses", "/billing", "/profile", "/extend-license", "/team", "/success"];
const ADMIN_PAGES = ["/admin", "/admin/jobs", "/admin/tokens", "/admin/webhooks"];

async function fitsAndIsKept(page: Page, pathname: string, name: string) {
  await page.goto(pathname);
  await page.waitForLoadState("load");
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${pathname} is ${scroll}px wide on a ${client}px screen`).toBeLessThanOrEqual(client);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

const fileName = (prefix: string, pathname: string) =>
  `${prefix}${pathname.replace(/[?=%.]/g, "-").replace(/\//g, "_") || "_"}`;

const ALL = [
  ...PUBLIC_PAGES.map((pathname) => ({ pathname, as: undefined, name: fileName("public", pathname) })),
  ...USER_PAGES.map((pathname) => ({ pathname, as: DEMO_USER, name: fileName("user", pathname) })),
  ...ADMIN_PAGES.map((pathname) => ({ pathname, as: DEMO_ADMIN, name: fileName("admin", pathname) })),
];

test.describe("every page at 390 px", { tag: "@phone" }, () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  for (const { pathname, as, name } of ALL) {
    test(`${pathname}${as ? ` as ${as.email}` : ""}`, async ({ page, signIn }) => {
      test.setTimeout(60_000);
      if (as) await signIn(as);
      await fitsAndIsKept(page, pathname, name);
    });
  }
});
