import { describe, expect, it } from "vitest";
import {
  canCancelRenewal,
  canReenableRenewal,
  getLicenseDisplayStatus,
  hasSubscriptionSection,
  isRefundEligible,
  isRefundLocked,
  licenseRefundCents,
  type LicenseFacts,
} from "~/domain/license-status";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);
const DAY = 86_400_000;

const base: LicenseFacts = {
  license_type: "monthly",
  status: "active",
  end_date: at(10 * DAY),
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: at(5 * DAY),
};
const license = (change: Partial<LicenseFacts>): LicenseFacts => ({ ...base, ...change });

describe("display status", () => {
  it("revoked wins over everything", () => {
    expect(
      getLicenseDisplayStatus(license({ status: "revoked", is_trial: true, trial_ends_at: at(DAY) }), NOW).kind,
    ).toBe("revoked");
  });
  it("a trial is active with its trial-until date before the trial end", () => {
    expect(getLicenseDisplayStatus(license({ is_trial: true, trial_ends_at: at(1000) }), NOW)).toEqual({
      kind: "trial-active",
      label: "Active",
      detail: "trial until",
      date: at(1000),
    });
  });
  it("a trial is Trial Expired from exactly its trial end on", () => {
    expect(getLicenseDisplayStatus(license({ is_trial: true, trial_ends_at: NOW }), NOW).kind).toBe("trial-expired");
    expect(getLicenseDisplayStatus(license({ is_trial: true, trial_ends_at: at(-1) }), NOW).label).toBe(
      "Trial Expired",
    );
  });
  it("a trial without a trial end date follows the end date", () => {
    expect(getLicenseDisplayStatus(license({ is_trial: true, trial_ends_at: null }), NOW).kind).toBe("active");
  });
  it("active: renews at when auto-renewing, until otherwise", () => {
    expect(getLicenseDisplayStatus(base, NOW)).toMatchObject({ kind: "active", detail: "renews at" });
    expect(getLicenseDisplayStatus(license({ auto_renew: false }), NOW)).toMatchObject({
      kind: "active",
      detail: "until",
    });
  });
  it("expired from exactly the end date on", () => {
    expect(getLicenseDisplayStatus(license({ end_date: NOW }), NOW).kind).toBe("expired");
    expect(getLicenseDisplayStatus(license({ end_date: at(1) }), NOW).kind).toBe("active");
  });
  it("accepts ISO strings", () => {
    expect(getLicenseDisplayStatus(license({ end_date: at(DAY).toISOString() }), NOW).kind).toBe("active");
  });
});

describe("refund eligibility", () => {
  it("is eligible while active, paid, and before refund_eligible_until", () => {
    expect(isRefundEligible(base, NOW)).toBe(true);
  });
  it("at the last millisecond of the window, yes; at its end, no", () => {
    expect(isRefundEligible(license({ refund_eligible_until: at(1) }), NOW)).toBe(true);
    expect(isRefundEligible(license({ refund_eligible_until: NOW }), NOW)).toBe(false);
  });
  it.each([
    ["expired", { end_date: at(-1) }],
    ["refunded", { refunded: true }],
    ["refund requested", { status: "refund_requested" }],
    ["revoked", { status: "revoked" }],
    ["trial", { is_trial: true, trial_ends_at: at(DAY) }],
    ["trial type", { license_type: "trial" }],
    ["tester", { license_type: "tester" }],
    ["no window", { refund_eligible_until: null }],
  ] as const)("not when %s", (_name, change) => {
    expect(isRefundEligible(license(change as Partial<LicenseFacts>), NOW)).toBe(false);
  });
  it("refunds 95% of the plan price, rounded up to the cent", () => {
    expect(licenseRefundCents({ license_type: "monthly" })).toBe(855);
    expect(licenseRefundCents({ license_type: "6_months" })).toBe(4703);
    expect(licenseRefundCents({ license_type: "yearly" })).toBe(8550);
    expect(licenseRefundCents({ license_type: "tester" })).toBeNull();
  });
  it("refunded and refund-requested licenses hide key and offline data", () => {
    expect(isRefundLocked({ status: "refund_requested", refunded: false })).toBe(true);
    expect(isRefundLocked({ status: "refunded", refunded: true })).toBe(true);
    expect(isRefundLocked({ status: "active", refunded: true })).toBe(true);
    expect(isRefundLocked({ status: "active", refunded: false })).toBe(false);
  });
});

describe("auto-renewal", () => {
  it("cancel needs auto-renew, no request yet, and a subscription id", () => {
    expect(canCancelRenewal(base)).toBe(true);
    expect(canCancelRenewal(license({ auto_renew: false }))).toBe(false);
    expect(canCancelRenewal(license({ cancellation_requested: true }))).toBe(false);
    expect(canCancelRenewal(license({ has_subscription: false }))).toBe(false);
  });
  it("re-enable needs a requested cancellation", () => {
    expect(canReenableRenewal(license({ cancellation_requested: true, auto_renew: false }))).toBe(true);
    expect(canReenableRenewal(base)).toBe(false);
  });
  it("tester and trial licenses have no subscription section", () => {
    expect(hasSubscriptionSection({ license_type: "tester", is_trial: false, has_subscription: false })).toBe(false);
    expect(hasSubscriptionSection({ license_type: "trial", is_trial: true, has_subscription: false })).toBe(false);
    expect(hasSubscriptionSection({ license_type: "trial", is_trial: true, has_subscription: true })).toBe(false);
    expect(hasSubscriptionSection({ license_type: "monthly", is_trial: true, has_subscription: false })).toBe(false);
    expect(hasSubscriptionSection({ license_type: "yearly", is_trial: false, has_subscription: false })).toBe(true);
  });

  it("a plan bought with the 7-day trial keeps its subscription section, so it can be cancelled before it bills", () => {
    expect(hasSubscriptionSection({ license_type: "monthly", is_trial: true, has_subscription: true })).toBe(true);
  });
});
