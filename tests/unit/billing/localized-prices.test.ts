import { describe, expect, it } from "vitest";
import { parseCountry, type CountryCode } from "~/domain/countries";
import {
  planPriceLines,
  PRICES_IN_USD_NOTE,
  pricesNote,
  readPricePreview,
  tablePrices,
  type PricePreviewLine,
} from "~/domain/localized-prices";
import { PLAN_IDS, savingsPercent, type PlanId } from "~/domain/plans";

const DE = parseCountry("DE") as CountryCode;
const US = parseCountry("US") as CountryCode;
const ids: Record<PlanId, string> = { monthly: "pri_m", "6_months": "pri_6", yearly: "pri_y" };
const line = (priceId: string, totalMinor: number, taxMinor = 0, taxRate = "0", formattedTotal: string | null = null) =>
  ({ priceId, totalMinor, taxMinor, taxRate, formattedTotal }) satisfies PricePreviewLine;

describe("the plan table's prices (country unknown, provider down)", () => {
  it("are US dollars with the note the page always had", () => {
    const prices = tablePrices();
    expect(prices).toMatchObject({ country: null, currency: "USD", note: PRICES_IN_USD_NOTE });
    expect(prices.plans.monthly).toEqual({ amountMinor: 900, amount: "$9" });
    expect(prices.plans["6_months"]).toEqual({ amountMinor: 4950, amount: "$49.50" });
    expect(prices.plans.yearly).toEqual({ amountMinor: 9000, amount: "$90" });
  });

  it("give the cards the lines they always showed", () => {
    for (const id of PLAN_IDS)
      expect(planPriceLines(tablePrices(), id).savingsPercent).toBe(id === "monthly" ? 0 : savingsPercent(id));
    expect(planPriceLines(tablePrices(), "yearly")).toEqual({ amount: "$90", perMonth: "$7.50", savingsPercent: 17 });
    expect(planPriceLines(tablePrices(), "monthly").perMonth).toBeNull();
  });
});

describe("a provider's preview read into the page's prices", () => {
  const euros = {
    currency: "EUR",
    lines: [
      line("pri_m", 1071, 171, "0.19", "€10.71"),
      line("pri_6", 5891, 941, "0.19", "€58.91"),
      line("pri_y", 10710, 1710, "0.19", "€107.10"),
    ],
  };

  it("takes each plan's total and the provider's writing of it, and says the tax it includes", () => {
    const prices = readPricePreview(DE, ids, euros)!;
    expect(prices.country).toBe("DE");
    expect(prices.currency).toBe("EUR");
    expect(prices.plans.monthly).toEqual({ amountMinor: 1071, amount: "€10.71" });
    expect(prices.plans.yearly).toEqual({ amountMinor: 10710, amount: "€107.10" });
    expect(prices.note).toBe("Germany: prices in EUR, including 19% tax.");
  });

  it("writes an amount itself when the provider gives no writing", () => {
    const prices = readPricePreview(DE, ids, {
      ...euros,
      lines: euros.lines.map((l) => ({ ...l, formattedTotal: null })),
    })!;
    expect(prices.plans.yearly.amount).toBe("€107.10");
  });

  it("per month and savings from the country's own amounts", () => {
    const prices = readPricePreview(DE, ids, euros)!;
    expect(planPriceLines(prices, "6_months")).toEqual({ amount: "€58.91", perMonth: "€9.82", savingsPercent: 8 });
    expect(planPriceLines(prices, "yearly")).toEqual({ amount: "€107.10", perMonth: "€8.93", savingsPercent: 17 });
  });

  it("ignores lines for prices it did not ask about, in any order", () => {
    const prices = readPricePreview(DE, ids, { ...euros, lines: [line("pri_other", 1, 0), ...euros.lines.reverse()] });
    expect(prices?.plans.monthly.amountMinor).toBe(1071);
  });

  it.each([
    ["a plan's price missing", { ...euros, lines: euros.lines.slice(1) }],
    ["a zero total (a price the page cannot show)", { ...euros, lines: [line("pri_m", 0), ...euros.lines.slice(1)] }],
    ["a fractional total", { ...euros, lines: [line("pri_m", 10.5), ...euros.lines.slice(1)] }],
    ["a currency that is not a code", { ...euros, currency: "euro" }],
  ])("is unusable with %s: the caller shows US dollars", (_, preview) => {
    expect(readPricePreview(DE, ids, preview)).toBeNull();
  });
});

describe("the prices' note", () => {
  it("names the rate the provider gives when every price includes it", () => {
    expect(pricesNote(DE, "EUR", [line("a", 1190, 190, "0.19")])).toBe("Germany: prices in EUR, including 19% tax.");
    expect(pricesNote(DE, "CHF", [line("a", 1077, 77, "0.077")])).toBe("Germany: prices in CHF, including 7.7% tax.");
  });

  it("says tax is included without a rate when the rates differ", () => {
    expect(pricesNote(DE, "EUR", [line("a", 1190, 190, "0.19"), line("b", 1070, 70, "0.07")])).toBe(
      "Germany: prices in EUR, including tax.",
    );
  });

  it("says taxes come at checkout when the provider computed none (a US state needs more than the country)", () => {
    expect(pricesNote(US, "USD", [line("a", 900)])).toBe(
      "United States: prices in USD. Taxes are added at checkout where they apply.",
    );
  });
});
