import { describe, expect, it } from "vitest";
import {
  DEFAULT_MACHINE_LIMITS,
  deactivationAllowance,
  FINGERPRINT_MAX_LENGTH,
  FINGERPRINT_MIN_LENGTH,
  inactiveBefore,
  isFingerprint,
  isInactive,
  machineLimitFor,
  machinesPhrase,
  parseMachineLimits,
  seatDecision,
  shouldRecordSeen,
  countsTowardLimit,
  DEACTIVATION_SOURCES,
} from "~/domain/machines";
import { licenseCoverage, MACHINE_TEXTS } from "~/domain/machine-texts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-11-24T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

describe("fingerprints", () => {
  it("are 16 to 128 printable ASCII characters without spaces", () => {
    expect(isFingerprint("a".repeat(FINGERPRINT_MIN_LENGTH))).toBe(true);
    expect(isFingerprint("a".repeat(FINGERPRINT_MAX_LENGTH))).toBe(true);
    expect(isFingerprint("f".repeat(64))).toBe(true);
    expect(isFingerprint("a".repeat(FINGERPRINT_MIN_LENGTH - 1))).toBe(false);
    expect(isFingerprint("a".repeat(FINGERPRINT_MAX_LENGTH + 1))).toBe(false);
    for (const bad of ["with a space inside ok", "tab\tinside-the-print", "é".repeat(20), "line\nbreak-inside-it"])
      expect(isFingerprint(bad), bad).toBe(false);
    for (const bad of [undefined, null, 42, {}, ["a".repeat(20)]]) expect(isFingerprint(bad)).toBe(false);
  });
});

describe("machines per plan", () => {
  it("defaults to 2, and 1 for a tester license", () => {
    expect(DEFAULT_MACHINE_LIMITS).toEqual({ monthly: 2, "6_months": 2, yearly: 2, trial: 2, tester: 1 });
    expect(parseMachineLimits(undefined)).toEqual({ ok: true, limits: DEFAULT_MACHINE_LIMITS });
    expect(parseMachineLimits(" ")).toEqual({ ok: true, limits: DEFAULT_MACHINE_LIMITS });
  });

  it("MACHINES_PER_PLAN sets plans by name and keeps the others", () => {
    expect(parseMachineLimits("monthly=3, tester = 2,")).toEqual({
      ok: true,
      limits: { ...DEFAULT_MACHINE_LIMITS, monthly: 3, tester: 2 },
    });
    expect(parseMachineLimits("yearly=100").ok).toBe(true);
  });

  it("refuses unknown plans, bad pairs and counts out of 1–100", () => {
    for (const bad of ["weekly=2", "monthly", "monthly=0", "monthly=101", "monthly=-1", "monthly=two", "=2"]) {
      const parsed = parseMachineLimits(bad);
      expect(parsed.ok, bad).toBe(false);
    }
    expect(parseMachineLimits("weekly=2")).toMatchObject({ message: expect.stringContaining("monthly, 6_months") });
  });

  it("a license's limit: its type's, a trial's when it is a trial, the default for an unknown type", () => {
    const limits = { ...DEFAULT_MACHINE_LIMITS, yearly: 5, trial: 1 };
    expect(machineLimitFor(limits, "yearly")).toBe(5);
    expect(machineLimitFor(limits, "yearly", true)).toBe(1);
    expect(machineLimitFor(limits, "tester")).toBe(1);
    expect(machineLimitFor(limits, "lifetime")).toBe(2);
    expect(machinesPhrase(1)).toBe("1 machine");
    expect(machinesPhrase(2)).toBe("2 machines");
    expect(MACHINE_TEXTS.pricingLine(2)).toBe("Use it on 2 machines at once");
  });
});

describe("seats", () => {
  it("the same fingerprint is already active; otherwise a free seat or full", () => {
    expect(seatDecision(["a", "b"], "a", 2)).toBe("already-active");
    expect(seatDecision(["a", "b"], "a", 1)).toBe("already-active");
    expect(seatDecision(["a"], "b", 2)).toBe("seat-free");
    expect(seatDecision([], "b", 1)).toBe("seat-free");
    expect(seatDecision(["a", "b"], "c", 2)).toBe("full");
    expect(seatDecision(["a", "b", "c"], "d", 2)).toBe("full");
  });
});

describe("the self-service deactivation limit", () => {
  it("allows `limit` in any 30 days and says how many are left after this one", () => {
    expect(deactivationAllowance([], 3, NOW)).toEqual({ allowed: true, remainingAfter: 2 });
    expect(deactivationAllowance([ago(1)], 3, NOW)).toEqual({ allowed: true, remainingAfter: 1 });
    expect(deactivationAllowance([ago(1), ago(2)], 3, NOW)).toEqual({ allowed: true, remainingAfter: 0 });
  });

  it("past the limit: the next one when the oldest that must leave the window does", () => {
    const times = [ago(2), ago(10), ago(25)];
    expect(deactivationAllowance(times, 3, NOW)).toEqual({
      allowed: false,
      nextAt: new Date(ago(25).getTime() + 30 * DAY),
    });
    // Four in the window with a limit of 3: two must leave, the second oldest decides.
    expect(deactivationAllowance([ago(1), ...times], 3, NOW)).toEqual({
      allowed: false,
      nextAt: new Date(ago(10).getTime() + 30 * DAY),
    });
    expect(deactivationAllowance([ago(29)], 1, NOW)).toEqual({
      allowed: false,
      nextAt: new Date(ago(29).getTime() + 30 * DAY),
    });
  });

  it("forgets deactivations 30 days old or more (and ignores ones in the future)", () => {
    expect(deactivationAllowance([ago(30), ago(31), ago(40)], 3, NOW)).toEqual({ allowed: true, remainingAfter: 2 });
    expect(deactivationAllowance([ago(29.99), ago(30)], 1, NOW).allowed).toBe(false);
    expect(deactivationAllowance([new Date(NOW.getTime() + DAY)], 1, NOW).allowed).toBe(true);
  });

  it("counts the owner's and the tool's, never an admin's or the inactivity job's", () => {
    expect(DEACTIVATION_SOURCES.filter(countsTowardLimit)).toEqual(["web", "tool"]);
  });

  it("the refusal says when and that support can help", () => {
    expect(MACHINE_TEXTS.limitReached(3, "2026-12-24T00:00:00Z", "help@example.com")).toBe(
      "You have used the 3 deactivations allowed every 30 days for this license. The next one is possible on Dec 24, 2026. Support can help sooner: write to help@example.com.",
    );
  });
});

describe("last seen and inactivity", () => {
  it("records last seen at most once an hour", () => {
    expect(shouldRecordSeen(new Date(NOW.getTime() - 3_600_000), NOW)).toBe(true);
    expect(shouldRecordSeen(new Date(NOW.getTime() - 3_599_999), NOW)).toBe(false);
    expect(shouldRecordSeen(NOW, NOW)).toBe(false);
  });

  it("MACHINE_INACTIVE_AFTER_DAYS unset never releases; set, a machine silent longer is inactive", () => {
    expect(inactiveBefore(NOW, undefined)).toBeNull();
    expect(isInactive(ago(1000), NOW, undefined)).toBe(false);
    expect(inactiveBefore(NOW, 10)).toEqual(ago(10));
    expect(isInactive(ago(10.01), NOW, 10)).toBe(true);
    expect(isInactive(ago(10), NOW, 10)).toBe(false);
    expect(isInactive(ago(9), NOW, 10)).toBe(false);
  });
});

describe("what one license covers", () => {
  it("says the plan cards' machine limit when every paid plan has the same", () => {
    expect(licenseCoverage(DEFAULT_MACHINE_LIMITS)).toBe("One person, on up to 2 Windows computers at once.");
    expect(licenseCoverage({ monthly: 1, "6_months": 1, yearly: 1 })).toBe(
      "One person, on up to 1 Windows computer at once.",
    );
  });

  it("points at the cards when the plans differ", () => {
    expect(licenseCoverage({ monthly: 1, "6_months": 2, yearly: 3 })).toBe(
      "One person, on as many Windows computers at once as the plan's card says.",
    );
  });
});
