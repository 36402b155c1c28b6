import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utcMonth, type MonthsOverview } from "~/domain/mrr-movement";
import { getMonthsOverview } from "~/server/admin/months-overview.server";
import { cancel_answers, licenses, payments, user_events } from "~/server/db/schema";
import { startAdminTestApp } from "../../support/admin-app";
import { adminPageLoader } from "../../support/admin-pages";
import { throughAdminGuard } from "../../support/admin-route";
import { call, getRequest } from "../../support/route-call";
import { createUser, testEngines, type TestApp } from "../../support/test-app";

// The admin overview's last six months (decision 0065): cancellations by reason and offers taken,
// and MRR movement split into new, expansion, contraction and churn, counted from what happened.

const DAY = 86_400_000;

describe.each(testEngines())("admin overview's months on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => app?.close());
  const db = () => app.database.db;

  const thisMonth = (overview: MonthsOverview, now: Date) => ({
    movement: overview.movement.find((m) => m.month === utcMonth(now))!,
    leaving: overview.leaving.find((m) => m.month === utcMonth(now))!,
  });

  it("counts this month's new subscriptions, switches, churn and cancel answers, priced per month", async () => {
    const now = new Date();
    // A moment ago, but in this month (a run in the first minute of a month counts at its start).
    const at = new Date(Math.max(now.getTime() - 60_000, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
    const before = thisMonth(await getMonthsOverview(now), now);
    const owner = await createUser(db(), `months-${engine}@example.com`);
    const base = { user_id: owner.id, email: owner.email, license_key: "k", end_date: new Date(now.getTime() + DAY) };
    const [monthly, yearly, converted, churned, seat] = await db()
      .insert(licenses)
      .values([
        { ...base, license_type: "monthly", auto_renew: true },
        { ...base, license_type: "yearly", auto_renew: true },
        { ...base, license_type: "monthly", auto_renew: true, trial_starts_at: new Date(now.getTime() - 8 * DAY) },
        // Renewal cancelled and ended a moment ago: churn of a monthly plan.
        {
          ...base,
          license_type: "monthly",
          auto_renew: false,
          cancellation_requested: true,
          end_date: at,
          start_date: new Date(0),
        },
        // A team's seat: the team's owner pays, not counted per license.
        { ...base, license_type: "yearly", auto_renew: true, team_role: "seat" },
      ])
      .returning();
    const pay = (n: number, licenseId: string, kind: "purchase" | "renewal", cents: number, billed: Date) => ({
      id: `txn_months_${engine}_${n}`,
      license_id: licenseId,
      user_id: owner.id,
      kind,
      amount_cents: cents,
      billed_at: billed,
    });
    await db()
      .insert(payments)
      .values([
        pay(1, monthly!.id, "purchase", 900, at),
        pay(2, yearly!.id, "purchase", 9000, new Date(at.getTime() - 1000)),
        pay(3, yearly!.id, "renewal", 9000, at), // not its first payment: not new
        pay(4, converted!.id, "purchase", 0, new Date(now.getTime() - 8 * DAY)), // the trial's start
        pay(5, converted!.id, "renewal", 900, at), // the trial paid for: new
        pay(6, seat!.id, "purchase", 9000, at),
      ]);
    const switched = (from: string, to: string) => ({
      user_id: owner.id,
      kind: "license.plan_changed",
      details: { license_id: monthly!.id, from, to },
      at,
    });
    await db()
      .insert(user_events)
      .values([switched("monthly", "yearly"), switched("yearly", "monthly"), switched("yearly", "monthly")]);
    await db()
      .insert(cancel_answers)
      .values([
        { license_id: churned!.id, reason: "too-expensive", offer: "discount", outcome: "declined", created_at: at },
        { license_id: monthly!.id, reason: "too-expensive", offer: null, outcome: null, created_at: at },
        { license_id: yearly!.id, reason: null, note: "—", offer: null, outcome: null, created_at: at },
        { license_id: converted!.id, reason: "not-using", offer: "discount", outcome: "taken", created_at: at },
      ]);

    const after = thisMonth(await getMonthsOverview(now), now);
    // New: monthly 9.00 + yearly 7.50 + the converted trial's 9.00 a month.
    expect(after.movement.new - before.movement.new).toBe(900 + 750 + 900);
    // Monthly → yearly lowers MRR by 1.50; yearly → monthly twice raises it by 3.00.
    expect(after.movement.contraction - before.movement.contraction).toBe(150);
    expect(after.movement.expansion - before.movement.expansion).toBe(300);
    expect(after.movement.churn - before.movement.churn).toBe(900);
    // Three cancelled (a taken offer keeps the renewal), two for the price, one without a reason.
    expect(after.leaving.cancellations - before.leaving.cancellations).toBe(3);
    expect(after.leaving.byReason["too-expensive"] - before.leaving.byReason["too-expensive"]).toBe(2);
    expect(after.leaving.byReason.none - before.leaving.byReason.none).toBe(1);
    expect(after.leaving.byReason["not-using"] - before.leaving.byReason["not-using"]).toBe(0);
    expect(after.leaving.offersMade - before.leaving.offersMade).toBe(2);
    expect(after.leaving.offersTaken - before.leaving.offersTaken).toBe(1);
  });

  it("the overview page carries six months oldest first; a customer is sent away", async () => {
    const page = await call(() => throughAdminGuard(adminPageLoader("/admin"), getRequest("/admin", adminCookie)));
    const months = (page.data as { months: { value: MonthsOverview } }).months.value;
    expect(months.movement).toHaveLength(6);
    expect(months.leaving.map((m) => m.month)).toEqual(months.movement.map((m) => m.month));
    expect(months.movement.at(-1)!.month).toBe(utcMonth(new Date()));
    const refused = await call(() => throughAdminGuard(adminPageLoader("/admin"), getRequest("/admin", userCookie)));
    // A customer is sent away (every admin route, as guards-and-user-pages tests), with no figures.
    expect(refused.status).toBe(302);
    expect(JSON.stringify(refused.data ?? null)).not.toContain("movement");
  });
});
