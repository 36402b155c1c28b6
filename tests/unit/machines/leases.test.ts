import { describe, expect, it } from "vitest";
import {
  isLeaseLive,
  LEASE_TEXTS,
  LEASE_TTL_DEFAULT_MINUTES,
  LEASE_TTL_MAX_MINUTES,
  LEASE_TTL_MIN_MINUTES,
  leaseDecision,
  leaseEndsAt,
  nextLeaseEnd,
  readLeaseTtl,
} from "~/domain/leases";
import { floatingLeasesLine, floatingLeasesOf, LICENSE_TYPES, licenseKindRow, PLANS } from "~/domain/plans";

// Floating leases' pure rules (decision 0069): the time to live's bounds, the limit decision, expiry.

const NOW = new Date("2026-11-28T12:00:00Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

describe("a lease's time to live", () => {
  it("is 20 minutes when not sent, or the fallback given (a heartbeat keeps the lease's own)", () => {
    expect(LEASE_TTL_DEFAULT_MINUTES).toBe(20);
    expect(readLeaseTtl(undefined)).toEqual({ ok: true, minutes: 20 });
    expect(readLeaseTtl(null)).toEqual({ ok: true, minutes: 20 });
    expect(readLeaseTtl(undefined, 45)).toEqual({ ok: true, minutes: 45 });
  });

  it("takes every whole number of minutes from 1 to 1440", () => {
    expect([LEASE_TTL_MIN_MINUTES, LEASE_TTL_MAX_MINUTES]).toEqual([1, 1440]);
    for (const n of [1, 2, 20, 60, 1439, 1440]) expect(readLeaseTtl(n)).toEqual({ ok: true, minutes: n });
  });

  it("refuses anything else rather than clamping it", () => {
    for (const bad of [0, -1, 1441, 10_080, 1.5, Number.NaN, Infinity, "20", true, [], {}])
      expect(readLeaseTtl(bad), String(bad)).toEqual({ ok: false });
  });

  it("ends its minutes after it was taken or heartbeated", () => {
    expect(leaseEndsAt(NOW, 20)).toEqual(minutes(20));
    expect(leaseEndsAt(NOW, 1440)).toEqual(minutes(1440));
  });
});

describe("the lease limit", () => {
  it("refuses every lease of a plan without floating use", () => {
    expect(leaseDecision([], "a", 0)).toBe("no-floating");
    expect(leaseDecision(["a"], "a", 0)).toBe("no-floating");
  });

  it("lends while fewer than the limit are live, and not one more", () => {
    expect(leaseDecision([], "a", 1)).toBe("take");
    expect(leaseDecision(["a"], "b", 1)).toBe("full");
    expect(leaseDecision(["a", "b"], "c", 3)).toBe("take");
    expect(leaseDecision(["a", "b", "c"], "d", 3)).toBe("full");
    expect(leaseDecision(["a", "b", "c", "d"], "e", 3)).toBe("full");
  });

  it("renews the lease a machine holds already, full or not, without using a second", () => {
    expect(leaseDecision(["a"], "a", 1)).toBe("renew");
    expect(leaseDecision(["a", "b", "c"], "b", 3)).toBe("renew");
  });
});

describe("expiry by the clock", () => {
  it("a lease counts until its end, not at it", () => {
    expect(isLeaseLive({ expires_at: minutes(1) }, NOW)).toBe(true);
    expect(isLeaseLive({ expires_at: NOW }, NOW)).toBe(false);
    expect(isLeaseLive({ expires_at: minutes(-1).toISOString() }, NOW)).toBe(false);
  });

  it("the next lease to be free is the earliest live one's end", () => {
    expect(nextLeaseEnd([], NOW)).toBeNull();
    expect(nextLeaseEnd([{ expires_at: minutes(-5) }], NOW)).toBeNull();
    expect(nextLeaseEnd([{ expires_at: minutes(30) }, { expires_at: minutes(5).toISOString() }], NOW)).toEqual(
      minutes(5),
    );
  });
});

describe("the plan table's floating leases", () => {
  it("Yearly lends 3, a trial and a tester license 1, Monthly and 6 Months none", () => {
    expect(Object.fromEntries(LICENSE_TYPES.map((type) => [type, floatingLeasesOf(type)]))).toEqual({
      monthly: 0,
      "6_months": 0,
      yearly: 3,
      trial: 1,
      tester: 1,
    });
  });

  it("a trial of any plan has the trial's; a type the table does not know has none", () => {
    expect(floatingLeasesOf("monthly", true)).toBe(licenseKindRow("trial").floatingLeases);
    expect(floatingLeasesOf("lifetime")).toBe(0);
  });

  it("the card's line counts leases in use against the limit", () => {
    expect(LEASE_TEXTS.inUse(0, 3)).toBe("0 of 3 floating leases in use");
    expect(LEASE_TEXTS.inUse(1, 1)).toBe("1 of 1 floating lease in use");
  });
});

describe("the pricing page's floating lease line", () => {
  it("says each plan's limit from the plan table, and nothing for a plan without floating use", () => {
    const lines = Object.fromEntries(PLANS.map((plan) => [plan.id, floatingLeasesLine(plan.floatingLeases)]));
    expect(lines).toEqual({ monthly: null, "6_months": null, yearly: "3 floating leases for build servers" });
    expect(floatingLeasesLine(1)).toBe("1 floating lease for build servers");
    expect(floatingLeasesLine(0)).toBeNull();
    expect(floatingLeasesLine(-1)).toBeNull();
  });
});
