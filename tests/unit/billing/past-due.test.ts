import { describe, expect, it } from "vitest";
import { getLicenseDisplayStatus, type LicenseFacts } from "~/domain/license-status";
import {
  accessEndsAt,
  declineReasonOf,
  failedAttemptsOf,
  graceEndsAt,
  isInGracePeriod,
  nextPaymentState,
  PAST_DUE_GRACE_DAYS,
  type PaymentState,
} from "~/domain/past-due";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe("the grace period of a past-due license (decision 0023)", () => {
  it("is 14 days after the end date, only while past due", () => {
    expect(PAST_DUE_GRACE_DAYS).toBe(14);
    expect(graceEndsAt({ end_date: NOW, past_due_since: NOW })).toEqual(at(14 * DAY));
    expect(graceEndsAt({ end_date: NOW, past_due_since: null })).toBeNull();
    expect(graceEndsAt({ end_date: NOW.toISOString(), past_due_since: NOW.toISOString() })).toEqual(at(14 * DAY));
  });
  it("access ends at the end date when paid up, at the grace end when past due", () => {
    expect(accessEndsAt({ end_date: NOW })).toEqual(NOW);
    expect(accessEndsAt({ end_date: NOW, past_due_since: at(-DAY) })).toEqual(at(14 * DAY));
  });
  it("a license is in its grace period from the end date until the grace end", () => {
    const license = { end_date: at(-DAY), past_due_since: at(-DAY) };
    expect(isInGracePeriod(license, NOW)).toBe(true);
    expect(isInGracePeriod(license, at(-2 * DAY))).toBe(false);
    expect(isInGracePeriod(license, at(13 * DAY))).toBe(false);
    expect(isInGracePeriod({ end_date: at(-DAY), past_due_since: null }, NOW)).toBe(false);
  });
});

describe("the payment state follows the newest payment event", () => {
  const paid: PaymentState = { past_due_since: null, payment_state_at: null };
  it("a failure marks the license past due from that moment", () => {
    expect(nextPaymentState(paid, { kind: "failed", at: NOW })).toEqual({ past_due_since: NOW, payment_state_at: NOW });
  });
  it("a retry that fails again keeps the first failure's time", () => {
    const pastDue = { past_due_since: NOW, payment_state_at: NOW };
    expect(nextPaymentState(pastDue, { kind: "failed", at: at(DAY) })).toEqual({
      past_due_since: NOW,
      payment_state_at: at(DAY),
    });
  });
  it("a later successful payment clears it", () => {
    const pastDue = { past_due_since: NOW, payment_state_at: NOW };
    expect(nextPaymentState(pastDue, { kind: "settled", at: at(1000) })).toEqual({
      past_due_since: null,
      payment_state_at: at(1000),
    });
  });
  it("an event not newer than the last one applied changes nothing (delivery order is not trusted)", () => {
    const recovered = { past_due_since: null, payment_state_at: at(DAY) };
    expect(nextPaymentState(recovered, { kind: "failed", at: NOW })).toBeNull();
    expect(nextPaymentState(recovered, { kind: "failed", at: at(DAY) })).toBeNull();
    const pastDue = { past_due_since: NOW, payment_state_at: at(DAY) };
    expect(nextPaymentState(pastDue, { kind: "settled", at: NOW })).toBeNull();
  });
});

describe("the display status of a past-due license", () => {
  const base: LicenseFacts = {
    license_type: "monthly",
    status: "active",
    end_date: at(-DAY),
    is_trial: false,
    trial_ends_at: null,
    auto_renew: true,
    cancellation_requested: false,
    has_subscription: true,
    refunded: false,
    refund_eligible_until: null,
  };
  it("is active until the grace end during the grace period", () => {
    expect(getLicenseDisplayStatus({ ...base, past_due_since: at(-DAY) }, NOW)).toEqual({
      kind: "active",
      label: "Active",
      detail: "until",
      date: at(13 * DAY),
    });
  });
  it("is expired on its end date once the grace period is over", () => {
    expect(getLicenseDisplayStatus({ ...base, past_due_since: at(-DAY) }, at(14 * DAY))).toEqual({
      kind: "expired",
      label: "Expired",
      date: at(-DAY),
    });
  });
  it("keeps its end date while that is still ahead", () => {
    expect(getLicenseDisplayStatus({ ...base, end_date: at(DAY), past_due_since: NOW }, NOW)).toMatchObject({
      kind: "active",
      date: at(DAY),
    });
  });
  it("a paid-up license past its end date is expired as before", () => {
    expect(getLicenseDisplayStatus(base, NOW).kind).toBe("expired");
  });
});

describe("declineReasonOf: the provider's reason from a stored failure event", () => {
  it("reads the first attempt's error code, readable; null when none is named", () => {
    const event = (payments: unknown) => ({ data: { id: "txn_1", payments } });
    expect(declineReasonOf(event([{ status: "error", error_code: "insufficient_funds" }]))).toBe("insufficient funds");
    expect(declineReasonOf(event([{ status: "error" }, { status: "error", error_code: "declined" }]))).toBe("declined");
    expect(declineReasonOf(event([{ status: "error", error_code: "<b>nope</b>" }]))).toBeNull();
    expect(declineReasonOf(event([]))).toBeNull();
    expect(declineReasonOf(event(undefined))).toBeNull();
    expect(declineReasonOf(null)).toBeNull();
  });
});

describe("failedAttemptsOf: how often the provider tried a charge, from a stored failure event", () => {
  const event = (payments: unknown) => ({ data: { id: "txn_1", payments } });
  it("counts the declined attempts and finds the newest, in any order", () => {
    const payments = [
      { status: "error", created_at: "2026-06-10T08:00:00Z" },
      { status: "error", created_at: "2026-06-13T08:00:00Z" },
      { status: "error", created_at: "2026-06-11T08:00:00Z" },
    ];
    expect(failedAttemptsOf(event(payments))).toEqual({ count: 3, lastAt: new Date("2026-06-13T08:00:00Z") });
  });
  it("leaves out attempts that did not fail, and dates that are not dates", () => {
    const payments = [
      { status: "captured", created_at: "2026-06-14T08:00:00Z" },
      { status: "error", created_at: "not a date" },
      { status: "error" },
      { status: "error", created_at: "2026-06-12T08:00:00Z" },
    ];
    expect(failedAttemptsOf(event(payments))).toEqual({ count: 3, lastAt: new Date("2026-06-12T08:00:00Z") });
  });
  it("is none for a payload without attempts", () => {
    expect(failedAttemptsOf(event([]))).toEqual({ count: 0, lastAt: null });
    expect(failedAttemptsOf(event("x"))).toEqual({ count: 0, lastAt: null });
    expect(failedAttemptsOf(null)).toEqual({ count: 0, lastAt: null });
  });
});
