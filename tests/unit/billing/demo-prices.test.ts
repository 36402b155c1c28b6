import { describe, expect, it } from "vitest";
import { parseCountry, type CountryCode } from "~/domain/countries";
import { DEMO_COUNTRY_PRICES, demoCharge, demoPricePreview, taxIncluded } from "~/domain/demo-prices";
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

describe("what the demo charges (decision 0072): the one rule its checkout, renewals and preview read", () => {
  it("a listed country: the table's currency, amount with its tax, and rate", () => {
    expect(demoCharge("DE", "yearly")).toEqual({ currency: "EUR", totalMinor: 9999, taxRate: "0.19" });
    expect(demoCharge("JP", "monthly")).toEqual({ currency: "JPY", totalMinor: 1400, taxRate: "0.1" });
  });

  it("any other country, none, or a name that is not a country: the plan table's US dollars without tax", () => {
    for (const country of ["BR", null, undefined, "", "toString", "__proto__"])
      expect(demoCharge(country, "monthly")).toEqual({ currency: "USD", totalMinor: 900, taxRate: "0" });
  });

  it("the tax inside an amount, to the minor unit; none at a zero or unreadable rate", () => {
    expect(taxIncluded(9999, "0.19")).toBe(1596);
    expect(taxIncluded(1400, "0.1")).toBe(127);
    expect(taxIncluded(900, "0")).toBe(0);
    expect(taxIncluded(900, "x")).toBe(0);
  });
});
