import { describe, expect, it } from "vitest";
import {
  customerMailKey,
  dueReminder,
  isCustomerMailKind,
  isReminderKind,
  parseReminderChoice,
  scanHour,
  type ReminderFacts,
} from "~/domain/customer-mail";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-11-23T12:00:00.000Z");
const inDays = (n: number) => new Date(now.getTime() + n * DAY);

const yearly: ReminderFacts = {
  license_type: "yearly",
  status: "active",
  refunded: false,
  end_date: inDays(5),
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
};
const trial: ReminderFacts = {
  ...yearly,
  license_type: "monthly",
  is_trial: true,
  trial_ends_at: inDays(2),
  end_date: inDays(2),
};

describe("reminder kinds", () => {
  it("trial ends soon and renewal coming are reminders; the rest are transactional", () => {
    expect(isReminderKind("trial-ends-soon")).toBe(true);
    expect(isReminderKind("renewal-coming")).toBe(true);
    for (const kind of [
      "license-delivered",
      "renewed",
      "paid-plan-started",
      "extended",
      "payment-failed",
      "refund-processed",
    ] as const)
      expect(isReminderKind(kind)).toBe(false);
  });

  it("knows its kinds", () => {
    expect(isCustomerMailKind("payment-failed")).toBe(true);
    expect(isCustomerMailKind("newsletter")).toBe(false);
    expect(isCustomerMailKind(undefined)).toBe(false);
  });

  it("keys an e-mail by kind, license and occasion", () => {
    expect(customerMailKey("renewed", "lic-1", "txn_1")).toBe("customer-mail:renewed:lic-1:txn_1");
  });
});

describe("dueReminder: trial ends soon", () => {
  it("is due within 3 days before the trial converts", () => {
    expect(dueReminder(trial, now)).toEqual({ kind: "trial-ends-soon", at: trial.trial_ends_at });
    expect(dueReminder({ ...trial, trial_ends_at: inDays(3) }, now)?.kind).toBe("trial-ends-soon");
  });
  it("is not due earlier, nor once the trial has ended", () => {
    expect(dueReminder({ ...trial, trial_ends_at: inDays(3.1) }, now)).toBeNull();
    expect(dueReminder({ ...trial, trial_ends_at: inDays(-0.1) }, now)).toBeNull();
  });
  it("is not due when the trial will not convert (cancelled, revoked, no subscription)", () => {
    expect(dueReminder({ ...trial, auto_renew: false, cancellation_requested: true }, now)).toBeNull();
    expect(dueReminder({ ...trial, status: "revoked" }, now)).toBeNull();
    expect(dueReminder({ ...trial, has_subscription: false }, now)).toBeNull();
  });
});

describe("dueReminder: renewal coming", () => {
  it("is due within 7 days before a yearly or 6-month plan renews", () => {
    expect(dueReminder(yearly, now)).toEqual({ kind: "renewal-coming", at: yearly.end_date });
    expect(dueReminder({ ...yearly, license_type: "6_months", end_date: inDays(7) }, now)?.kind).toBe("renewal-coming");
  });
  it("is never due for monthly or tester licenses", () => {
    expect(dueReminder({ ...yearly, license_type: "monthly" }, now)).toBeNull();
    expect(dueReminder({ ...yearly, license_type: "tester", has_subscription: false }, now)).toBeNull();
  });
  it("is not due further ahead, after the date, or for a refunded or cancelled license", () => {
    expect(dueReminder({ ...yearly, end_date: inDays(8) }, now)).toBeNull();
    expect(dueReminder({ ...yearly, end_date: inDays(-1) }, now)).toBeNull();
    expect(dueReminder({ ...yearly, refunded: true }, now)).toBeNull();
    expect(dueReminder({ ...yearly, status: "refund_requested" }, now)).toBeNull();
    expect(dueReminder({ ...yearly, cancellation_requested: true }, now)).toBeNull();
  });
});

describe("scanHour", () => {
  it("is the start of the UTC hour", () => {
    expect(scanHour(new Date("2026-11-23T12:34:56.789Z")).toISOString()).toBe("2026-11-23T12:00:00.000Z");
  });
});

describe("parseReminderChoice: the profile's checkbox", () => {
  const form = (...values: string[]) => {
    const data = new FormData();
    for (const value of values) data.append("reminder_emails", value);
    return data;
  };
  it("checked means on, absent means off", () => {
    expect(parseReminderChoice(form("on"))).toEqual({ ok: true, enabled: true });
    expect(parseReminderChoice(form())).toEqual({ ok: true, enabled: false });
  });
  it("refuses anything else", () => {
    expect(parseReminderChoice(form("yes")).ok).toBe(false);
    expect(parseReminderChoice(form("on", "on")).ok).toBe(false);
  });
});
