import type { Page } from "@playwright/test";
import { buyerWithPaidLicense, expect, openLicense, registerAndConfirm, test, uniqueEmail } from "./support";

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });

/** A new customer on the paid monthly plan: the trial started through the demo checkout, then paid at once. */
async function monthlyCustomer(page: Page, project: string) {
  await registerAndConfirm(page, uniqueEmail("plan-switch", project));
  await page.goto("/pricing");
  await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_/);
  const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: shortId });
  // A trial offers no plan change: start the paid plan first.
  await expect(card.getByRole("button", { name: `Change plan of license ${shortId}` })).toHaveCount(0);
  await card.getByRole("button", { name: "Start paid plan now" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Start paid plan" }).click();
  await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for \$9\.00$/);
  return { shortId, card };
}

test.describe("switching plans", () => {
  test.slow();

  test("monthly → yearly: the provider's preview, then the yearly card, the billing row and its invoice", async ({
    page,
  }, info) => {
    const { shortId, card } = await monthlyCustomer(page, info.project.name);

    await card.getByRole("button", { name: `Change plan of license ${shortId}` }).click();
    const dialog = page.getByRole("dialog", { name: "Change plan" });
    await expect(dialog.getByRole("button", { name: /^6 Months\s*\$49\.50 every 6 months$/ })).toBeVisible();
    await dialog.getByRole("button", { name: /^Yearly\s*\$90 per year$/ }).click();
    const preview = dialog.getByTestId("plan-switch-preview");
    await expect(preview).toContainText("From now: the new period starts today.");
    await expect(preview.getByTestId("plan-switch-now")).toHaveText(
      /^Charged now\$8\d\.\d\d \(\$\d\.\d\d unused time credited\)$/,
    );
    await expect(preview.getByTestId("plan-switch-next")).toHaveText(/^Next charge\$90\.00 on .+$/);
    await expect(preview.getByTestId("plan-switch-becomes")).toHaveText(
      /^The license becomesYearly, until .+, 2 machines$/,
    );
    const charged = (await preview.getByTestId("plan-switch-now").innerText()).match(/\$(8\d\.\d\d)/)![1]!;

    // Nothing changed before confirming.
    await dialog.getByRole("button", { name: "Keep my plan" }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId("license-status")).toHaveText(/for \$9\.00$/);

    await card.getByRole("button", { name: `Change plan of license ${shortId}` }).click();
    await dialog.getByRole("button", { name: /^Yearly/ }).click();
    await expect(dialog.getByTestId("plan-switch-preview")).toBeVisible();
    await dialog.getByRole("button", { name: "Switch to Yearly" }).click();
    await expect(toast(page, "Plan changed")).toContainText(`Your license is now Yearly: $${charged} charged`);
    await expect(card).toContainText("Yearly");
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for \$90\.00$/);

    await page.goto("/billing");
    const row = page
      .getByTestId("billing-entry")
      .filter({ hasText: "Switch to a Yearly license (unused time credited)" });
    await expect(row).toContainText(`$${charged}`);
    await expect(row).toContainText(shortId);
    const invoice = row.getByRole("link", { name: /Download invoice/ });
    const href = await invoice.getAttribute("href");
    expect(href).toMatch(/^\/billing\/invoices\/txn_demo_/);
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
  });

  test("without JavaScript, yearly → monthly through the pages: the preview, then the switch waiting for the renewal", async ({
    page,
    browser,
  }, info) => {
    const { card } = await buyerWithPaidLicense(page, "plan-switch-nojs", info.project.name);
    const shortId = (await card.getAttribute("data-short-id"))!;
    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL: new URL(page.url()).origin,
      viewport: info.project.use.viewport,
    });
    await context.addCookies(await page.context().cookies());
    const plain = await context.newPage();
    await plain.goto("/licenses");
    const yearly = plain.getByTestId("license-card").filter({ hasText: shortId });
    await openLicense(yearly);
    await yearly.getByRole("link", { name: `Change plan of license ${shortId}` }).click();
    await expect(plain).toHaveURL(/\/licenses\/plan\?license=/);
    await expect(plain.getByRole("heading", { name: "Change plan" })).toBeVisible();
    await plain.getByRole("link", { name: /^Preview Monthly/ }).click();
    // At phone width each plan's link keeps its name and price inside its box (they wrap).
    await plain.setViewportSize({ width: 390, height: 844 });
    for (const link of await plain.getByRole("link", { name: /^Preview / }).all())
      expect(await link.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await plain.setViewportSize(info.project.use.viewport!);
    const preview = plain.getByTestId("plan-switch-preview");
    await expect(preview).toContainText("From the next renewal: nothing changes until then.");
    await expect(preview.getByTestId("plan-switch-now")).toHaveText("Charged now$0.00");
    await expect(preview.getByTestId("plan-switch-next")).toHaveText(/^Next charge\$9\.00 on .+$/);
    await plain.getByRole("button", { name: "Switch to Monthly" }).click();
    await expect(plain).toHaveURL(/\/licenses#license-/);
    await expect(plain.getByTestId("no-script-notice")).toContainText("Plan change scheduled");
    await openLicense(yearly);
    await expect(yearly.getByTestId("plan-switch-pending")).toHaveText(
      /^Switching to Monthly at the next renewal on .+\.$/,
    );
    await expect(yearly.getByTestId("license-status")).toHaveText(/for \$9\.00$/);
    await context.close();
  });
});
