import { describe, expect, it } from "vitest";
import { fingerprintRequiredFor, parseFingerprintPlans } from "~/domain/machines";
import { parseEnv } from "~/server/env.server";

// REQUIRE_FINGERPRINT_PLANS: the plans whose desktop API validations must name the machine.

describe("plans validated only with a fingerprint", () => {
  it("reads a list of plans, each once; unset or empty is none (the default)", () => {
    expect(parseFingerprintPlans("monthly, yearly,monthly")).toEqual({ ok: true, plans: ["monthly", "yearly"] });
    expect(parseFingerprintPlans(undefined)).toEqual({ ok: true, plans: [] });
    expect(parseFingerprintPlans(" , ")).toEqual({ ok: true, plans: [] });
    expect(parseEnv({ NODE_ENV: "test" }).REQUIRE_FINGERPRINT_PLANS).toEqual([]);
    expect(parseEnv({ NODE_ENV: "test", REQUIRE_FINGERPRINT_PLANS: "6_months" }).REQUIRE_FINGERPRINT_PLANS).toEqual([
      "6_months",
    ]);
  });

  it("refuses a plan it does not know, naming the ones it does", () => {
    expect(parseFingerprintPlans("monthly,weekly")).toEqual({
      ok: false,
      message: '"weekly" is not one of monthly, 6_months, yearly, trial, tester',
    });
    expect(() => parseEnv({ NODE_ENV: "test", REQUIRE_FINGERPRINT_PLANS: "weekly" })).toThrow(/weekly/);
  });

  it("a trial counts as the trial plan, whatever its license type", () => {
    expect(fingerprintRequiredFor(["monthly"], "monthly")).toBe(true);
    expect(fingerprintRequiredFor(["monthly"], "monthly", true)).toBe(false);
    expect(fingerprintRequiredFor(["trial"], "monthly", true)).toBe(true);
    expect(fingerprintRequiredFor([], "yearly")).toBe(false);
  });
});
