import { describe, expect, it } from "vitest";
import { parseCountry, type CountryCode } from "~/domain/countries";
import { DEMO_COUNTRY_PRICES, demoPricePreview } from "~/domain/demo-prices";
import { readPricePreview } from "~/domain/localized-prices";
import { PLAN_IDS, type PlanId } from "~/domain/plans";

const country = (code: string) => parseCountry(code) as CountryCode;
const ids: Record<PlanId, string> = {
  monthly: "pri_demo_monthly",
  "6_months": "pri_demo_6_months",
  yearly: "pri_demo_yearly",
};
const asked = PLAN_IDS.map((plan) => ({ priceId: ids[plan], plan }));

describe("the demo provider's prices abroad", () => {
  it("prices a handful of countries, each a real country with every plan priced above zero", () => {
    expect(Object.keys(DEMO_COUNTRY_PRICES).sort()).toEqual(["DE", "FR", "GB", "IN", "JP"]);
    for (const [code, row] of Object.entries(DEMO_COUNTRY_PRICES)) {
      expect(parseCountry(code)).toBe(code);
      for (const plan of PLAN_IDS) expect(row.amounts[plan]).toBeGreaterThan(0);
    }
  });

  it.each([
    ["DE", "EUR", "€9.99", "Germany: prices in EUR, including 19% tax."],
    ["FR", "EUR", "€9.99", "France: prices in EUR, including 20% tax."],
    ["GB", "GBP", "£8.99", "United Kingdom: prices in GBP, including 20% tax."],
    ["JP", "JPY", "¥1,400", "Japan: prices in JPY, including 10% tax."],
    ["IN", "INR", "₹799", "India: prices in INR, including 18% tax."],
  ])("%s: %s, monthly %s, with its tax note", (code, currency, monthly, note) => {
    const prices = readPricePreview(country(code), ids, demoPricePreview(country(code), asked))!;
    expect(prices.currency).toBe(currency);
    expect(prices.plans.monthly.amount).toBe(monthly);
    expect(prices.note).toBe(note);
  });

  it("takes the tax out of the tax-included amount, to the minor unit", () => {
    const [monthly] = demoPricePreview(country("DE"), asked).lines;
    // €9.99 with 19% in it: 8.39 before tax, 1.60 tax.
    expect(monthly).toMatchObject({ priceId: ids.monthly, totalMinor: 999, taxMinor: 160, taxRate: "0.19" });
  });

  it("charges any other country the plan table's US dollars, without tax", () => {
    const preview = demoPricePreview(country("BR"), asked);
    expect(preview.currency).toBe("USD");
    expect(preview.lines.map((l) => [l.totalMinor, l.taxMinor])).toEqual([
      [900, 0],
      [4950, 0],
      [9000, 0],
    ]);
  });
});
