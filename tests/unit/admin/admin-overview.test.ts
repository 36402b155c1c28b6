import { describe, expect, it } from "vitest";
import {
  activeByKind,
  fillDays,
  monthlyRecurringRevenueCents,
  refundRatePercent,
  renewingByPlan,
  seriesTotals,
  windowStart,
} from "~/domain/admin-overview";
import {
  auditCsvRow,
  auditQuery,
  auditRange,
  csvField,
  parseAuditFilters,
  AUDIT_DATE_ERROR,
  AUDIT_RANGE_ERROR,
} from "~/domain/admin-audit";
import { canResetOfflineData, subscriptionIds } from "~/domain/admin-user";

describe("monthly recurring revenue", () => {
  it("counts monthly 9, 6 months 49.50 / 6 and yearly 90 / 12 USD a month", () => {
    expect(monthlyRecurringRevenueCents({ monthly: 1 })).toBe(900);
    expect(monthlyRecurringRevenueCents({ "6_months": 1 })).toBe(825);
    expect(monthlyRecurringRevenueCents({ yearly: 1 })).toBe(750);
    expect(monthlyRecurringRevenueCents({ monthly: 10, "6_months": 3, yearly: 7 })).toBe(9000 + 2475 + 5250);
  });

  it("rounds once, on the total, and ignores what is not a plan", () => {
    // 49.50 / 6 = 8.25 exactly; 3 yearly = 22.50: no rounding drift.
    expect(monthlyRecurringRevenueCents({ yearly: 3 })).toBe(2250);
    expect(monthlyRecurringRevenueCents({ tester: 5, trial: 2, monthly: 0 })).toBe(0);
    expect(monthlyRecurringRevenueCents({})).toBe(0);
  });
});

describe("the 90 days of the overview", () => {
  const now = new Date("2026-11-23T15:00:00Z");

  it("starts at midnight UTC 89 days before today", () => {
    expect(windowStart(now).toISOString()).toBe("2026-08-26T00:00:00.000Z");
    expect(windowStart(now, 1).toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });

  it("lists every day oldest first, zero where nothing happened, and sums the series", () => {
    const days = fillDays(
      [
        { day: "2026-11-23", series: "purchases", count: 2 },
        { day: "2026-11-23", series: "refunds", count: 1 },
        { day: "2026-08-26", series: "renewals", count: 4 },
        { day: "2026-08-25", series: "revokes", count: 9 }, // before the window: ignored
      ],
      now,
    );
    expect(days).toHaveLength(90);
    expect(days[0]).toEqual({ day: "2026-08-26", purchases: 0, renewals: 4, refunds: 0, revokes: 0 });
    expect(days.at(-1)).toEqual({ day: "2026-11-23", purchases: 2, renewals: 0, refunds: 1, revokes: 0 });
    expect(days[1]!.day).toBe("2026-08-27");
    expect(seriesTotals(days)).toEqual({ purchases: 2, renewals: 4, refunds: 1, revokes: 0 });
  });

  it("gives the refund rate per paid purchase or renewal, none when nothing was paid", () => {
    expect(refundRatePercent(1, 40)).toBe(2.5);
    expect(refundRatePercent(1, 3)).toBe(33.3);
    expect(refundRatePercent(0, 0)).toBeNull();
    expect(refundRatePercent(2, 0)).toBeNull();
  });

  it("lists every kind of active license in the plan table's order with its name, zero when none", () => {
    expect(activeByKind({ monthly: 3, trial: 1 }).map((k) => [k.kind, k.label, k.count])).toEqual([
      ["monthly", "Monthly", 3],
      ["6_months", "6 Months", 0],
      ["yearly", "Yearly", 0],
      ["trial", "Trial", 1],
      ["tester", "Tester", 0],
    ]);
  });

  it("lists the renewing subscriptions of every plan, by the plan's name", () => {
    expect(renewingByPlan({ yearly: 2 }).map((p) => [p.plan, p.label, p.count])).toEqual([
      ["monthly", "Monthly", 0],
      ["6_months", "6 Months", 0],
      ["yearly", "Yearly", 2],
    ]);
  });
});

describe("audit filters and CSV", () => {
  const params = (query: string) => new URLSearchParams(query);

  it("reads the filters and the page from the URL", () => {
    expect(
      parseAuditFilters(
        params("action=license.revoke&actor=%20ann%20&target=FK-1&from=2026-11-01&to=2026-11-23&page=2"),
      ),
    ).toEqual({
      filters: { action: "license.revoke", actor: "ann", target: "FK-1", from: "2026-11-01", to: "2026-11-23" },
      page: 2,
      error: null,
    });
    expect(parseAuditFilters(params("")).filters).toEqual({
      action: null,
      actor: null,
      target: null,
      from: null,
      to: null,
    });
  });

  it("refuses a malformed or reversed date range with a message", () => {
    expect(parseAuditFilters(params("from=yesterday")).error).toBe(AUDIT_DATE_ERROR);
    expect(parseAuditFilters(params("to=2026-02-30")).error).toBe(AUDIT_DATE_ERROR);
    expect(parseAuditFilters(params("from=2026-11-05&to=2026-11-01")).error).toBe(AUDIT_RANGE_ERROR);
  });

  it("takes the range as whole UTC days, the end day included", () => {
    const { since, before } = auditRange({
      action: null,
      actor: null,
      target: null,
      from: "2026-11-01",
      to: "2026-11-02",
    });
    expect(since!.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(before!.toISOString()).toBe("2026-11-03T00:00:00.000Z");
  });

  it("builds links that keep the filters", () => {
    const filters = { action: "license.revoke", actor: null, target: "a b", from: null, to: null };
    expect(auditQuery(filters, { tab: "audit", page: 3 })).toBe("action=license.revoke&target=a+b&tab=audit&page=3");
  });

  it("quotes every field and defuses formulas (CSV injection)", () => {
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    for (const start of ["+", "-", "@", "\t", "\r"]) expect(csvField(`${start}1`)).toBe(`"'${start}1"`);
    expect(csvField(null)).toBe('""');
    expect(
      auditCsvRow({
        created_at: "2026-11-23T10:00:00.000Z",
        actor_email: "=cmd@evil.example",
        actor_id: null,
        action: "license.revoke",
        target_type: "license",
        target_id: "id-1",
        details: { reason: "line\nbreak" },
      }),
    ).toBe(
      '"2026-11-23T10:00:00.000Z","\'=cmd@evil.example","","license.revoke","license","id-1","{""reason"":""line\\nbreak""}"\r\n',
    );
  });
});

describe("a user's page", () => {
  it("offers the offline-data reset only for an active, unrefunded license that has some", () => {
    const base = { windows_username: "ACME\\ann", computer_name: null, status: "active" as const, refunded: false };
    expect(canResetOfflineData(base)).toBe(true);
    expect(canResetOfflineData({ ...base, windows_username: null })).toBe(false);
    expect(canResetOfflineData({ ...base, status: "revoked" })).toBe(false);
    expect(canResetOfflineData({ ...base, refunded: true })).toBe(false);
  });

  it("lists each subscription id once", () => {
    expect(
      subscriptionIds(
        [{ paddle_subscription_id: "sub_1" }, { paddle_subscription_id: null }],
        [{ subscription_id: "sub_1" }, { subscription_id: "sub_2" }, { subscription_id: null }],
      ),
    ).toEqual(["sub_1", "sub_2"]);
  });
});
