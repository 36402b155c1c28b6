import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_USER, expect, registerAndConfirm, test, uniqueEmail } from "./support";

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });

/** No horizontal scrolling: the page fits the viewport (390 px on the mobile project). */
async function expectNoOverflow(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** Every payment row of /billing lies inside its box (no row cut off on the right at 390 px). */
async function expectBillingRowsInside(page: Page) {
  const rows = await page.getByTestId("billing-entry").evaluateAll((entries) =>
    entries.map((entry) => {
      const box = entry.closest("div")!.getBoundingClientRect();
      return Math.round(entry.getBoundingClientRect().right - box.right);
    }),
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const beyond of rows) expect(beyond).toBeLessThanOrEqual(0);
}

/** A new customer who started the monthly plan's free trial through the demo checkout; the success page is open. */
async function startTrial(page: Page, prefix: string, project: string) {
  const email = uniqueEmail(prefix, project);
  await registerAndConfirm(page, email);
  await page.goto("/pricing");
  await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_/);
  return email;
}

test.describe("a trial converts on purpose", () => {
  // Each registers, confirms and starts a trial through the UI first.
  test.slow();

  test(
    "the success page says the trial started and when the first charge comes; Start paid plan now charges and shows it",
    { tag: "@phone" },
    async ({ page }, info) => {
      await startTrial(page, "trial-start", info.project.name);
      await expect(page.getByRole("heading", { name: "Your free trial has started" })).toBeVisible();
      await expect(page.getByTestId("success-lead")).toHaveText(
        /^Nothing was charged today\. First charge on .+: \$9\.00, unless you cancel the trial on your licenses page before then\.$/,
      );
      const transactionId = new URL(page.url()).searchParams.get("transactionId")!;
      await expect(page.getByTestId("transaction-id")).toHaveText(transactionId);
      await expect(page.getByTestId("purchased-license")).toContainText("Monthly (free trial)");
      await expect(page.getByTestId("license-key")).toBeVisible();
      const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();
      await expectNoOverflow(page);

      await page.getByRole("link", { name: "Go to Licenses" }).click();
      const card = page.getByTestId("license-card").filter({ hasText: shortId });
      await expect(card.getByTestId("trial-first-charge")).toHaveText(/^First charge on .+: \$9\.00$/);
      await expectNoOverflow(page);
      expect((await new AxeBuilder({ page }).include("[data-testid=trial-conversion]").analyze()).violations).toEqual(
        [],
      );

      // The confirmation names the amount; keeping the trial changes nothing.
      await card.getByRole("button", { name: "Start paid plan now" }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toContainText("Start the paid plan now for $9.00?");
      await expect(dialog).toContainText("You are charged $9.00 now");
      await dialog.getByRole("button", { name: "Keep the trial" }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByTestId("license-status")).toHaveText(/^Active, trial until /);

      await card.getByRole("button", { name: "Start paid plan now" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Start paid plan" }).click();
      await expect(toast(page, "Paid plan started")).toContainText(/\$9\.00 is charged now; the license renews on /);
      await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for \$9\.00$/);
      await expect(card.getByTestId("trial-conversion")).toHaveCount(0);
      await expect(card.getByRole("button", { name: "Cancel auto-renewal" })).toBeVisible();

      // /billing: the charge was recorded and the next one is coming.
      await page.goto("/billing");
      await expect(page.getByTestId("upcoming-charge")).toHaveCount(1);
      await expect(page.getByTestId("upcoming-charge")).toContainText(shortId);
      await expect(page.getByTestId("upcoming-charge")).toContainText("$9.00");
      await expect(page.getByTestId("upcoming-charge")).toContainText("renewal");
      await expect(
        page.getByTestId("billing-entry").filter({ hasText: "Monthly license, first payment after the free trial" }),
      ).toContainText("$9.00");
      await expectNoOverflow(page);
      await expectBillingRowsInside(page);
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    },
  );

  test(
    "buying another license says the trial still converts; Cancel trial stops it, nothing is charged",
    { tag: "@phone" },
    async ({ page }, info) => {
      await startTrial(page, "trial-cancel", info.project.name);
      const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();

      // While the trial runs, /pricing and the checkout say it still converts.
      await page.goto("/pricing");
      await expect(page.getByTestId("trial-still-converts")).toContainText(
        `Your trial license ${shortId} still converts: $9.00 on`,
      );
      await page.getByTestId("plan-yearly").getByRole("button", { name: "Choose Yearly" }).click();
      const checkout = page.getByRole("dialog", { name: "Checkout" });
      await expect(checkout.getByTestId("trial-still-converts")).toContainText(`${shortId} still converts`);
      await page.keyboard.press("Escape");
      await expect(checkout).toBeHidden();

      // /billing shows the trial's first charge as coming.
      await page.goto("/billing");
      await expect(page.getByTestId("upcoming-charge")).toContainText("first charge after the free trial");

      await page.goto("/licenses");
      const card = page.getByTestId("license-card").filter({ hasText: shortId });
      await card.getByRole("button", { name: "Cancel trial" }).click();
      const dialog = page.getByRole("alertdialog");
      await expect(dialog).toContainText("Cancel the trial?");
      await expect(dialog).toContainText("Nothing is charged. The license keeps working until the trial ends on");
      await dialog.getByRole("button", { name: "Cancel trial" }).click();
      await expect(toast(page, "Trial cancelled")).toContainText("Nothing is charged. The license works until");
      await expect(card.getByTestId("trial-conversion")).toHaveText(
        /^Trial cancelled: the license works until .+, then stops\. Nothing is charged\.$/,
      );
      await expect(card.getByRole("button", { name: "Start paid plan now" })).toHaveCount(0);
      await expect(card.getByRole("button", { name: "Re-enable auto-renewal" })).toBeVisible();

      // Nothing is coming any more, and /pricing no longer warns.
      await page.goto("/billing");
      await expect(page.getByTestId("no-upcoming-charges")).toBeVisible();
      await expectNoOverflow(page);
      await page.goto("/pricing");
      await expect(page.getByTestId("trial-still-converts")).toHaveCount(0);
    },
  );

  test(
    "the success page with another user's transaction id shows the generic message, claiming no payment",
    { tag: "@phone" },
    async ({ page, signIn }) => {
      await signIn(DEMO_USER, "/billing");
      // The seeded payments include a refunded one, the longest status: every row keeps to its box.
      await expectBillingRowsInside(page);
      const href = await page.getByRole("link", { name: "Download invoice" }).first().getAttribute("href");
      const transactionId = href!.split("/").pop()!;
      // Its owner sees the payment.
      await page.goto(`/success?transactionId=${transactionId}`);
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await expect(page.getByTestId("transaction-id")).toHaveText(transactionId);

      await page.context().clearCookies();
      await signIn(DEMO_ADMIN, `/success?transactionId=${transactionId}`);
      await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
      await expect(page.getByText("Payment successful")).toHaveCount(0);
      await expect(page.getByTestId("transaction-id")).toHaveCount(0);
      await expect(page.getByTestId("purchased-license")).toHaveCount(0);
      await expect(page.locator("body")).not.toContainText(transactionId);
      await expectNoOverflow(page);
    },
  );

  test("without JavaScript, Cancel trial and Start paid plan now are plain form posts", async ({
    page,
    browser,
  }, info) => {
    await startTrial(page, "trial-nojs", info.project.name);
    const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();
    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL: new URL(page.url()).origin,
      viewport: info.project.use.viewport,
    });
    await context.addCookies(await page.context().cookies());
    const plain = await context.newPage();
    await plain.goto("/licenses");
    const card = plain.getByTestId("license-card").filter({ hasText: shortId });
    // Without scripts both ask first, on the confirmation page (decision 0057).
    await expect(card.getByRole("link", { name: "Start paid plan now" })).toBeVisible();
    await card.getByRole("link", { name: "Cancel trial" }).click();
    await expect(plain).toHaveURL(/\/licenses\/confirm\?intent=cancel-trial&license=/);
    await plain.getByRole("main").getByRole("button").first().click();
    await expect(plain).toHaveURL(/\/licenses(#license-[0-9a-f-]{36})?$/);
    await expect(card.getByTestId("trial-conversion")).toHaveText(/^Trial cancelled: the license works until /);
    await expect(card.getByRole("link", { name: "Start paid plan now" })).toHaveCount(0);
    await context.close();
  });
});
