import { describe, expect, it, vi } from "vitest";

import { formatMoney, formatPrice, minorUnitDigits } from "~/domain/billing";

describe("formatMoney", () => {
  it("writes minor units as the currency's money, the same on every call (one formatter per currency)", () => {
    for (let i = 0; i < 3; i++) {
      expect(formatMoney(900, "USD")).toBe("$9.00");
      expect(formatMoney(4950, "EUR")).toBe("€49.50");
      expect(formatMoney(-1234567, "USD")).toBe("-$12,345.67");
    }
  });

  it("writes an amount in a code Intl does not take as the number and the code", () => {
    expect(formatMoney(900, "not a currency")).toBe("9.00 not a currency");
    expect(formatMoney(900, "not a currency")).toBe("9.00 not a currency");
    expect(formatMoney(900, "USD")).toBe("$9.00");
  });
});

describe("formatMoney in currencies with other minor units", () => {
  it("reads Paddle's minor units by the currency's digits: yen have none", () => {
    expect(minorUnitDigits("USD")).toBe(2);
    expect(minorUnitDigits("JPY")).toBe(0);
    expect(formatMoney(1400, "JPY")).toBe("¥1,400");
    expect(formatMoney(79900, "INR")).toBe("₹799.00");
    expect(formatMoney(899, "GBP")).toBe("£8.99");
  });
});

describe("formatPrice: a price quoted before paying", () => {
  it.each([
    [900, "USD", "$9"],
    [4950, "USD", "$49.50"],
    [999, "EUR", "€9.99"],
    [100000, "USD", "$1,000"],
    [1400, "JPY", "¥1,400"],
    [14000, "JPY", "¥14,000"],
    [1000000, "INR", "₹10,000"],
    [79900, "INR", "₹799"],
    [900, "not a currency", "9 not a currency"],
  ])("%i %s → %s", (minor, currency, written) => {
    expect(formatPrice(minor, currency)).toBe(written);
  });
});

describe("US dollars without Intl", () => {
  // The browser's first Intl.NumberFormat loads its locale data inside the page's hydration; dollars are
  // written by hand instead, and must read exactly as Intl writes them.
  const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const intlWhole = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const amounts = [
    0, 1, 5, 9, 10, 99, 100, 101, 855, 900, 999, 1000, 4703, 4950, 8550, 9000, 99999, 100000, 100001, 123456, 999999,
    1000000, 12345678, 100000000, 123456789012, 999999999999,
  ];
  const signed = amounts.flatMap((cents) => (cents === 0 ? [0] : [cents, -cents]));
  // And a spread of ordinary amounts, to cover every digit in every place.
  for (let cents = 7; cents < 50_000_000; cents = Math.floor(cents * 1.37) + 3) signed.push(cents, -cents);

  it("formatMoney reads as Intl's en-US currency format, for every amount", () => {
    for (const cents of signed) expect(formatMoney(cents, "USD"), String(cents)).toBe(intl.format(cents / 100));
  });

  it("formatPrice drops a zero fraction as Intl's whole format does, and keeps any other", () => {
    for (const cents of signed) {
      const expected = cents % 100 === 0 ? intlWhole.format(cents / 100) : intl.format(cents / 100);
      expect(formatPrice(cents, "USD"), String(cents)).toBe(expected);
    }
  });

  it("builds no Intl formatter for dollars, and one for another currency", async () => {
    vi.resetModules();
    const Original = Intl.NumberFormat;
    let built = 0;
    Intl.NumberFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        built++;
      }
    } as typeof Intl.NumberFormat;
    try {
      const fresh = await import("~/domain/billing");
      expect([fresh.formatMoney(123456, "USD"), fresh.formatPrice(900, "USD"), fresh.minorUnitDigits("USD")]).toEqual([
        "$1,234.56",
        "$9",
        2,
      ]);
      expect(built).toBe(0);
      expect(fresh.formatMoney(900, "EUR")).toBe("€9.00");
      expect(built).toBe(1);
    } finally {
      Intl.NumberFormat = Original;
    }
  });
});
