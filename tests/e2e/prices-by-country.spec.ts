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
    await page.goto("/pricing?country=DE");
    // A first-time buyer's percentage code is bought without the trial: a charge today, in euros.
    await page.getByLabel("Discount code (optional)").fill("WELCOME20");
    await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("demo-checkout-price")).toHaveText("€9.99 per month");
    await expect(dialog.getByTestId("demo-checkout-due")).toHaveText("€7.99");
    await expect(dialog.getByTestId("checkout-price-note")).toHaveText("Germany: prices in EUR, including 19% tax.");
    await dialog.getByRole("button", { name: "Pay €7.99" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_[0-9a-f]+$/);

    await page.goto("/licenses");
    const card = page.getByTestId("license-card");
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on .+ for €9\.99$/);

    await page.goto("/billing");
    await expect(page.getByTestId("upcoming-charge")).toContainText("€9.99");
    await expect(page.getByTestId("billing-entry")).toContainText("€7.99");
    await expect(page.getByTestId("billing-entry")).not.toContainText("$");
  });
});
