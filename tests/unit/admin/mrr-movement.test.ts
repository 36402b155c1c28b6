import { describe, expect, it } from "vitest";
import {
  classifyMovement,
  LEAVING_REASON_LABELS,
  leavingByMonth,
  monthLabel,
  movementByMonth,
  netMovement,
  windowMonths,
} from "~/domain/mrr-movement";
import { CANCEL_REASONS } from "~/domain/retention-offer";

const now = new Date("2026-11-28T12:00:00Z");

describe("MRR movement classification", () => {
  it("new and churn by their plan's MRR", () => {
    expect(classifyMovement({ kind: "new", plan: "monthly" })).toEqual({ movement: "new", cents: 900 });
    expect(classifyMovement({ kind: "churn", plan: "yearly" })).toEqual({ movement: "churn", cents: 750 });
    expect(classifyMovement({ kind: "new", plan: "trial" })).toBeNull();
  });
  it("a plan switch is expansion or contraction by the MRR difference", () => {
    // monthly 900 a month, yearly 750 a month: yearly is cheaper per month.
    expect(classifyMovement({ kind: "plan-change", from: "monthly", to: "yearly" })).toEqual({
      movement: "contraction",
      cents: 150,
    });
    expect(classifyMovement({ kind: "plan-change", from: "yearly", to: "monthly" })).toEqual({
      movement: "expansion",
      cents: 150,
    });
    expect(classifyMovement({ kind: "plan-change", from: "yearly", to: "yearly" })).toBeNull();
    expect(classifyMovement({ kind: "plan-change", from: "trial", to: "yearly" })).toBeNull();
  });
  it("sums by month over the window, zero elsewhere", () => {
    expect(windowMonths(now)).toEqual(["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]);
    const months = movementByMonth(
      [
        { month: "2026-11", fact: { kind: "new", plan: "6_months" }, count: 2 },
        { month: "2026-11", fact: { kind: "churn", plan: "monthly" }, count: 1 },
        { month: "2026-10", fact: { kind: "plan-change", from: "yearly", to: "monthly" }, count: 3 },
        { month: "2025-01", fact: { kind: "new", plan: "monthly" }, count: 9 },
      ],
      now,
    );
    expect(months.at(-1)).toEqual({ month: "2026-11", new: 1650, expansion: 0, contraction: 0, churn: 900 });
    expect(months.at(-2)).toEqual({ month: "2026-10", new: 0, expansion: 450, contraction: 0, churn: 0 });
    expect(netMovement(months.at(-1)!)).toBe(750);
    expect(months[0]).toEqual({ month: "2026-06", new: 0, expansion: 0, contraction: 0, churn: 0 });
  });
  it("cancellations by reason and offers taken, by month", () => {
    const months = leavingByMonth(
      [
        { month: "2026-11", reason: "too-expensive", outcome: "declined", count: 2 },
        { month: "2026-11", reason: null, outcome: null, count: 1 },
        { month: "2026-11", reason: "not-using", outcome: "taken", count: 3 },
      ],
      now,
    );
    const nov = months.at(-1)!;
    expect(nov).toMatchObject({ cancellations: 3, offersMade: 5, offersTaken: 3 });
    expect(nov.byReason["too-expensive"]).toBe(2);
    expect(nov.byReason.none).toBe(1);
    expect(nov.byReason["not-using"]).toBe(0);
  });

  it("months are labelled by their short name and year, every reason has a column", () => {
    expect(monthLabel("2026-11")).toBe("Nov 2026");
    expect(monthLabel("2027-01")).toBe("Jan 2027");
    expect(Object.keys(LEAVING_REASON_LABELS).sort()).toEqual([...CANCEL_REASONS, "none"].sort());
  });
});
