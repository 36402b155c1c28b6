import { describe, expect, it } from "vitest";
import { PLAN_SWITCH_REFUSALS, computePlanSwitchPreview, type PlanSwitchFacts } from "~/domain/plan-switch";
import { PLAN_IDS, getPlan } from "~/domain/plans";
import { planSwitchPreviewLines } from "~/domain/plan-switch-texts";
import {
  TEAM_PLAN_REFUSALS,
  teamPlanChangeRefusal,
  teamPlanDoneToast,
  teamPlanOptions,
} from "~/domain/team-plan-change";
import { ROLE_ERRORS, TEAM_ROLE_NAMES, canDo } from "~/domain/team-roles";

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
  team_role: "billing",
  plan_next_renewal: null,
};
const billing = (change: Partial<PlanSwitchFacts>): PlanSwitchFacts => ({ ...base, ...change });

describe("who may change a team's plan", () => {
  it("the owner, of a paid, renewing, paid-up team subscription, on each paid plan", () => {
    for (const plan of PLAN_IDS)
      expect(teamPlanChangeRefusal("owner", billing({ license_type: plan }), NOW)).toBeNull();
  });

  it("only the owner: a manager or member is refused, a stranger is told the team is not found", () => {
    expect(teamPlanChangeRefusal("manager", base, NOW)).toBe(ROLE_ERRORS.forbidden);
    expect(teamPlanChangeRefusal("member", base, NOW)).toBe(ROLE_ERRORS.forbidden);
    expect(teamPlanChangeRefusal(null, base, NOW)).toBe(ROLE_ERRORS.notMember);
    for (const role of TEAM_ROLE_NAMES) expect(canDo(role, "change-plan")).toBe(role === "owner");
  });

  it("a team without a subscription license (or given a seat's) has nothing to change", () => {
    expect(teamPlanChangeRefusal("owner", null, NOW)).toBe(TEAM_PLAN_REFUSALS.noSubscription);
    expect(teamPlanChangeRefusal("owner", billing({ team_role: "seat" }), NOW)).toBe(TEAM_PLAN_REFUSALS.noSubscription);
    expect(teamPlanChangeRefusal("owner", billing({ team_role: null }), NOW)).toBe(TEAM_PLAN_REFUSALS.noSubscription);
  });

  it("a seat reduction waiting for the renewal: after it, the plan can change", () => {
    expect(teamPlanChangeRefusal("owner", base, NOW, 3)).toBe(TEAM_PLAN_REFUSALS.seatsPending);
    expect(teamPlanOptions("owner", base, NOW, 3)).toEqual([]);
    expect(teamPlanChangeRefusal("owner", base, NOW, null)).toBeNull();
    // The subscription's own refusal comes first: it says what to do about it.
    expect(teamPlanChangeRefusal("owner", billing({ auto_renew: false }), NOW, 3)).toBe(
      PLAN_SWITCH_REFUSALS.renewalCancelled,
    );
  });

  // Each of the personal switch's refusals, alone, on an otherwise eligible team subscription.
  const refusals: [string, Partial<PlanSwitchFacts>, string][] = [
    ["a team in its free trial", { is_trial: true, trial_ends_at: at(3 * DAY) }, PLAN_SWITCH_REFUSALS.trial],
    ["a past-due subscription", { past_due_since: at(-DAY) }, PLAN_SWITCH_REFUSALS.pastDue],
    ["a cancelled renewal", { cancellation_requested: true, auto_renew: false }, PLAN_SWITCH_REFUSALS.renewalCancelled],
    ["renewal off without a request", { auto_renew: false }, PLAN_SWITCH_REFUSALS.renewalCancelled],
    ["an ended subscription", { end_date: at(-DAY) }, PLAN_SWITCH_REFUSALS.ended],
    ["a refunded subscription", { status: "refunded", refunded: true }, PLAN_SWITCH_REFUSALS.refund],
    ["a revoked subscription", { status: "revoked" }, PLAN_SWITCH_REFUSALS.revoked],
    ["no subscription id", { has_subscription: false }, PLAN_SWITCH_REFUSALS.noSubscription],
    ["a type the table does not know", { license_type: "lifetime" }, PLAN_SWITCH_REFUSALS.notPaid],
    [
      "a change already waiting",
      { plan_next_renewal: "monthly", license_type: "yearly" },
      PLAN_SWITCH_REFUSALS.pending("Monthly"),
    ],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what}, with what to do instead, and offers no plan`, () => {
      expect(teamPlanChangeRefusal("owner", billing(change), NOW)).toBe(message);
      expect(teamPlanOptions("owner", billing(change), NOW)).toEqual([]);
    });
  }
});

describe("the plans a team may change to", () => {
  it("every other plan of the table, with the personal switch's effect: longer now, shorter at renewal", () => {
    for (const from of PLAN_IDS) {
      const options = teamPlanOptions("owner", billing({ license_type: from }), NOW);
      expect(options.map((option) => option.id)).toEqual(PLAN_IDS.filter((id) => id !== from));
      for (const option of options)
        expect(option.effect).toBe(getPlan(option.id).months > getPlan(from).months ? "now" : "next-renewal");
    }
  });

  it("none for a manager, a member or no subscription", () => {
    expect(teamPlanOptions("manager", base, NOW)).toEqual([]);
    expect(teamPlanOptions("member", base, NOW)).toEqual([]);
    expect(teamPlanOptions("owner", null, NOW)).toEqual([]);
  });
});

describe("the preview of a team's change: every amount per seat", () => {
  const period = { start: at(-20 * DAY), end: at(10 * DAY) };

  it("an upgrade credits each seat's unused time and charges each seat's new plan now", () => {
    const one = computePlanSwitchPreview({ from: "monthly", to: "yearly", period, now: NOW });
    const five = computePlanSwitchPreview({ from: "monthly", to: "yearly", period, now: NOW, seats: 5 });
    expect(five.creditCents).toBe(Math.round((900 * 5 * 10) / 30));
    expect(five.chargedNowCents).toBe(9000 * 5 - five.creditCents);
    expect(five.nextChargeCents).toBe(9000 * 5);
    expect(five.becomes).toEqual({ ...one.becomes, seats: 5 });
    expect(one.becomes.seats).toBeUndefined();
  });

  it("a shorter plan bills every seat's new price at the renewal and nothing now", () => {
    const preview = computePlanSwitchPreview({ from: "yearly", to: "6_months", period, now: NOW, seats: 3 });
    expect(preview).toMatchObject({ effect: "next-renewal", chargedNowCents: 0, creditCents: 0 });
    expect(preview.nextChargeCents).toBe(4950 * 3);
    expect(preview.nextChargeAt).toBe(period.end.toISOString());
    expect(preview.becomes.seats).toBe(3);
    const lines = planSwitchPreviewLines(preview);
    expect(lines.find((line) => line.id === "becomes")!.label).toBe("Each of the 3 seats becomes");
    expect(lines.find((line) => line.id === "next")!.value).toMatch(/^\$148\.50 on /);
  });

  it("the toast says what every seat became, or when it will", () => {
    const now = computePlanSwitchPreview({ from: "monthly", to: "yearly", period, now: NOW, seats: 5 });
    expect(teamPlanDoneToast(now).title).toBe("Team plan changed");
    expect(teamPlanDoneToast(now).description).toMatch(/^The team's 5 seats are now Yearly: \$\d+\.\d\d charged/);
    const later = computePlanSwitchPreview({ from: "yearly", to: "monthly", period, now: NOW, seats: 1 });
    expect(teamPlanDoneToast(later)).toEqual({
      title: "Team plan change scheduled",
      description: expect.stringMatching(/^Every seat switches to Monthly at the next renewal on /),
    });
  });
});
