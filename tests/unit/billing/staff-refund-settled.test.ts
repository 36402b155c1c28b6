import { describe, expect, it } from "vitest";
import { checkStaffRefund, STAFF_REFUND_TEXTS, staffRefundable } from "~/domain/staff-refund";

/** Support refunds only what was paid: a failed renewal charge and a charged-back payment are not refundable. */
describe("staffRefundable: only settled payments", () => {
  const paid = { amount_cents: 900, currency: "USD", refunded_cents: 0, pending_refund_cents: 0, refund_request: null };

  it("a paid payment is refundable", () => {
    expect(staffRefundable(paid)).toBe(true);
    expect(staffRefundable({ ...paid, status: "paid" })).toBe(true);
  });

  it("a renewal charge that failed (the admin page's failed row) is not listed", () => {
    expect(staffRefundable({ ...paid, status: "failed" })).toBe(false);
  });

  it("a charged-back payment is refused with its own reason", () => {
    const charged = { ...paid, dispute_status: "charged_back" };
    expect(staffRefundable(charged)).toBe(false);
    expect(checkStaffRefund(charged, { amount: "900", reason: "asked" })).toEqual({
      ok: false,
      status: 409,
      message: STAFF_REFUND_TEXTS.chargedBack,
    });
    expect(staffRefundable({ ...paid, dispute_status: "reversed" })).toBe(true);
  });
});
