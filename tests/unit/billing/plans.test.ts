import { describe, expect, it } from "vitest";
import {
  PLANS,
  TRIAL_DAYS,
  formatUsd,
  getPlan,
  isPlanId,
  perMonthCents,
  priceIdFor,
  refundAmountCents,
  savingsPercent,
  type PriceIds,
} from "~/domain/plans";

describe("plan catalogue", () => {
  it("has the three plans at their prices, in order", () => {
    expect(PLANS.map((p) => [p.id, p.priceCents, p.months])).toEqual([
      ["monthly", 900, 1],
      ["6_months", 4950, 6],
      ["yearly", 9000, 12],
    ]);
  });
  it("saves 8% on 6 months and 17% on a year", () => {
    expect(savingsPercent("monthly")).toBe(0);
    expect(savingsPercent("6_months")).toBe(8);
    expect(savingsPercent("yearly")).toBe(17);
  });
  it("shows the per-month equivalent", () => {
    expect(perMonthCents("monthly")).toBe(900);
    expect(perMonthCents("6_months")).toBe(825);
    expect(perMonthCents("yearly")).toBe(750);
  });
  it("offers a 7-day trial", () => {
    expect(TRIAL_DAYS).toBe(7);
  });
});

describe("formatUsd", () => {
  it.each([
    [900, "$9"],
    [4950, "$49.50"],
    [9000, "$90"],
    [825, "$8.25"],
    [5, "$0.05"],
    [0, "$0"],
    [-855, "-$8.55"],
    [108000, "$1,080"],
    [123456789, "$1,234,567.89"],
  ])("%i cents → %s", (cents, text) => {
    expect(formatUsd(cents)).toBe(text);
  });
});

describe("refund amount: 95% of the plan price, rounded up to the cent", () => {
  it.each([
    ["monthly", 855],
    ["6_months", 4703],
    ["yearly", 8550],
  ] as const)("%s → %i cents", (plan, cents) => {
    expect(refundAmountCents(plan)).toBe(cents);
    expect(refundAmountCents(plan)).toBeGreaterThanOrEqual((getPlan(plan).priceCents * 95) / 100);
  });
});

describe("isPlanId", () => {
  it("accepts the three plans only", () => {
    for (const id of ["monthly", "6_months", "yearly"]) expect(isPlanId(id)).toBe(true);
    for (const bad of ["trial", "tester", "Monthly", "", null, undefined, 6]) expect(isPlanId(bad)).toBe(false);
  });
});

describe("price ids: first-time buyers get the trial set", () => {
  const ids: PriceIds = {
    trial: { monthly: "pri_t_m", "6_months": "pri_t_6", yearly: "pri_t_y" },
    regular: { monthly: "pri_r_m", "6_months": "pri_r_6", yearly: "pri_r_y" },
  };
  it.each([
    ["monthly", true, "pri_t_m"],
    ["6_months", true, "pri_t_6"],
    ["yearly", true, "pri_t_y"],
    ["monthly", false, "pri_r_m"],
    ["6_months", false, "pri_r_6"],
    ["yearly", false, "pri_r_y"],
  ] as const)("%s, first-time %s → %s", (plan, firstTimeBuyer, expected) => {
    expect(priceIdFor(plan, { firstTimeBuyer }, ids)).toBe(expected);
  });
});
