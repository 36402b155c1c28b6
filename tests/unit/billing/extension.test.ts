import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  extendedEndDate,
  extensionMonths,
  extensionPriceCents,
  isValidExtension,
} from "~/domain/extension";

describe("license extension", () => {
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

describe("extended end date: months added to the later of the end date and the payment", () => {
  const paidAt = new Date("2026-11-23T10:00:00Z");
  it("a license still running keeps its remaining time", () => {
    expect(extendedEndDate(new Date("2027-01-15T00:00:00Z"), paidAt, 2).toISOString()).toBe("2027-03-15T00:00:00.000Z");
  });
  it("an expired license runs from the payment, so it always ends in the future", () => {
    const end = extendedEndDate(new Date("2025-01-15T00:00:00Z"), paidAt, 1);
    expect(end.toISOString()).toBe("2026-12-23T10:00:00.000Z");
    expect(end > paidAt).toBe(true);
  });
  it("a license ending exactly at the payment runs from then", () => {
    expect(extendedEndDate(paidAt, paidAt, 12).toISOString()).toBe("2027-11-23T10:00:00.000Z");
  });
  it("addDays adds whole days", () => {
    expect(addDays(paidAt, 7).toISOString()).toBe("2026-11-30T10:00:00.000Z");
  });
});
