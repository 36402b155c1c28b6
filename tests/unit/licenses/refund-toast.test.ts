import { describe, expect, it } from "vitest";
import { LICENSE_TOASTS } from "~/domain/license-texts";
import { totalsOf } from "~/domain/refund-ledger";

describe("the refund request's toast names each currency's total on its own (decision 0072)", () => {
  it("a plan in US dollars: one amount", () => {
    const totals = totalsOf([{ currency: "USD", paidCents: 900, refundCents: 855 }]);
    expect(LICENSE_TOASTS.refundRequested(totals).description).toBe(
      "A refund of $8.55 was requested. It usually takes a few days to reach your card.",
    );
  });

  it("a euro plan with two US-dollar extensions: euros + dollars, never one sum of both", () => {
    const totals = totalsOf([
      { currency: "EUR", paidCents: 9999, refundCents: 9500 },
      { currency: "USD", paidCents: 900, refundCents: 855 },
      { currency: "USD", paidCents: 900, refundCents: 855 },
    ]);
    expect(totals).toEqual([
      { currency: "EUR", paidCents: 9999, refundCents: 9500 },
      { currency: "USD", paidCents: 1800, refundCents: 1710 },
    ]);
    expect(LICENSE_TOASTS.refundRequested(totals).description).toBe(
      "A refund of €95.00 + $17.10 was requested. It usually takes a few days to reach your card.",
    );
  });
});
