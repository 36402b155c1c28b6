import { describe, expect, it } from "vitest";
import { formatMoney } from "~/domain/billing";

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
