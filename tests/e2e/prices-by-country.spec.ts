import { PRICES_IN_USD_NOTE } from "~/domain/localized-prices";
import { expect, test } from "./support";

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
});
