import { describe, expect, it } from "vitest";
import {
  PLAN_SWITCH_INPUT_ERRORS,
  PLAN_SWITCH_REFUSALS,
  checkPlanSwitchTarget,
  computePlanSwitchPreview,
  optionPriceText,
  planSwitchEffect,
  planSwitchOptions,
  planSwitchRefusal,
  planSwitchStamp,
  prorationFor,
  unusedCents,
  type PlanSwitchFacts,
} from "~/domain/plan-switch";
import { licenseState, renewalPriceCents } from "~/domain/license-state";
import { PLAN_IDS, type PlanId } from "~/domain/plans";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW.getTime() + ms);

const base: PlanSwitchFacts = {
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
  past_due_since: null,
  team_role: null,
  plan_next_renewal: null,
};
const license = (change: Partial<PlanSwitchFacts>): PlanSwitchFacts => ({ ...base, ...change });

describe("who may switch plans", () => {
  it("a paid, renewing, paid-up personal license may, on each paid plan", () => {
    for (const plan of PLAN_IDS) expect(planSwitchRefusal(license({ license_type: plan }), NOW)).toBeNull();
  });

  // Each refusal alone, on an otherwise eligible license: the message names what to do instead.
  const refusals: [string, Partial<PlanSwitchFacts>, string][] = [
    ["a team member's seat", { team_role: "seat" }, PLAN_SWITCH_REFUSALS.teamSeat],
    ["a team's subscription", { team_role: "billing" }, PLAN_SWITCH_REFUSALS.teamSubscription],
    ["a tester license", { license_type: "tester", has_subscription: false }, PLAN_SWITCH_REFUSALS.tester],
    ["a trial license type", { license_type: "trial" }, PLAN_SWITCH_REFUSALS.trial],
    ["a plan in its free trial", { is_trial: true, trial_ends_at: at(3 * DAY) }, PLAN_SWITCH_REFUSALS.trial],
    ["a type the table does not know", { license_type: "lifetime" }, PLAN_SWITCH_REFUSALS.notPaid],
    ["a revoked license", { status: "revoked" }, PLAN_SWITCH_REFUSALS.revoked],
    ["a refund requested", { status: "refund_requested" }, PLAN_SWITCH_REFUSALS.refund],
    ["a refunded license", { status: "refunded", refunded: true }, PLAN_SWITCH_REFUSALS.refund],
    ["no subscription (an extension only)", { has_subscription: false }, PLAN_SWITCH_REFUSALS.noSubscription],
    ["a past-due subscription", { past_due_since: at(-DAY) }, PLAN_SWITCH_REFUSALS.pastDue],
    ["an ended license", { end_date: at(-DAY) }, PLAN_SWITCH_REFUSALS.ended],
    ["a cancelled renewal", { cancellation_requested: true, auto_renew: false }, PLAN_SWITCH_REFUSALS.renewalCancelled],
    ["renewal off without a request", { auto_renew: false }, PLAN_SWITCH_REFUSALS.renewalCancelled],
    [
      "a switch already pending",
      { plan_next_renewal: "monthly", license_type: "yearly" },
      PLAN_SWITCH_REFUSALS.pending("Monthly"),
    ],
  ];
  it.each(refusals)("refused: %s", (_name, change, message) => {
    expect(planSwitchRefusal(license(change), NOW)).toBe(message);
    expect(planSwitchOptions(license(change), NOW)).toEqual([]);
  });

  it("the team refusals point to /team", () => {
    expect(PLAN_SWITCH_REFUSALS.teamSeat).toContain("/team");
    expect(PLAN_SWITCH_REFUSALS.teamSubscription).toContain("/team");
  });

  it("a past-due license in its grace period is refused for the payment, not as ended", () => {
    expect(planSwitchRefusal(license({ end_date: at(-DAY), past_due_since: at(-DAY) }), NOW)).toBe(
      PLAN_SWITCH_REFUSALS.pastDue,
    );
  });
});

describe("the plans offered", () => {
  it("monthly: 6 Months and Yearly, both now, with their prices", () => {
    expect(planSwitchOptions(license({}), NOW)).toEqual([
      { id: "6_months", name: "6 Months", price: "$49.50", period: "every 6 months", effect: "now" },
      { id: "yearly", name: "Yearly", price: "$90", period: "per year", effect: "now" },
    ]);
  });
  it("a euro subscription lists the checkout's quote in euros; without one, no price (the preview says it)", () => {
    const charges = [{ kind: "purchase", amount_cents: 1071, currency: "EUR" }];
    const quoted_prices = { currency: "EUR", plans: { monthly: 1071, "6_months": 5949, yearly: 10710 } };
    expect(planSwitchOptions({ ...license({}), charges, quoted_prices }, NOW).map((o) => o.price)).toEqual([
      "€59.49",
      "€107.10",
    ]);
    expect(planSwitchOptions({ ...license({}), charges }, NOW).map((o) => o.price)).toEqual([null, null]);
    // The card and the pages then say the period alone; the preview names the amount.
    expect(planSwitchOptions({ ...license({}), charges }, NOW).map(optionPriceText)).toEqual([
      "every 6 months",
      "per year",
    ]);
    expect(optionPriceText({ price: "€59.49", period: "every 6 months" })).toBe("€59.49 every 6 months");
  });
  it("yearly: the shorter plans, from the next renewal", () => {
    expect(planSwitchOptions(license({ license_type: "yearly" }), NOW).map((o) => [o.id, o.effect])).toEqual([
      ["monthly", "next-renewal"],
      ["6_months", "next-renewal"],
    ]);
  });
  it("6 months: monthly at the renewal, yearly now", () => {
    expect(planSwitchOptions(license({ license_type: "6_months" }), NOW).map((o) => [o.id, o.effect])).toEqual([
      ["monthly", "next-renewal"],
      ["yearly", "now"],
    ]);
  });
  it("every pair of different plans: longer is now, shorter the next renewal, and its proration mode", () => {
    const months: Record<PlanId, number> = { monthly: 1, "6_months": 6, yearly: 12 };
    for (const from of PLAN_IDS)
      for (const to of PLAN_IDS.filter((plan) => plan !== from)) {
        const effect = planSwitchEffect(from, to);
        expect(effect).toBe(months[to] > months[from] ? "now" : "next-renewal");
        expect(prorationFor(effect)).toBe(effect === "now" ? "prorated_immediately" : "do_not_bill");
      }
  });
});

describe("the plan asked for", () => {
  it("a plan of the table other than the license's", () => {
    expect(checkPlanSwitchTarget(base, "yearly")).toEqual({ ok: true, to: "yearly" });
  });
  it("not a plan: 400 naming the plans", () => {
    for (const value of ["lifetime", "", "trial", "tester", "__proto__", undefined, 12]) {
      const result = checkPlanSwitchTarget(base, value);
      expect(result).toMatchObject({ ok: false, status: 400 });
      if (!result.ok) expect(result.message).toContain("Monthly, 6 Months, Yearly");
    }
    expect(checkPlanSwitchTarget(base, "x".repeat(500))).toEqual({
      ok: false,
      status: 400,
      message: PLAN_SWITCH_INPUT_ERRORS.unknownPlan("x".repeat(40)),
    });
  });
  it("the same plan: 409", () => {
    expect(checkPlanSwitchTarget(base, "monthly")).toEqual({
      ok: false,
      status: 409,
      message: PLAN_SWITCH_INPUT_ERRORS.samePlan("Monthly"),
    });
  });
});

describe("the preview as the demo computes it", () => {
  const period = { start: at(-20 * DAY), end: at(10 * DAY) };

  it("monthly → yearly with two thirds of the month used: a third of $9 credited, $90 less it now, a year from now", () => {
    const preview = computePlanSwitchPreview({ from: "monthly", to: "yearly", period, now: NOW });
    expect(preview).toEqual({
      from: "monthly",
      to: "yearly",
      effect: "now",
      creditCents: 300,
      chargedNowCents: 8700,
      currency: "USD",
      nextChargeCents: 9000,
      nextChargeAt: "2027-06-15T12:00:00.000Z",
      becomes: { plan: "yearly", endDate: "2027-06-15T12:00:00.000Z", machines: 2 },
    });
  });

  it("bought extensions stay added to the new end", () => {
    const preview = computePlanSwitchPreview({ from: "monthly", to: "6_months", period, now: NOW, extendedMonths: 2 });
    expect(preview.nextChargeAt).toBe("2026-12-15T12:00:00.000Z");
    expect(preview.becomes.endDate).toBe("2027-02-15T12:00:00.000Z");
    expect(preview.chargedNowCents).toBe(4950 - 300);
  });

  it("yearly → monthly: nothing now, $9 at the period's end, the end date unchanged", () => {
    const preview = computePlanSwitchPreview({ from: "yearly", to: "monthly", period, now: NOW });
    expect(preview).toMatchObject({
      effect: "next-renewal",
      chargedNowCents: 0,
      creditCents: 0,
      nextChargeCents: 900,
      nextChargeAt: period.end.toISOString(),
      becomes: { plan: "monthly", endDate: period.end.toISOString(), machines: 2 },
    });
  });

  it("a subscription in euros (decision 0072): its own prices, credited and charged in its currency", () => {
    const euros = { monthly: 999, "6_months": 5499, yearly: 9999 } as const;
    const prices = { currency: "EUR", of: (plan: PlanId) => euros[plan] };
    const preview = computePlanSwitchPreview({ from: "monthly", to: "yearly", period, now: NOW, prices, seats: 2 });
    expect(preview).toMatchObject({
      currency: "EUR",
      creditCents: 666,
      chargedNowCents: 2 * 9999 - 666,
      nextChargeCents: 2 * 9999,
    });
    const later = computePlanSwitchPreview({ from: "yearly", to: "monthly", period, now: NOW, prices });
    expect(later).toMatchObject({ currency: "EUR", chargedNowCents: 0, nextChargeCents: 999 });
  });

  it("the unused share: whole before the period, none after it, none of an empty period", () => {
    expect(unusedCents(900, period, at(-30 * DAY))).toBe(900);
    expect(unusedCents(900, period, at(11 * DAY))).toBe(0);
    expect(unusedCents(900, { start: NOW, end: NOW }, NOW)).toBe(0);
    expect(unusedCents(4950, period, NOW)).toBe(1650);
  });

  it("never charges less than nothing", () => {
    const preview = computePlanSwitchPreview({
      from: "6_months",
      to: "yearly",
      period: { start: NOW, end: at(DAY) },
      now: NOW,
    });
    expect(preview.chargedNowCents).toBeGreaterThanOrEqual(0);
    expect(preview.chargedNowCents).toBe(9000 - 4950);
  });
});

describe("the preview's stamp", () => {
  const row = { license_type: "monthly", end_date: at(10 * DAY), subscription_synced_at: at(-DAY) };
  it("is the same for the same subscription state", () => {
    expect(planSwitchStamp(row)).toBe(planSwitchStamp({ ...row, end_date: row.end_date.toISOString() }));
  });
  it("changes with the plan, the end date or a later provider event", () => {
    const stamp = planSwitchStamp(row);
    expect(planSwitchStamp({ ...row, license_type: "yearly" })).not.toBe(stamp);
    expect(planSwitchStamp({ ...row, end_date: at(40 * DAY) })).not.toBe(stamp);
    expect(planSwitchStamp({ ...row, subscription_synced_at: NOW })).not.toBe(stamp);
    expect(planSwitchStamp({ ...row, subscription_synced_at: null })).not.toBe(stamp);
  });
});

describe("a switch waiting for the renewal", () => {
  it("the renewal's amount is the waiting plan's: the card's status line and /billing name what is charged", () => {
    const waiting = license({ license_type: "yearly", plan_next_renewal: "monthly" });
    expect(renewalPriceCents(waiting)).toBe(900);
    expect(licenseState(waiting, NOW).nextChargeCents).toBe(900);
    expect(licenseState(waiting, NOW).line).toMatch(/for \$9\.00$/);
    expect(renewalPriceCents(license({ license_type: "yearly" }))).toBe(9000);
  });
});
