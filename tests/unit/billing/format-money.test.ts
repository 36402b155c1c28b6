import { describe, expect, it } from "vitest";
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
