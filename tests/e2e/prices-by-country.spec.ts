import { PRICES_IN_USD_NOTE } from "~/domain/localized-prices";
import { expect, registerAndConfirm, test, uniqueEmail } from "./support";

// Prices in the buyer's currency (decision 0072): the demo provider's table, seen through ?country=.
test.describe("pricing in the visitor's currency", () => {
  test("Germany in euros and Japan in yen, each with its tax note; no country or a bad one in US dollars", async ({
    page,
  }) => {
    await page.goto("/pricing?country=DE");
    await expect(page.getByTestId("plan-monthly").getByTestId("plan-price")).toHaveText("€9.99");
    await expect(page.getByTestId("plan-6_months").getByTestId("plan-price")).toHaveText("€54.99");
    await expect(page.getByTestId("plan-6_months")).toContainText("€9.17 per month");
    await expect(page.getByTestId("plan-6_months")).toContainText("Save 8%");
    await expect(page.getByTestId("plan-yearly").getByTestId("plan-price")).toHaveText("€99.99");
    await expect(page.getByTestId("plan-yearly")).toContainText("€8.33 per month");
    await expect(page.getByTestId("plan-yearly")).toContainText("Save 17%");
    await expect(page.getByTestId("prices-note")).toHaveText("Germany: prices in EUR, including 19% tax.");
    // The team offer prices its seats in the same currency, before its code is loaded and after.
    const team = page.getByTestId("team-offer");
    await expect(team.getByText("€99.99 / seat, per year")).toBeVisible();
    await expect(team.getByTestId("team-total")).toHaveText("Total: 5 seats × €99.99 = €499.95 per year");
    // Its code loads on the first focus and takes the server copy's place: typing waits for it.
    await team.getByLabel("Seats").focus();
    await expect(page.locator('[data-team-form="live"]')).toBeAttached();
    await team.getByLabel("Seats").fill("3");
    await expect(team.getByTestId("team-total")).toHaveText("Total: 3 seats × €99.99 = €299.97 per year");
    await team.getByRole("radio", { name: /Monthly/ }).check();
    await expect(team.getByTestId("team-total")).toHaveText("Total: 3 seats × €9.99 = €29.97 per month");
    await expect(team).not.toContainText("$");

    await page.goto("/pricing?country=jp");
    await expect(page.getByTestId("plan-monthly").getByTestId("plan-price")).toHaveText("¥1,400");
    await expect(page.getByTestId("plan-6_months").getByTestId("plan-price")).toHaveText("¥7,700");
    await expect(page.getByTestId("plan-yearly").getByTestId("plan-price")).toHaveText("¥14,000");
    await expect(page.getByTestId("plan-yearly")).toContainText("¥1,167 per month");
    await expect(page.getByTestId("prices-note")).toHaveText("Japan: prices in JPY, including 10% tax.");

    for (const path of ["/pricing", "/pricing?country=nowhere"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByTestId("plan-monthly").getByTestId("plan-price")).toHaveText("$9");
      await expect(page.getByTestId("plan-yearly").getByTestId("plan-price")).toHaveText("$90");
      await expect(page.getByTestId("prices-note")).toHaveText(PRICES_IN_USD_NOTE);
    }
  });

  // The demo checkout charges what the page priced (decision 0072): the license, its renewal and /billing in euros.
  test("bought from /pricing?country=DE with the demo checkout: the summary, the license card and /billing say euros", async ({
    page,
  }, info) => {
    test.setTimeout(90_000);
    await registerAndConfirm(page, uniqueEmail("euros", info.project.name), "secret-pass-1", "Erika Euro");
    // A first license (its trial, in US dollars), so that the next checkout is bought without a trial.
    await page.goto("/pricing");
    await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);

    await page.goto("/pricing?country=DE");
    await page.getByTestId("plan-yearly").getByRole("button", { name: "Choose Yearly" }).click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("demo-checkout-price")).toHaveText("€99.99 per year");
    await expect(dialog.getByTestId("demo-checkout-due")).toHaveText("€99.99");
    await expect(dialog.getByTestId("checkout-price-note")).toHaveText("Germany: prices in EUR, including 19% tax.");
    await dialog.getByRole("button", { name: "Pay €99.99" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_[0-9a-f]+$/);

    await page.goto("/licenses");
    const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for €99\.99$/);

    await page.goto("/billing");
    await expect(page.getByTestId("upcoming-charge").filter({ hasText: "€99.99" })).toHaveCount(1);
    const paid = page.getByTestId("billing-entry").filter({ hasText: "Yearly" });
    await expect(paid).toContainText("€99.99");
    await expect(paid).not.toContainText("$");
  });

  // A trial bought in euros keeps the checkout's quote (decision 0072): its first charge, starting it now and
  // the plans it may switch to are in euros.
  test("a trial from /pricing?country=DE: the first charge, Start paid plan now and Change plan say euros", async ({
    page,
  }, info) => {
    test.setTimeout(90_000);
    await registerAndConfirm(page, uniqueEmail("euro-trial", info.project.name), "secret-pass-1", "Tina Trial");
    await page.goto("/pricing?country=DE");
    await page.getByTestId("plan-yearly").getByRole("button", { name: "Start 7-day free trial" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_/);
    await expect(page.getByTestId("success-lead")).toHaveText(
      /^Nothing was charged today\. First charge on .+: €99\.99, unless you cancel the trial on your licenses page before then\.$/,
    );
    const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();

    await page.getByRole("link", { name: "Go to Licenses" }).click();
    const card = page.getByTestId("license-card").filter({ hasText: shortId });
    await expect(card.getByTestId("trial-first-charge")).toHaveText(/^First charge on .+: €99\.99$/);
    await expect(card.getByRole("button", { name: "Cancel trial" })).toBeVisible();
    await card.getByRole("button", { name: "Start paid plan now" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Start the paid plan now for €99.99?");
    await confirm.getByRole("button", { name: "Start paid plan" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Paid plan started" })).toContainText(
      /€99\.99 is charged now; the license renews on /,
    );
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for €99\.99$/);

    await card.getByRole("button", { name: `Change plan of license ${shortId}` }).click();
    const plans = page.getByRole("dialog", { name: "Change plan" });
    await expect(plans.getByRole("button", { name: /^Monthly\s*€9\.99 per month$/ })).toBeVisible();
    await expect(plans.getByRole("button", { name: /^6 Months\s*€54\.99 every 6 months$/ })).toBeVisible();
    await expect(plans).not.toContainText("$");
  });
});
