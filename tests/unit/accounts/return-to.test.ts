import { describe, expect, it } from "vitest";
import { planOfReturnTo, planToOpen, pricingWithPlan, registerForPlan, withReturnTo } from "~/domain/return-to";
import { safeRedirect } from "~/server/auth/session.server";

describe("carrying where the visitor was going", () => {
  it("adds redirectTo only when there is somewhere to go back to", () => {
    expect(withReturnTo("/login", null)).toBe("/login");
    expect(withReturnTo("/login", "/")).toBe("/login");
    expect(withReturnTo("/login", "/licenses")).toBe("/login?redirectTo=%2Flicenses");
    expect(withReturnTo("/confirm-email?email=a%40b.c", "/licenses")).toBe(
      "/confirm-email?email=a%40b.c&redirectTo=%2Flicenses",
    );
  });

  it("a plan chosen while signed out goes through registration back to its checkout", () => {
    expect(registerForPlan("yearly")).toBe("/register?redirectTo=%2Fpricing%3Fplan%3Dyearly");
    expect(pricingWithPlan("6_months")).toBe("/pricing?plan=6_months");
    // The server follows it: a same-site path.
    expect(safeRedirect(pricingWithPlan("yearly"))).toBe("/pricing?plan=yearly");
  });

  it("reads only a known plan from the pricing page's address", () => {
    expect(planToOpen(new URLSearchParams("plan=monthly"))).toBe("monthly");
    expect(planToOpen(new URLSearchParams("plan=lifetime"))).toBeNull();
    expect(planToOpen(new URLSearchParams(""))).toBeNull();
  });

  it("the register page reads back the plan the visitor chose, and only that", () => {
    const chosen = new URLSearchParams(registerForPlan("6_months").split("?")[1]).get("redirectTo");
    expect(planOfReturnTo(chosen)).toBe("6_months");
    expect(planOfReturnTo("/pricing?plan=yearly&x=1")).toBe("yearly");
    expect(planOfReturnTo("/pricing?plan=lifetime")).toBeNull();
    expect(planOfReturnTo("/licenses?plan=yearly")).toBeNull();
    expect(planOfReturnTo("/pricing")).toBeNull();
    expect(planOfReturnTo(null)).toBeNull();
    expect(planOfReturnTo(undefined)).toBeNull();
  });
});
