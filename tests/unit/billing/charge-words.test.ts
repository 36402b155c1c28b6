import { describe, expect, it } from "vitest";
import {
  failedAttempts,
  refundEntries,
  upcomingCharges,
  type OverviewLicense,
  type RefundablePayment,
} from "~/domain/billing-overview";
import { paymentDescription } from "~/domain/billing";
import { chargeStatus, chargeStatusText, refundPercent, renewalPhrase, renewalText } from "~/domain/charge-words";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

describe("renewalText", () => {
  it("says when and for how much", () => {
    expect(renewalText(new Date("2026-12-23T10:00:00Z"), 900)).toBe("Renews on Dec 23, 2026 for $9.00");
    expect(renewalText("2026-12-23T10:00:00Z", 4950, "EUR")).toBe("Renews on Dec 23, 2026 for €49.50");
    expect(renewalText("2026-12-23T10:00:00Z", null)).toBe("Renews on Dec 23, 2026");
    expect(renewalPhrase("2026-12-23T10:00:00Z", 9000)).toBe("renews on Dec 23, 2026 for $90.00");
  });
});

describe("chargeStatusText: the amount, not 'Partially refunded'", () => {
  const usd = (amount: number, refunded: number, pending = 0) => ({
    amount_cents: amount,
    refunded_cents: refunded,
    pending_refund_cents: pending,
    currency: "USD",
  });
  it.each([
    [usd(900, 0), "paid", "Paid"],
    [usd(900, 855), "partially-refunded", "Refunded $8.55 (95%)"],
    [usd(4950, 4703), "partially-refunded", "Refunded $47.03 (95%)"],
    [usd(9000, 8550), "partially-refunded", "Refunded $85.50 (95%)"],
    [usd(900, 900), "refunded", "Refunded $9.00"],
    [usd(900, 0, 855), "refund-pending", "Refund of $8.55 pending"],
    [usd(0, 0), "paid", "Nothing charged"],
  ])("%o → %s", (payment, status, text) => {
    expect(chargeStatus(payment)).toBe(status);
    expect(chargeStatusText(payment)).toBe(text);
    expect(chargeStatusText(payment)).not.toMatch(/partially/i);
  });

  it("refundPercent never says 100 for a part, nor 0 for nothing paid", () => {
    expect(refundPercent(1000, 999)).toBe(99);
    expect(refundPercent(1000, 1000)).toBe(100);
    expect(refundPercent(1000, 1)).toBe(0);
    expect(refundPercent(0, 0)).toBe(0);
  });
});

const base: OverviewLicense = {
  id: "l1",
  short_id: "FK-AAAA-0001",
  license_type: "monthly",
  status: "active",
  end_date: at(20),
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: at(4),
};
const lic = (id: string, change: Partial<OverviewLicense>): OverviewLicense => ({
  ...base,
  id,
  short_id: `FK-AAAA-${id}`,
  ...change,
});

describe("upcomingCharges", () => {
  it("lists renewals and trials that convert, soonest first, and nothing that will not be charged", () => {
    const list = [
      lic("1", {}),
      lic("2", { license_type: "yearly", end_date: at(3) }),
      lic("3", { is_trial: true, trial_ends_at: at(5), end_date: at(5) }),
      lic("4", { cancellation_requested: true }),
      lic("5", { auto_renew: false }),
      lic("6", { status: "refund_requested" }),
      lic("7", { license_type: "trial", is_trial: true, trial_ends_at: at(5), has_subscription: false }),
      lic("8", { end_date: at(-1), past_due_since: at(-1) }),
      lic("9", { end_date: at(-30) }),
      lic("10", { status: "revoked" }),
    ];
    // A past-due license that still renews: its failed renewal is pending, retried until the grace end.
    expect(upcomingCharges(list, NOW)).toEqual([
      {
        licenseId: "8",
        licenseShortId: "FK-AAAA-8",
        kind: "retry",
        at: NOW.toISOString(),
        retriedUntil: "2026-06-28T12:00:00.000Z",
        amountCents: 900,
        currency: "USD",
        seats: null,
        text: "Due now: $9.00 for the Monthly license FK-AAAA-8 (the failed renewal, retried automatically until Jun 28, 2026)",
      },
      {
        licenseId: "2",
        licenseShortId: "FK-AAAA-2",
        kind: "renewal",
        at: at(3).toISOString(),
        amountCents: 9000,
        currency: "USD",
        seats: null,
        text: "Jun 18, 2026: $90.00 for the Yearly license FK-AAAA-2 (renewal)",
      },
      expect.objectContaining({
        licenseShortId: "FK-AAAA-3",
        kind: "first-charge",
        amountCents: 900,
        text: "Jun 20, 2026: $9.00 for the Monthly license FK-AAAA-3 (first charge after the trial)",
      }),
      expect.objectContaining({ licenseShortId: "FK-AAAA-1", kind: "renewal", at: at(20).toISOString() }),
    ]);
  });
});

describe("failedAttempts", () => {
  it("lists renewals that failed while the license works through its grace period", () => {
    const list = [
      lic("1", { end_date: at(-2), past_due_since: at(-2) }),
      lic("2", {}),
      lic("3", { end_date: at(-30), past_due_since: at(-30) }),
    ];
    expect(failedAttempts(list, NOW)).toEqual([
      {
        licenseId: "1",
        licenseShortId: "FK-AAAA-1",
        since: at(-2).toISOString(),
        graceEndsAt: at(12).toISOString(),
        text: "The renewal of the Monthly license FK-AAAA-1 could not be charged on Jun 13, 2026. It works until Jun 27, 2026 unless a payment goes through.",
      },
    ]);
  });
});

describe("refundEntries", () => {
  const pay = (id: string, change: Partial<RefundablePayment>): RefundablePayment => ({
    id,
    kind: "purchase",
    license_type: "monthly",
    license_short_id: "FK-AAAA-0001",
    billed_at: at(-3).toISOString(),
    amount_cents: 900,
    refunded_cents: 0,
    currency: "USD",
    ...change,
  });

  it("lists pending refunds first, then done ones, each per transaction with its amount", () => {
    const entries = refundEntries([
      pay("txn_paid", {}),
      pay("txn_done", { refunded_cents: 855, billed_at: at(-40).toISOString() }),
      pay("txn_ext", { kind: "extension", pending_refund_cents: 855, billed_at: at(-1).toISOString() }),
      pay("txn_plan", { pending_refund_cents: 855 }),
    ]);
    expect(entries).toEqual([
      {
        transactionId: "txn_ext",
        licenseShortId: "FK-AAAA-0001",
        state: "pending",
        cents: 855,
        currency: "USD",
        text: "Extension of a Monthly license (FK-AAAA-0001): Refund of $8.55 pending",
      },
      expect.objectContaining({ transactionId: "txn_plan", state: "pending" }),
      expect.objectContaining({
        transactionId: "txn_done",
        state: "done",
        cents: 855,
        text: "Monthly license (FK-AAAA-0001): Refunded $8.55 (95%)",
      }),
    ]);
  });
});

describe("a trial's payments read as the trial and the plan's purchase", () => {
  it("names the first paid charge after a free trial as the plan's purchase, later renewals as renewals", () => {
    const renewal = { kind: "renewal" as const, license_type: "monthly", amount_cents: 900 };
    expect(paymentDescription({ ...renewal, first_paid: true })).toBe(
      "Monthly license, first payment after the free trial",
    );
    expect(paymentDescription(renewal)).toBe("Monthly license renewal");
    expect(paymentDescription({ kind: "purchase", license_type: "monthly", amount_cents: 0 })).toBe(
      "Monthly license, free trial",
    );
  });
});
