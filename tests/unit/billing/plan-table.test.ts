import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TESTER_MAX_DAYS } from "~/domain/admin";
import { activeByKind, renewingByPlan } from "~/domain/admin-overview";
import { dueReminder, REMINDER_TEXTS, type ReminderFacts } from "~/domain/customer-mail";
import { DEFAULT_MACHINE_LIMITS, MAX_MACHINES_PER_LICENSE, parseMachineLimits } from "~/domain/machines";
import { extendedRefundExample, planPricesInTerms, planPricesSentence, planRefundExamples } from "~/domain/plan-words";
import {
  FREE_LICENSE_TYPES,
  getPlan,
  isLicenseType,
  isPlanId,
  LICENSE_TYPE_LABELS,
  LICENSE_TYPES,
  licenseKindRow,
  licenseTypeLabel,
  orList,
  PLAN_IDS,
  PLANS,
  priceEnvNames,
  TESTER_DEFAULT_DAYS,
  TRIAL_DAYS,
  type LicenseType,
  type PlanId,
} from "~/domain/plans";
import { configuredPriceIds, planForPriceId } from "~/server/billing/price-ids.server";
import { parseEnv, setEnv } from "~/server/env.server";

// One plan table (app/domain/plans.ts) says every plan and license type once; everything else derives
// from it. The compiler is the main proof (a map keyed by PlanId or LicenseType missing one does not
// compile, as the `satisfies` below); these check that the table is whole and the derived lists agree.

const ROOT = path.resolve(import.meta.dirname, "../../..");

const NAMES = {
  monthly: "Monthly",
  "6_months": "6 Months",
  yearly: "Yearly",
  trial: "Trial",
  tester: "Tester",
} satisfies Record<LicenseType, string>;

const PRICES = { monthly: 900, "6_months": 4950, yearly: 9000 } satisfies Record<PlanId, number>;

describe("the plan table", () => {
  it("has the three paid plans and the two free license types, in the table's order", () => {
    expect(PLAN_IDS).toEqual(["monthly", "6_months", "yearly"]);
    expect(FREE_LICENSE_TYPES).toEqual(["trial", "tester"]);
    expect(LICENSE_TYPES).toEqual([...PLAN_IDS, ...FREE_LICENSE_TYPES]);
    expect(PLANS.map((plan) => plan.id)).toEqual(PLAN_IDS);
  });

  it("gives every license type a name and a machine limit", () => {
    expect(LICENSE_TYPE_LABELS).toEqual(NAMES);
    for (const type of LICENSE_TYPES) {
      const row = licenseKindRow(type);
      expect(row.name, type).toBe(NAMES[type]);
      expect(Number.isInteger(row.machines) && row.machines >= 1, type).toBe(true);
      expect(row.machines, type).toBeLessThanOrEqual(MAX_MACHINES_PER_LICENSE);
      expect(licenseTypeLabel(type)).toBe(NAMES[type]);
    }
    expect(new Set(Object.values(NAMES)).size).toBe(LICENSE_TYPES.length);
  });

  it("gives every paid plan a price, a period, words and features; one plan is the most popular", () => {
    for (const plan of PLANS) {
      expect(plan.priceCents, plan.id).toBe(PRICES[plan.id]);
      expect(Number.isInteger(plan.months) && plan.months >= 1, plan.id).toBe(true);
      expect(plan.period, plan.id).toMatch(/^(per|every) /);
      expect(plan.adjective, plan.id).not.toBe("");
      expect(plan.features.length, plan.id).toBeGreaterThan(0);
    }
    expect(PLANS.filter((plan) => plan.mostPopular).map((plan) => plan.id)).toEqual(["yearly"]);
  });

  it("gives the trial and the tester license their lengths", () => {
    expect(TRIAL_DAYS).toBe(7);
    expect(TESTER_DEFAULT_DAYS).toBe(30);
    expect(TESTER_DEFAULT_DAYS).toBeLessThanOrEqual(TESTER_MAX_DAYS);
  });

  it("knows its own types and nothing else", () => {
    for (const type of LICENSE_TYPES) expect(isLicenseType(type)).toBe(true);
    for (const plan of PLAN_IDS) expect(isPlanId(plan)).toBe(true);
    for (const free of FREE_LICENSE_TYPES) expect(isPlanId(free)).toBe(false);
    for (const bad of ["weekly", "Monthly", "toString", "constructor", "", null, 6])
      expect(isLicenseType(bad), String(bad)).toBe(false);
    expect(licenseTypeLabel("weekly")).toBe("weekly");
  });
});

describe("what derives from the table", () => {
  it("the machine limits unless configured, and the names MACHINES_PER_PLAN accepts", () => {
    expect(DEFAULT_MACHINE_LIMITS).toEqual({ monthly: 2, "6_months": 2, yearly: 2, trial: 2, tester: 1 });
    expect(Object.keys(DEFAULT_MACHINE_LIMITS)).toEqual(LICENSE_TYPES);
    for (const type of LICENSE_TYPES) expect(DEFAULT_MACHINE_LIMITS[type]).toBe(licenseKindRow(type).machines);
    expect(parseMachineLimits("weekly=2")).toEqual({
      ok: false,
      message: `"weekly" is not one of ${LICENSE_TYPES.join(", ")}`,
    });
  });

  it("the admin overview's lists: every license type, and every plan for the renewing ones", () => {
    expect(activeByKind({}).map((row) => [row.kind, row.label])).toEqual(LICENSE_TYPES.map((t) => [t, NAMES[t]]));
    expect(renewingByPlan({}).map((row) => [row.plan, row.label])).toEqual(PLAN_IDS.map((p) => [p, NAMES[p]]));
  });

  it("the renewal reminders: the plans the table marks, named in the profile's words", () => {
    const facts = (license_type: string): ReminderFacts => ({
      license_type,
      status: "active",
      refunded: false,
      end_date: new Date("2026-11-25T00:00:00.000Z"),
      is_trial: false,
      trial_ends_at: null,
      auto_renew: true,
      cancellation_requested: false,
      has_subscription: true,
    });
    const now = new Date("2026-11-23T00:00:00.000Z");
    const reminded = PLAN_IDS.filter((plan) => dueReminder(facts(plan), now) !== null);
    expect(reminded).toEqual(PLAN_IDS.filter((plan) => getPlan(plan).renewalReminder));
    expect(reminded).toEqual(["6_months", "yearly"]);
    expect(REMINDER_TEXTS.description).toContain("a week before a 6-month or yearly plan renews");
    expect(REMINDER_TEXTS.onDescription).toBe(
      "We will remind you before a trial ends and before a 6-month or yearly plan renews.",
    );
  });

  it("the price ids' configuration: PRICE_<PLAN>_TRIAL and PRICE_<PLAN> of every plan, demo ids unless set", () => {
    expect(PLAN_IDS.map((plan) => priceEnvNames(plan))).toEqual([
      { trial: "PRICE_MONTHLY_TRIAL", regular: "PRICE_MONTHLY" },
      { trial: "PRICE_6_MONTHS_TRIAL", regular: "PRICE_6_MONTHS" },
      { trial: "PRICE_YEARLY_TRIAL", regular: "PRICE_YEARLY" },
    ]);
    setEnv({ ...parseEnv({ DATA_DIR: "/nonexistent", PRICE_6_MONTHS: "pri_six" }) });
    const ids = configuredPriceIds();
    for (const plan of PLAN_IDS) {
      expect(ids.trial[plan]).toBe(`pri_demo_${plan}_trial`);
      expect(planForPriceId(ids.trial[plan])).toBe(plan);
      expect(planForPriceId(ids.regular[plan])).toBe(plan);
    }
    expect(ids.regular).toEqual({ monthly: "pri_demo_monthly", "6_months": "pri_six", yearly: "pri_demo_yearly" });
    expect(() => parseEnv({ DATA_DIR: "/nonexistent", PRICE_YEARLY_TRIAL: " " })).toThrow(/PRICE_YEARLY_TRIAL/);
  });

  it("the database's check constraint (the latest migration snapshot) allows exactly the table's types", () => {
    const dir = path.join(ROOT, "drizzle/meta");
    const latest = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith("_snapshot.json"))
      .sort()
      .at(-1)!;
    const snapshot = fs.readFileSync(path.join(dir, latest), "utf8");
    const check = /"licenses_license_type_check":\s*\{[^}]*"value":\s*"([^"\\]*(?:\\.[^"\\]*)*)"/.exec(snapshot);
    const allowed = [...check![1]!.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    expect(allowed.sort()).toEqual([...LICENSE_TYPES].sort());
  });

  it("the sentences naming every plan and its price keep their words", () => {
    expect(orList(["a"])).toBe("a");
    expect(orList(["a", "b", "c"])).toBe("a, b or c");
    expect(planPricesSentence()).toBe("Monthly $9, 6 months $49.50 or yearly $90");
    expect(planPricesInTerms()).toBe("monthly ($9), 6-month ($49.50) or yearly ($90)");
    expect(planRefundExamples()).toBe(
      "$8.55 of a $9 monthly license, $47.03 of a 6-month license and $85.50 of a yearly license",
    );
    expect(extendedRefundExample()).toBe(
      "a $9 monthly license extended by a month for $9 returns $8.55 + $8.55 = $17.10",
    );
  });

  it("the docs state the table's machine limits (2 a license, 1 for a tester license)", () => {
    const { tester, ...others } = DEFAULT_MACHINE_LIMITS;
    const counts = new Set(Object.values(others));
    expect(counts.size).toBe(1);
    const [count] = [...counts];
    const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8").replace(/\s+/g, " ");
    expect(read("docs/configuration.md")).toContain(
      `(unset: ${count} machines per license, ${tester} for a tester license)`,
    );
    expect(read("docs/desktop-api.md")).toContain(`(${count} by default, ${tester} for a tester license;`);
  });
});
