import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LicenseStateFacts } from "~/domain/license-state";
import { refundNote } from "~/domain/refund-note";
import {
  adjustmentEventWins,
  licenseRefundOutcome,
  paymentRefundAmounts,
  refundComplete,
  type AdjustmentStatus,
  type SettledPayment,
} from "~/domain/refund-state";
import { checkStaffRefund, staffRefundChoices, staffRefundable, STAFF_REFUND_TEXTS } from "~/domain/staff-refund";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

describe("adjustmentEventWins: the newest event by its time, further along at the same time", () => {
  it.each([
    [{ status: null, at: null }, "pending_approval", 0, true],
    [{ status: "pending_approval", at: at(0) }, "approved", 1, true],
    [{ status: "approved", at: at(1) }, "pending_approval", 0, false],
    [{ status: "rejected", at: at(1) }, "pending_approval", 0, false],
    [{ status: "pending_approval", at: at(0) }, "approved", 0, true],
    [{ status: "approved", at: at(0) }, "pending_approval", 0, false],
    [{ status: "approved", at: at(0) }, "approved", 0, true],
  ] as const)("%j then %s at day %i → %s", (stored, status, day, wins) => {
    expect(adjustmentEventWins(stored, { status, at: at(day) })).toBe(wins);
  });
});

describe("paymentRefundAmounts", () => {
  const base = { amount_cents: 900, refunded_cents: 0, refund_cents: 855, refund_request: null } as const;
  it.each([
    ["approved", null, [855, 0]],
    ["pending_approval", null, [0, 855]],
    ["pending_approval", "requested", [0, 855]],
    ["pending_approval", "requesting", [0, 0]],
    ["pending_approval", "abandoned", [0, 0]],
    ["approved", "abandoned", [855, 0]],
    ["rejected", "requested", [0, 0]],
    ["reversed", null, [0, 0]],
  ] as const)("%s, request %s → refunded and pending %j", (status, request, [refunded, pending]) => {
    expect(paymentRefundAmounts({ ...base, refund_status: status, refund_request: request })).toEqual({
      refunded_cents: refunded,
      pending_refund_cents: pending,
    });
  });
  it("no adjustment reported: the payment keeps what it has; never more than was paid", () => {
    expect(paymentRefundAmounts({ ...base, refund_status: null })).toBeNull();
    expect(paymentRefundAmounts({ ...base, refund_cents: 5000, refund_status: "approved" })?.refunded_cents).toBe(900);
  });
});

describe("licenseRefundOutcome: the license from all its payments", () => {
  const active = { status: "active", refunded: false, refund_amount: null, refunded_at: null };
  const p = (status: AdjustmentStatus | null, refunded = 0, pending = 0, day = 0): SettledPayment => ({
    refund_status: status,
    refunded_cents: refunded,
    pending_refund_cents: pending,
    refund_status_at: status ? at(day) : null,
  });
  it("any approval: refunded, the amount of every payment, the latest approval's date", () => {
    expect(
      licenseRefundOutcome(active, [p("approved", 855, 0, 1), p("pending_approval", 0, 855), p("approved", 855, 0, 2)]),
    ).toEqual({
      status: "refunded",
      refunded: true,
      refund_amount: 1710,
      refunded_at: at(2),
    });
  });
  it("pending → refund requested; none left → active again; nothing → unchanged", () => {
    expect(licenseRefundOutcome(active, [p("pending_approval", 0, 855), p(null)])?.status).toBe("refund_requested");
    expect(licenseRefundOutcome({ ...active, status: "refund_requested" }, [p("rejected")])?.status).toBe("active");
    expect(licenseRefundOutcome(active, [p("rejected"), p(null)])).toBeNull();
  });
  it("a revoked license stays revoked; one refunded before per-payment adjustments stays refunded", () => {
    expect(licenseRefundOutcome({ ...active, status: "revoked" }, [p("approved", 855)])).toBeNull();
    const old = { status: "refunded", refunded: true, refund_amount: 855, refunded_at: at(-3) };
    expect(licenseRefundOutcome(old, [p(null), p("rejected")])).toBeNull();
  });
  it("property: the outcome depends on the set of payments, not their order", () => {
    const paymentArb = fc.record({
      status: fc.constantFrom<AdjustmentStatus | null>(null, "pending_approval", "approved", "rejected"),
      cents: fc.integer({ min: 1, max: 10_000 }),
      day: fc.integer({ min: -10, max: 10 }),
    });
    fc.assert(
      fc.property(fc.array(paymentArb, { maxLength: 6 }), (raw) => {
        const settled = raw.map((r) =>
          p(r.status, r.status === "approved" ? r.cents : 0, r.status === "pending_approval" ? r.cents : 0, r.day),
        );
        expect(licenseRefundOutcome(active, [...settled].reverse())).toEqual(licenseRefundOutcome(active, settled));
      }),
    );
  });
  it("refundComplete: refunded, nothing pending, nothing still being asked", () => {
    const done = { ...p("approved", 855), refund_request: "requested" as const };
    expect(refundComplete({ refunded: true }, [done])).toBe(true);
    expect(refundComplete({ refunded: true }, [done, { ...p("pending_approval", 0, 855), refund_request: null }])).toBe(
      false,
    );
    expect(refundComplete({ refunded: true }, [done, { ...p(null), refund_request: "requesting" }])).toBe(false);
    expect(refundComplete({ refunded: false }, [done])).toBe(false);
  });
});

describe("refundNote: why a license card offers no refund", () => {
  const license: LicenseStateFacts = {
    license_type: "monthly",
    status: "active",
    end_date: at(20),
    is_trial: false,
    trial_ends_at: null,
    auto_renew: true,
    cancellation_requested: false,
    has_subscription: true,
    refunded: false,
    refund_eligible_until: at(5),
  };
  it.each([
    ["refundable", {}, null],
    ["window passed", { refund_eligible_until: at(-1) }, "No refund: the 14-day refund window ended on Jun 14, 2026."],
    ["trial (its trial section says what happens)", { is_trial: true, trial_ends_at: at(3) }, null],
    ["tester", { license_type: "tester", has_subscription: false }, "No refund: tester licenses are free."],
    ["expired (the ended note says so)", { end_date: at(-1) }, null],
    ["not bought here", { refund_eligible_until: null }, "No refund: this license was not bought on this site."],
    ["revoked (the card says so)", { status: "revoked" }, null],
    ["refund requested (the card says so)", { status: "refund_requested" }, null],
    ["refunded (the card says so)", { status: "refunded", refunded: true }, null],
  ])("%s", (_name, change, note) => {
    expect(refundNote({ ...license, ...change }, NOW)).toBe(note);
  });
});

describe("staff refund rules", () => {
  const payment = {
    amount_cents: 900,
    currency: "USD",
    refunded_cents: 0,
    pending_refund_cents: 0,
    refund_request: null,
  };
  it("offers the policy amount and the full amount", () => {
    expect(staffRefundChoices(payment).map((c) => c.cents)).toEqual([855, 900]);
  });
  it.each([
    [
      { amount: "855", reason: "day 20" },
      { ok: true, amountCents: 855, full: false, reason: "day 20" },
    ],
    [
      { amount: "900", reason: " twice " },
      { ok: true, amountCents: 900, full: true, reason: "twice" },
    ],
    [
      { amount: "855", reason: "  " },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.reasonRequired },
    ],
    [
      { amount: "855", reason: null },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.reasonRequired },
    ],
    [
      { amount: "855", reason: "x".repeat(501) },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.reasonTooLong },
    ],
    [
      { amount: "901", reason: "x" },
      { ok: false, status: 400, message: "The refund cannot be more than was paid ($9.00)." },
    ],
    [
      { amount: "0", reason: "x" },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.badAmount },
    ],
    [
      { amount: "8.55", reason: "x" },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.badAmount },
    ],
    [
      { amount: null, reason: "x" },
      { ok: false, status: 400, message: STAFF_REFUND_TEXTS.badAmount },
    ],
  ])("%j", (input, expected) => {
    expect(checkStaffRefund(payment, input)).toMatchObject(expected);
  });
  it("a payment refunded, pending or being refunded, or free, is refused with 409", () => {
    for (const touched of [
      { refunded_cents: 855 },
      { pending_refund_cents: 855 },
      { refund_request: "requesting" },
      { refund_request: "requested" },
    ]) {
      expect(staffRefundable({ ...payment, ...touched })).toBe(false);
      expect(checkStaffRefund({ ...payment, ...touched }, { amount: "855", reason: "x" })).toMatchObject({
        ok: false,
        status: 409,
        message: STAFF_REFUND_TEXTS.alreadyRefunded,
      });
    }
    expect(staffRefundable({ ...payment, refund_request: "abandoned" })).toBe(true);
    expect(checkStaffRefund({ ...payment, amount_cents: 0 }, { amount: "1", reason: "x" })).toMatchObject({
      status: 409,
      message: STAFF_REFUND_TEXTS.nothingPaid,
    });
  });
});
