import { describe, expect, it } from "vitest";
import type { LicenseStateFacts } from "~/domain/license-state";
import { successWords, type SuccessView } from "~/domain/success-page";
import {
  canChangeTrial,
  firstChargeText,
  paidPlanNow,
  stillConvertingTrials,
  TRIAL_TEXTS,
  trialConversion,
  trialEndText,
} from "~/domain/trial-conversion";

const NOW = new Date("2026-12-16T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

/** A monthly plan bought with the free trial on Dec 16, 2026, converting on Dec 23. */
function trial(
  overrides: Partial<LicenseStateFacts & { short_id: string }> = {},
): LicenseStateFacts & { short_id: string } {
  return {
    short_id: "FK-TRIA-L001",
    license_type: "monthly",
    status: "active",
    end_date: at(7),
    is_trial: true,
    trial_ends_at: at(7),
    auto_renew: true,
    cancellation_requested: false,
    has_subscription: true,
    refunded: false,
    refund_eligible_until: null,
    past_due_since: null,
    ...overrides,
  };
}

describe("a trial that converts says when and how much the first charge is", () => {
  it("a monthly trial: first charge on its trial end, for the plan's price", () => {
    const conversion = trialConversion(trial(), NOW);
    expect(conversion).toEqual({
      state: "converting",
      firstChargeAt: at(7),
      amountCents: 900,
      currency: "USD",
      planName: "Monthly",
      text: "First charge on Dec 23, 2026: $9.00",
    });
    expect(canChangeTrial(trial(), NOW)).toBe(true);
  });

  it("each plan's price: 6 months $49.50, yearly $90.00", () => {
    expect(trialConversion(trial({ license_type: "6_months" }), NOW)).toMatchObject({ amountCents: 4950 });
    expect(trialConversion(trial({ license_type: "yearly" }), NOW)).toMatchObject({
      text: "First charge on Dec 23, 2026: $90.00",
    });
  });

  it("firstChargeText words a date and an amount", () => {
    expect(firstChargeText("2026-12-23T12:00:00.000Z", 4950)).toBe("First charge on Dec 23, 2026: $49.50");
  });
});

describe("a cancelled trial says until when it works and that nothing is charged", () => {
  it("cancellation requested: no first charge, no actions", () => {
    const cancelled = trial({ auto_renew: false, cancellation_requested: true });
    expect(trialConversion(cancelled, NOW)).toEqual({
      state: "cancelled",
      endsAt: at(7),
      planName: "Monthly",
      text: "Trial cancelled: the license works until Dec 23, 2026, then stops. Nothing is charged.",
    });
    expect(canChangeTrial(cancelled, NOW)).toBe(false);
  });
});

describe("no trial actions for any other license", () => {
  const cases: [string, LicenseStateFacts][] = [
    ["a seeded trial without a subscription", trial({ has_subscription: false })],
    ["a trial license type (no plan)", trial({ license_type: "trial", has_subscription: false })],
    ["a trial whose end passed", trial({ trial_ends_at: at(-1), end_date: at(-1) })],
    ["a paid plan renewing", trial({ is_trial: false, trial_ends_at: null, end_date: at(30) })],
    ["a revoked trial", trial({ status: "revoked" })],
    ["a refunded trial", trial({ refunded: true, status: "refunded" })],
    ["a trial with renewal off and no cancellation (tester-like)", trial({ auto_renew: false })],
  ];
  it.each(cases)("%s", (_name, license) => {
    expect(trialConversion(license, NOW)).toBeNull();
    expect(canChangeTrial(license, NOW)).toBe(false);
  });
});

describe("a trial that does not convert says what happens at its end", () => {
  it("a trial license or a trial without a subscription: its key stops, nothing is charged, buy a plan", () => {
    for (const license of [
      trial({ license_type: "trial", has_subscription: false }),
      trial({ has_subscription: false }),
      trial({ auto_renew: false }),
    ])
      expect(trialEndText(license, NOW)).toBe(
        "When the trial ends, its key stops working and nothing is charged. Buy a plan to keep using the tool: offline data comes with it.",
      );
  });

  it("a converting or cancelled trial says its own line; an ended trial or a paid plan none", () => {
    expect(trialEndText(trial(), NOW)).toBeNull();
    expect(trialEndText(trial({ cancellation_requested: true }), NOW)).toBeNull();
    expect(trialEndText(trial({ trial_ends_at: at(-1), end_date: at(-1) }), NOW)).toBeNull();
    expect(trialEndText(trial({ is_trial: false, trial_ends_at: null, end_date: at(30) }), NOW)).toBeNull();
  });
});

describe("starting the paid plan now", () => {
  it("charges the plan's price now and runs one plan period from now", () => {
    expect(paidPlanNow(trial(), NOW)).toEqual({
      amountCents: 900,
      currency: "USD",
      periodEnd: new Date("2027-01-16T12:00:00.000Z"),
      planName: "Monthly",
    });
    expect(paidPlanNow(trial({ license_type: "yearly" }), NOW)?.periodEnd).toEqual(
      new Date("2027-12-16T12:00:00.000Z"),
    );
    expect(paidPlanNow(trial({ license_type: "tester" }), NOW)).toBeNull();
    // Only while the trial converts: a cancelled one is not started.
    expect(paidPlanNow(trial({ cancellation_requested: true }), NOW)).toBeNull();
  });

  it("a trial bought in euros charges the checkout's quote of its plan, in euros (decision 0072)", () => {
    const euros = trial({
      license_type: "yearly",
      charges: [{ kind: "purchase", amount_cents: 0, currency: "EUR" }],
      quoted_prices: { currency: "EUR", plans: { monthly: 1071, "6_months": 5949, yearly: 11899 } },
    });
    expect(paidPlanNow(euros, NOW)).toMatchObject({ amountCents: 11899, currency: "EUR" });
    expect(trialConversion(euros, NOW)).toMatchObject({ state: "converting", amountCents: 11899, currency: "EUR" });
    expect(canChangeTrial(euros, NOW)).toBe(true);
    expect(trialConversion(euros, NOW)?.text).toBe("First charge on Dec 23, 2026: €118.99");
    expect(stillConvertingTrials([euros], NOW)[0]).toContain("still converts: €118.99 on Dec 23, 2026");
    // No quote kept (bought before), or one in another currency: no amount, so nothing is offered.
    for (const quoted_prices of [null, { currency: "GBP", plans: { monthly: 899, "6_months": 4999, yearly: 9999 } }]) {
      const unknown = { ...euros, quoted_prices };
      expect(paidPlanNow(unknown, NOW)).toBeNull();
      expect(canChangeTrial(unknown, NOW)).toBe(false);
    }
  });

  it("the confirmation and the toast name the amount and the dates", () => {
    expect(TRIAL_TEXTS.startTitle(900, "USD")).toBe("Start the paid plan now for $9.00?");
    expect(TRIAL_TEXTS.startTitle(11899, "EUR")).toBe("Start the paid plan now for €118.99?");
    expect(TRIAL_TEXTS.startBody(900, "USD", "Monthly", "2027-01-16T12:00:00.000Z")).toContain(
      "You are charged $9.00 now with the payment method you gave at checkout. The trial ends today and your Monthly plan runs until Jan 16, 2027",
    );
    expect(TRIAL_TEXTS.started(900, "USD", "2027-01-16T12:00:00.000Z")).toEqual({
      title: "Paid plan started",
      description: "$9.00 is charged now; the license renews on Jan 16, 2027.",
    });
    expect(TRIAL_TEXTS.started(1071, "EUR", null).description).toBe("€10.71 is charged now.");
    expect(TRIAL_TEXTS.cancelled(at(7))).toEqual({
      title: "Trial cancelled",
      description: "Nothing is charged. The license works until Dec 23, 2026.",
    });
    expect(TRIAL_TEXTS.cancelBody(at(7))).toMatch(
      /^Nothing is charged\. The license keeps working until the trial ends on Dec 23, 2026/,
    );
  });
});

describe("buying another license while a trial runs says the trial still converts", () => {
  it("one note per converting trial; none for cancelled trials or paid plans", () => {
    const notes = stillConvertingTrials(
      [
        trial(),
        trial({ short_id: "FK-CANC-EL01", auto_renew: false, cancellation_requested: true }),
        trial({ short_id: "FK-PAID-0001", is_trial: false, trial_ends_at: null, end_date: at(30) }),
      ],
      NOW,
    );
    expect(notes).toEqual([
      "Your trial license FK-TRIA-L001 still converts: $9.00 on Dec 23, 2026, unless you cancel the trial on your licenses page. A new license is bought on its own and does not change the trial.",
    ]);
    expect(stillConvertingTrials([], NOW)).toEqual([]);
  });
});

describe("the success page's words", () => {
  const license = {
    short_id: "FK-AB12-CD34",
    license_type: "monthly",
    end_date: at(7).toISOString(),
    is_trial: true,
    license_key: "k",
  };
  it("a generic thank-you claims no payment", () => {
    const words = successWords({ kind: "generic" });
    expect(words.heading).toBe("Thank you");
    expect(words.lead).not.toMatch(/payment|paid|successful/i);
  });

  it("a $0 trial says it started and when the first charge comes", () => {
    const view: SuccessView = {
      kind: "trial-started",
      transactionId: "txn_1",
      amountCents: 0,
      currency: "USD",
      license,
      firstCharge: { at: at(7).toISOString(), cents: 900, currency: "USD" },
    };
    expect(successWords(view)).toEqual({
      heading: "Your free trial has started",
      lead: "Nothing was charged today. First charge on Dec 23, 2026: $9.00, unless you cancel the trial on your licenses page before then.",
    });
    expect(successWords({ ...view, firstCharge: null }).lead).toBe("Nothing was charged today.");
  });

  it("a payment names its amount; the user's own checkout still confirming says so", () => {
    const paid: SuccessView = {
      kind: "paid",
      transactionId: "txn_2",
      amountCents: 9000,
      currency: "USD",
      license: { ...license, is_trial: false },
      firstCharge: null,
    };
    expect(successWords(paid)).toEqual({
      heading: "Payment successful",
      lead: "Thank you! We received $90.00 and your license is ready.",
    });
    expect(successWords({ kind: "confirming", transactionId: "txn_3", trial: false }).heading).toBe(
      "Payment successful",
    );
    expect(successWords({ kind: "confirming", transactionId: "txn_3", trial: true }).heading).toBe(
      "Your free trial is starting",
    );
  });
});
