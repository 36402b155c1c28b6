import { describe, expect, it } from "vitest";
import { planOfReturnTo } from "~/domain/return-to";
import {
  chosenPlanSummary,
  parseTeamSeats,
  pricingWithTeam,
  registerForTeam,
  TEAM_SEATS_ERROR,
  teamToOpen,
  teamTotalCents,
  teamTotalLine,
} from "~/domain/team-pricing";

/** The pricing page's team offer (decision 0047): 2–100 seats, the total, the choice kept in the address. */
describe("team pricing", () => {
  it("takes a whole number of seats from 2 to 100 and nothing else", () => {
    expect(parseTeamSeats("2")).toBe(2);
    expect(parseTeamSeats(" 100 ")).toBe(100);
    for (const bad of ["1", "0", "101", "-3", "2.5", "1e1", "", "abc", "0x10", "1000"])
      expect(parseTeamSeats(bad), bad).toBeNull();
    expect(parseTeamSeats(null)).toBeNull();
    expect(parseTeamSeats(5)).toBeNull();
    expect(TEAM_SEATS_ERROR).toBe("Choose between 2 and 100 seats.");
  });

  it("prices every seat at the plan's price", () => {
    expect(teamTotalCents("yearly", 5)).toBe(45_000);
    expect(teamTotalCents("6_months", 3)).toBe(14_850);
    expect(teamTotalLine("yearly", 5)).toBe("5 seats × $90 = $450 per year");
    expect(teamTotalLine("6_months", 3)).toBe("3 seats × $49.50 = $148.50 every 6 months");
    expect(teamTotalLine("monthly", 100)).toBe("100 seats × $9 = $900 per month");
  });

  it("says the total in the currency the page priced a seat in", () => {
    expect(teamTotalLine("yearly", 5, { amountMinor: 9999, currency: "EUR" })).toBe(
      "5 seats × €99.99 = €499.95 per year",
    );
    expect(teamTotalLine("monthly", 3, { amountMinor: 1400, currency: "JPY" })).toBe(
      "3 seats × ¥1,400 = ¥4,200 per month",
    );
    expect(teamTotalLine("monthly", 2, { amountMinor: 900, currency: "USD" })).toBe(teamTotalLine("monthly", 2));
  });

  it("keeps the choice through the address and registration", () => {
    expect(pricingWithTeam("yearly", 5)).toBe("/pricing?plan=yearly&seats=5");
    expect(registerForTeam("monthly", 3)).toBe("/register?redirectTo=%2Fpricing%3Fplan%3Dmonthly%26seats%3D3");
    expect(planOfReturnTo(pricingWithTeam("monthly", 3))).toBe("monthly");
    expect(teamToOpen(new URLSearchParams("plan=yearly&seats=5"))).toEqual({ planId: "yearly", seats: 5 });
    expect(teamToOpen(new URLSearchParams("plan=yearly&seats=1"))).toBeNull();
    expect(teamToOpen(new URLSearchParams("plan=weekly&seats=5"))).toBeNull();
    expect(teamToOpen(new URLSearchParams("plan=yearly"))).toBeNull();
  });
});

describe("the plan /register names (chosenPlanSummary)", () => {
  it("names a team's seats and their total, without a trial; one person's plan with its trial", () => {
    expect(chosenPlanSummary("/pricing?plan=monthly&seats=3")).toEqual({
      name: "Monthly for 3 seats",
      price: "3 seats × $9 = $27 per month",
      trial: false,
    });
    expect(chosenPlanSummary("/pricing?plan=monthly")).toEqual({ name: "Monthly", price: "$9 per month", trial: true });
    expect(chosenPlanSummary("/pricing?plan=lifetime&seats=3")).toBeNull();
    expect(chosenPlanSummary("/licenses?plan=monthly")).toBeNull();
    expect(chosenPlanSummary(null)).toBeNull();
  });
});
