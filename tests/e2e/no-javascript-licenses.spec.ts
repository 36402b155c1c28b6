import type { Browser, Page, TestInfo } from "@playwright/test";
import { DEMO_USER, expect as baseExpect, openLicense, registerAndConfirm, test, uniqueEmail } from "./support";

// The shared machine can be slow: the payment and the redirects get more time than the default.
const expect = baseExpect.configure({ timeout: 20_000 });

/** A fresh customer with a monthly trial and a paid yearly license (demo checkout, with scripts). */
async function yearlyBuyer(page: Page, info: TestInfo): Promise<void> {
  await registerAndConfirm(page, uniqueEmail("nojs-extend", info.project.name));
  for (const [plan, button, pay] of [
    ["monthly", "Start 7-day free trial", "Start free trial"],
    ["yearly", "Choose Yearly", "Pay $90"],
  ] as const) {
    await page.goto("/pricing");
    await page.getByTestId(`plan-${plan}`).getByRole("button", { name: button }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);
  }
}

// A license card's actions and the extension page as plain HTML (decision 0057): the customer is made
// with scripts (checkout needs them), then the same session continues in a browser without them.

/** The same session in a browser with JavaScript off, at the project's screen size. */
async function withoutScripts(browser: Browser, page: Page, info: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: new URL(page.url()).origin,
    viewport: info.project.use.viewport,
  });
  await context.addCookies(await page.context().cookies());
  return context.newPage();
}

const notice = (page: Page) => page.getByTestId("no-script-notice");

test.describe("without JavaScript, a license card", () => {
  test.describe.configure({ timeout: 240_000 });

  test("extends through the plain form: steppers are links, typed numbers are priced first", async ({
    page,
    browser,
  }, info) => {
    await yearlyBuyer(page, info);
    const plain = await withoutScripts(browser, page, info);
    await plain.goto("/licenses");
    const yearly = plain.getByTestId("license-card").filter({ hasText: "Yearly license" });
    await openLicense(yearly);
    await yearly.getByRole("link", { name: "Extend" }).click();
    await expect(plain).toHaveURL(/\/extend-license\?license=/);
    await expect(plain.getByRole("button", { name: /^Pay / })).toBeDisabled();
    await plain.getByRole("link", { name: "More additional months" }).click();
    await plain.getByRole("link", { name: "More additional months" }).click();
    await expect(plain.getByTestId("extension-total")).toHaveText("$18");
    await plain.screenshot({ path: info.outputPath(`extend-${info.project.name}.png`), fullPage: true });

    // A typed number the page did not price yet is shown again with its total, not charged.
    await plain.getByRole("spinbutton", { name: "Additional years" }).fill("1");
    await plain.getByRole("button", { name: "Pay $18 and extend" }).click();
    await expect(notice(plain)).toContainText("The total for 2 months and 1 year is $117. Press Pay to extend.");
    await expect(plain.getByTestId("extension-total")).toHaveText("$117");
    // Or the page prices them on request.
    await plain.getByRole("spinbutton", { name: "Additional years" }).fill("0");
    await plain.getByRole("button", { name: "Update the total" }).click();
    await expect(plain.getByTestId("extension-total")).toHaveText("$18");
    await plain.getByRole("button", { name: "Pay $18 and extend" }).click();
    await expect(plain).toHaveURL("/licenses");
    await expect(notice(plain)).toContainText("License Extended");
    await expect(notice(plain)).toContainText("Your license now runs until");
  });

  test("asks on a page before cancelling renewal, says what was done, and re-enables it", async ({
    page,
    browser,
    signIn,
  }, info) => {
    // The demo customer's renewing license, turned back on at the end (the seeded data is shared).
    await signIn(DEMO_USER);
    const plain = await withoutScripts(browser, page, info);
    await plain.goto("/licenses");
    const renewing = plain
      .getByTestId("license-card")
      .filter({ has: plain.getByTestId("license-status").getByText(/^Active, renews on /) })
      .first();
    // The card by its id: its status changes below.
    const yearly = plain.locator(`[id="${await renewing.getAttribute("id")}"]`);
    await openLicense(yearly);
    const shortId = (await yearly.getByTestId("license-short-id").innerText()).trim();

    // The key: Show is a native disclosure, the key selects whole, Copy says it needs JavaScript.
    const key = yearly.getByTestId("license-key");
    await expect(key).toHaveCSS("user-select", "all");
    const folded = (await key.boundingBox())!.height;
    const show = yearly.getByTestId("license-key-show").locator("summary");
    await expect(show).toHaveAccessibleName(`Show license key ${shortId}`);
    await show.click();
    await expect(show).toHaveAccessibleName(`Hide license key ${shortId}`);
    expect((await key.boundingBox())!.height).toBeGreaterThan(folded * 2);
    await expect(yearly.getByRole("button", { name: `Copy license key ${shortId}` })).toBeDisabled();
    await expect(yearly.getByTestId("needs-script").first()).toHaveText("Needs JavaScript");
    await plain.screenshot({ path: info.outputPath(`key-${info.project.name}.png`), fullPage: true });

    await yearly.getByRole("link", { name: "Cancel auto-renewal" }).click();
    await expect(plain).toHaveURL(/\/licenses\/confirm\?intent=cancel-renewal/);
    await expect(plain.getByRole("heading", { name: "Cancel automatic renewal?" })).toBeVisible();
    await expect(plain.getByTestId("license-short-id")).toHaveText(shortId);
    await plain.screenshot({ path: info.outputPath(`confirm-${info.project.name}.png`), fullPage: true });
    await plain.getByRole("button", { name: "Cancel renewal" }).click();
    await expect(plain).toHaveURL(/\/licenses#license-/);
    await expect(notice(plain)).toContainText("Subscription Cancelled");
    await expect(yearly.getByTestId("license-status")).toContainText("automatic renewal is cancelled");
    await plain.screenshot({ path: info.outputPath(`cancelled-${info.project.name}.png`), fullPage: true });

    await openLicense(yearly);
    await yearly.getByRole("button", { name: "Re-enable auto-renewal" }).click();
    await expect(notice(plain)).toContainText("Auto-Renewal Enabled");
    await expect(yearly.getByTestId("license-status")).toHaveText(/^Active, renews on /);

    // Keep on the page asking changes nothing.
    await openLicense(yearly);
    await yearly.getByRole("link", { name: "Cancel auto-renewal" }).click();
    await plain.getByRole("link", { name: "Keep renewing" }).click();
    await expect(notice(plain)).toHaveCount(0);
    await expect(yearly.getByTestId("license-status")).toHaveText(/^Active, renews on /);
  });
});
