import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditAction } from "~/domain/admin-audit";
import { utcDay } from "~/domain/admin-overview";
import * as csvRoute from "~/routes/admin/audit-csv";
import { getOverview } from "~/server/admin/overview.server";
import { recordAudit } from "~/server/audit/audit.server";
import { audit_log, licenses, payments, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { adminPageLoader } from "../../support/admin-pages";
import { adminFile, throughAdminGuard } from "../../support/admin-route";
import { call, getRequest } from "../../support/route-call";
import { createUser, testEngines, type TestApp } from "../../support/test-app";

const [ADMIN] = DEMO_ACCOUNTS;
const DAY = 86_400_000;
const MIN = 60_000;

describe.each(testEngines())("admin overview and audit log on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  /** An admin list page by its path after /admin ("" the overview, "/audit?…"). */
  const load = (path: string, cookie = adminCookie) =>
    call(() => throughAdminGuard(adminPageLoader(`/admin${path}`), getRequest(`/admin${path}`, cookie)));
  const csv = (query: string, cookie = adminCookie) =>
    adminFile(csvRoute.loader, getRequest(`/admin/audit.csv${query}`, cookie));

  it("counts active licenses by type, trials, MRR, and per day purchases, renewals, refunds and revokes", async () => {
    const now = new Date();
    const before = await getOverview(now);
    const owner = await createUser(db(), `overview-${engine}@example.com`);
    const base = { user_id: owner.id, email: owner.email, license_key: "k" };
    const ahead = new Date(now.getTime() + 20 * DAY);
    const sub = (n: string) => `sub_overview_${engine}_${n}`;
    const inserted = await db()
      .insert(licenses)
      .values([
        // Renewing: 2 monthly, 1 yearly, 1 six-month (MRR 9 + 9 + 7.50 + 8.25).
        { ...base, license_type: "monthly", end_date: ahead, auto_renew: true, paddle_subscription_id: sub("m1") },
        { ...base, license_type: "monthly", end_date: ahead, auto_renew: true, paddle_subscription_id: sub("m2") },
        { ...base, license_type: "yearly", end_date: ahead, auto_renew: true, paddle_subscription_id: sub("y1") },
        { ...base, license_type: "6_months", end_date: ahead, auto_renew: true, paddle_subscription_id: sub("s1") },
        // Active but not renewing: no MRR.
        { ...base, license_type: "yearly", end_date: ahead, auto_renew: false },
        // In its trial: a trial, no MRR yet.
        {
          ...base,
          license_type: "monthly",
          end_date: ahead,
          auto_renew: true,
          is_trial: true,
          trial_starts_at: now,
          trial_ends_at: ahead,
          paddle_subscription_id: sub("t1"),
        },
        // A trial that ended 3 days ago and was paid for (converted), still renewing.
        {
          ...base,
          license_type: "monthly",
          start_date: new Date(now.getTime() - 10 * DAY),
          end_date: ahead,
          auto_renew: true,
          trial_starts_at: new Date(now.getTime() - 10 * DAY),
          trial_ends_at: new Date(now.getTime() - 3 * DAY),
          paddle_subscription_id: sub("t2"),
        },
        // A trial that ended 5 days ago unpaid (not converted, not active).
        {
          ...base,
          license_type: "monthly",
          start_date: new Date(now.getTime() - 12 * DAY),
          end_date: new Date(now.getTime() - 5 * DAY),
          is_trial: true,
          trial_starts_at: new Date(now.getTime() - 12 * DAY),
          trial_ends_at: new Date(now.getTime() - 5 * DAY),
        },
        // Expired; refunded a minute ago; revoked: none active.
        {
          ...base,
          license_type: "monthly",
          start_date: new Date(now.getTime() - 40 * DAY),
          end_date: new Date(now.getTime() - DAY),
        },
        {
          ...base,
          license_type: "yearly",
          end_date: ahead,
          status: "refunded",
          refunded: true,
          refunded_at: new Date(now.getTime() - MIN),
        },
        { ...base, license_type: "tester", end_date: ahead },
      ])
      .returning({ id: licenses.id });
    const paidAt = new Date(now.getTime() - MIN);
    const yesterday = new Date(now.getTime() - DAY);
    const pay = (n: number, kind: "purchase" | "renewal" | "extension", amount: number, billed: Date) => ({
      id: `txn_overview_${engine}_${n}`,
      license_id: inserted[0]!.id,
      user_id: owner.id,
      kind,
      amount_cents: amount,
      billed_at: billed,
    });
    await db()
      .insert(payments)
      .values([
        pay(1, "purchase", 900, paidAt),
        pay(2, "purchase", 9000, paidAt),
        pay(3, "purchase", 0, paidAt), // a trial's start: not a paid purchase
        pay(4, "renewal", 900, yesterday),
        pay(5, "extension", 900, paidAt), // not a purchase or renewal
      ]);
    await db().transaction((tx) =>
      recordAudit(
        tx,
        { id: null, email: "test" },
        { action: "license.revoke", target_type: "license", target_id: inserted[0]!.id },
      ),
    );

    const after = await getOverview(now);
    const kind = (o: typeof before, k: string) => o.activeByKind.find((x) => x.kind === k)!.count;
    expect(kind(after, "monthly") - kind(before, "monthly")).toBe(3);
    expect(kind(after, "yearly") - kind(before, "yearly")).toBe(2);
    expect(kind(after, "6_months") - kind(before, "6_months")).toBe(1);
    expect(kind(after, "trial") - kind(before, "trial")).toBe(1);
    expect(kind(after, "tester") - kind(before, "tester")).toBe(1);
    expect(after.activeTotal - before.activeTotal).toBe(8);
    expect(after.trialsRunning - before.trialsRunning).toBe(1);
    expect(after.trialsConverted - before.trialsConverted).toBe(1);
    expect(after.trialsEnded - before.trialsEnded).toBe(2);
    // 3 monthly (m1, m2, the converted trial) × 9 + yearly 7.50 + six months 8.25.
    expect(after.mrrCents - before.mrrCents).toBe(2700 + 750 + 825);
    const day = (o: typeof before, d: Date) => o.days.find((x) => x.day === utcDay(d))!;
    expect(day(after, paidAt).purchases - day(before, paidAt).purchases).toBe(2);
    expect(day(after, yesterday).renewals - day(before, yesterday).renewals).toBe(1);
    expect(day(after, paidAt).refunds - day(before, paidAt).refunds).toBe(1);
    expect(day(after, now).revokes - day(before, now).revokes).toBe(1);
    expect(after.days).toHaveLength(90);
    expect(after.days.at(-1)!.day).toBe(utcDay(now));
    expect(after.refundRatePercent).toBe(
      Math.round((after.totals.refunds / (after.totals.purchases + after.totals.renewals)) * 1000) / 10,
    );

    const page = await load("");
    expect(page.status).toBe(200);
    expect(page.data.overview.value.mrrCents).toBe(after.mrrCents);
    // The overview reads only its own figures; users and the audit log are pages of their own.
    expect(Object.keys(page.data).sort()).toEqual(["machines", "months", "overview"]);
  });

  describe("audit log", () => {
    it("filters by action, actor, target (id, short id, user) and date range, with ids linked", async () => {
      const target = await createUser(db(), `audit-target-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "tester",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const admin = (await db().select().from(users).where(eq(users.email, ADMIN.email)))[0]!;
      await db().transaction(async (tx) => {
        await recordAudit(
          tx,
          { id: admin.id, email: admin.email },
          {
            action: "license.revoke",
            target_type: "license",
            target_id: license!.id,
            details: { user_id: target.id, reason: "test" },
          },
        );
        await recordAudit(
          tx,
          { id: null, email: "payment webhook" },
          {
            action: "trial_refused",
            target_type: "license",
            target_id: license!.id,
            details: { user_id: target.id },
          },
        );
      });
      const entries = async (query: string) => {
        const result = await load(`/audit?${query}`);
        expect(result.status).toBe(200);
        return result.data.audit.value.entries as {
          action: string;
          actor_email: string;
          license: { short_id: string; user_id: string } | null;
          user_id: string | null;
        }[];
      };
      const byLicense = await entries(`target=${license!.id}`);
      expect(byLicense.map((e) => e.action).sort()).toEqual(["license.revoke", "trial_refused"]);
      expect(byLicense[0]!.license).toMatchObject({ short_id: license!.short_id, user_id: target.id });
      expect(byLicense[0]!.user_id).toBe(target.id);
      expect((await entries(`target=${license!.short_id.toLowerCase()}`)).length).toBe(2);
      expect((await entries(`target=${target.id}`)).length).toBe(2);
      expect((await entries(`target=${license!.id}&action=license.revoke`)).map((e) => e.actor_email)).toEqual([
        ADMIN.email,
      ]);
      expect((await entries(`target=${license!.id}&actor=WEBHOOK`)).map((e) => e.action)).toEqual(["trial_refused"]);
      expect((await entries(`target=${license!.id}&actor=${admin.id}`)).map((e) => e.action)).toEqual([
        "license.revoke",
      ]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await entries(`target=${license!.id}&from=${today}&to=${today}`)).length).toBe(2);
      expect(await entries(`target=${license!.id}&to=2000-01-01`)).toEqual([]);
      expect((await load("/audit")).data.audit.actions).toContain("trial_refused");
    });

    it("refuses a malformed date range with a message and a 400", async () => {
      for (const [query, message] of [
        ["from=yesterday", "Enter dates as YYYY-MM-DD."],
        ["from=2026-11-05&to=2026-11-01", "The start date must not be after the end date."],
      ]) {
        const result = await load(`/audit?${query}`);
        expect(result.status).toBe(400);
        expect(result.data.audit).toMatchObject({ value: null, error: message });
        const file = await csv(`?${query}`);
        expect(file.status).toBe(400);
        expect(await file.text()).toBe(`${message}\n`);
      }
    });

    it("pages through the log, 50 entries a page, newest first", async () => {
      const action = `test.bulk_${engine}`;
      await db()
        .insert(audit_log)
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            actor_email: "bulk@example.com",
            action,
            target_type: "test",
            target_id: `bulk-${i}`,
            created_at: new Date(Date.now() - i * 1000),
          })),
        );
      const first = (await load(`/audit?action=${action}`)).data.audit.value;
      expect(first.entries).toHaveLength(50);
      expect(first.hasNext).toBe(true);
      expect(first.entries[0].target_id).toBe("bulk-0");
      const second = (await load(`/audit?action=${action}&page=2`)).data.audit.value;
      expect(second.entries.map((e: { target_id: string }) => e.target_id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `bulk-${50 + i}`),
      );
      expect(second.hasNext).toBe(false);
    });

    it("exports the filtered log as CSV, formulas defused", async () => {
      await db().transaction((tx) =>
        recordAudit(
          tx,
          { id: null, email: `=HYPERLINK("http://evil.example")` },
          {
            // An action unique to this test (as one recorded by an older version would be): not a labelled one.
            action: `test.csv_${engine}` as AuditAction,
            target_type: "test",
            target_id: "+cmd",
            details: { note: 'say "hi"' },
          },
        ),
      );
      const file = await csv(`?action=test.csv_${engine}`);
      expect(file.status).toBe(200);
      expect(file.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(file.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const body = await file.text();
      const lines = body
        .replace(/^\uFEFF/, "")
        .trimEnd()
        .split("\r\n");
      expect(lines[0]).toBe('"time_utc","actor_email","actor_id","action","target_type","target_id","details"');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      expect(lines[1]).toContain(`"'+cmd"`);
      expect(lines[1]).toContain(`"{""note"":""say \\""hi\\""""}"`);
      // Without filters: the whole log.
      const all = await (await csv("")).text();
      expect(all.split("\r\n").length).toBeGreaterThan(60);
      expect((await csv("", userCookie)).status).toBe(403);
    });
  });
});
