import { describe, expect, it } from "vitest";
import { addMonths, extensionMonths, extensionPriceCents, isValidExtension } from "~/domain/extension";

describe("license extension (spec section 9)", () => {
  it("costs 9 per month and 99 per year", () => {
    expect(extensionPriceCents(1, 0)).toBe(900);
    expect(extensionPriceCents(0, 1)).toBe(9900);
    expect(extensionPriceCents(2, 1)).toBe(11700);
    expect(extensionPriceCents(12, 5)).toBe(12 * 900 + 5 * 9900);
  });
  it("adds months plus 12 per year", () => {
    expect(extensionMonths(2, 1)).toBe(14);
    expect(extensionMonths(12, 5)).toBe(72);
  });
  it.each([
    [0, 0, false],
    [1, 0, true],
    [0, 1, true],
    [12, 5, true],
    [13, 0, false],
    [0, 6, false],
    [-1, 1, false],
    [1.5, 0, false],
    [Number.NaN, 1, false],
  ])("months %s, years %s → valid %s", (months, years, valid) => {
    expect(isValidExtension(months, years)).toBe(valid);
  });
  it("adds calendar months in UTC, clamping to the month's last day", () => {
    expect(addMonths(new Date("2026-01-31T10:00:00Z"), 1).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(addMonths(new Date("2026-11-15T00:00:00Z"), 14).toISOString()).toBe("2028-01-15T00:00:00.000Z");
    expect(addMonths(new Date("2024-02-29T00:00:00Z"), 12).toISOString()).toBe("2025-02-28T00:00:00.000Z");
  });
});
