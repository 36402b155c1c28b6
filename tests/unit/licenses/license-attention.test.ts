import { describe, expect, it } from "vitest";
import {
  ALL_OPEN_UP_TO,
  ATTENTION_KINDS,
  attentionText,
  EXPIRING_SOON_DAYS,
  licenseAttention,
  licenseNextStep,
  orderByAttention,
  rowStartsOpen,
  TRIAL_ENDING_DAYS,
} from "~/domain/license-attention";
import type { LicenseStateFacts } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { demoLicenses } from "~/server/seed.server";

process.env.LICENSE_SECRET ??= "license-attention-test-secret-0123456789abcdef";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

type Facts = LicenseStateFacts & { name: string };

/** The seeded demo user's licenses, as the rules read them, each named. */
const seeded: Facts[] = demoLicenses("u", "demo@forgekit.example", NOW).map((row, index) => ({
  ...licenseFacts({
    paddle_subscription_id: row.paddle_subscription_id ?? null,
    license_type: row.license_type,
    status: row.status ?? "active",
    end_date: row.end_date,
    is_trial: row.is_trial ?? false,
    trial_ends_at: row.trial_ends_at ?? null,
    auto_renew: row.auto_renew ?? false,
    cancellation_requested: row.cancellation_requested ?? false,
    refunded: row.refunded ?? false,
    refund_eligible_until: row.refund_eligible_until ?? null,
    refunded_at: row.refunded_at ?? null,
    refund_amount: row.refund_amount ?? null,
    past_due_since: null,
  }),
  name: `seed-${index}`,
}));
const [renewing, cancelled, trial, trialEnded, expired, revoked, refundRequested, refunded, tester] = seeded;

/** The seeded monthly whose renewal could not be charged two days ago (decision 0023). */
const pastDue: Facts = { ...renewing!, name: "past-due", end_date: at(-2), past_due_since: at(-2) };

describe("what needs the customer", () => {
  it("names each kind from the one state, and nothing for a license that needs nothing", () => {
    expect(licenseAttention(pastDue, NOW)).toBe("payment-failed");
    // A refund in progress asks nothing of the customer: no attention item (decision 0057).
    for (const license of [renewing, cancelled, trial, trialEnded, expired, revoked, refundRequested, refunded, tester])
      expect(licenseAttention(license!, NOW)).toBeNull();
  });

  it("a trial needs a decision from TRIAL_ENDING_DAYS before its end, not earlier, not after", () => {
    const ending = (days: number) => ({ ...trial!, trial_ends_at: at(days), end_date: at(days) });
    expect(licenseAttention(ending(TRIAL_ENDING_DAYS), NOW)).toBe("trial-ending");
    expect(licenseAttention(ending(0.5), NOW)).toBe("trial-ending");
    expect(licenseAttention(ending(TRIAL_ENDING_DAYS + 0.01), NOW)).toBeNull();
    expect(licenseAttention(ending(-1), NOW)).toBeNull();
    // A plan bought with the trial: it converts, and the summary names the first charge.
    const converting = { ...renewing!, is_trial: true, trial_ends_at: at(2), end_date: at(2) };
    expect(licenseAttention(converting, NOW)).toBe("trial-ending");
    expect(attentionText("trial-ending", converting, NOW)).toBe(
      "Trial ends Jun 17, 2026: the first charge of $9.00 follows unless you cancel.",
    );
    expect(attentionText("trial-ending", ending(2), NOW)).toBe(
      "Trial ends Jun 17, 2026: choose a plan to keep working.",
    );
  });

  it("a license ending without renewal within EXPIRING_SOON_DAYS needs a decision; a renewing one does not", () => {
    const ends = (license: Facts, days: number) => ({ ...license, end_date: at(days) });
    expect(licenseAttention(ends(tester!, EXPIRING_SOON_DAYS), NOW)).toBe("expiring");
    expect(licenseAttention(ends(cancelled!, 3), NOW)).toBe("expiring");
    expect(licenseAttention(ends(tester!, EXPIRING_SOON_DAYS + 0.01), NOW)).toBeNull();
    expect(licenseAttention(ends(renewing!, 3), NOW)).toBeNull();
    expect(attentionText("expiring", ends(tester!, 3), NOW)).toBe(
      "Ends Jun 18, 2026 without renewal: extend it to keep working.",
    );
  });

  it("the summary's sentences say what to do and by when", () => {
    expect(attentionText("payment-failed", pastDue, NOW)).toBe(
      "Payment failed: update the payment method before Jun 27, 2026 to keep it working.",
    );
  });
});

describe("the order of the licenses page", () => {
  it("the seeded user's failed payment comes first, alone; the rest (the refund too) by their next date", () => {
    const list = [...seeded.slice(0, 3), pastDue, ...seeded.slice(3)];
    const { attention, rest } = orderByAttention(list, NOW);
    expect(attention.map((item) => [item.license.name, item.kind])).toEqual([["past-due", "payment-failed"]]);
    expect(attention[0]!.text).toMatch(/^Payment failed: /);
    // The trial's end (5 days), the renewal (20), the tester's end (29), the cancelled one's end
    // (325); then those with no date ahead, in the order given (not by type: decision 0057).
    expect(rest.map((license) => license.name)).toEqual(
      [trial, renewing, tester, cancelled, trialEnded, expired, revoked, refundRequested, refunded].map(
        (license) => license!.name,
      ),
    );
  });

  it("kinds go in ATTENTION_KINDS order, and within a kind the sooner date first", () => {
    const list: Facts[] = [
      { ...refundRequested!, name: "refund" },
      { ...tester!, name: "tester-10", end_date: at(10) },
      { ...cancelled!, name: "cancelled-3", end_date: at(3) },
      { ...trial!, name: "trial-2", trial_ends_at: at(2), end_date: at(2) },
      { ...pastDue, name: "past-due" },
    ];
    const { attention, rest } = orderByAttention(list, NOW);
    expect(attention.map((item) => item.license.name)).toEqual(["past-due", "trial-2", "cancelled-3", "tester-10"]);
    expect(attention.map((item) => item.kind)).toEqual([...ATTENTION_KINDS, "expiring"]);
    expect(rest.map((license) => license.name)).toEqual(["refund"]);
    expect(orderByAttention([], NOW)).toEqual({ attention: [], rest: [] });
  });
});

describe("a compact row's next date and amount", () => {
  it("says what happens next and when, with the amount only when something is charged", () => {
    expect(licenseNextStep(renewing!, NOW)).toEqual({ next: "Renews Jul 5, 2026", amount: "$9.00" });
    expect(licenseNextStep(cancelled!, NOW)).toEqual({ next: "Ends May 6, 2027", amount: null });
    expect(licenseNextStep(trial!, NOW)).toEqual({ next: "Trial ends Jun 20, 2026", amount: null });
    expect(licenseNextStep(trialEnded!, NOW)).toEqual({ next: "Trial ended Feb 22, 2026", amount: null });
    expect(licenseNextStep(expired!, NOW)).toEqual({ next: "Expired May 29, 2026", amount: null });
    expect(licenseNextStep(revoked!, NOW)).toEqual({ next: null, amount: null });
    expect(licenseNextStep(refundRequested!, NOW)).toEqual({ next: null, amount: null });
    expect(licenseNextStep(refunded!, NOW)).toEqual({ next: "Refunded May 21, 2026", amount: null });
    expect(licenseNextStep({ ...refunded!, refunded_at: null }, NOW)).toEqual({ next: null, amount: null });
    expect(licenseNextStep(tester!, NOW)).toEqual({ next: "Ends Jul 14, 2026", amount: null });
    expect(licenseNextStep(pastDue, NOW)).toEqual({ next: "Works until Jun 27, 2026", amount: null });
    const converting = { ...renewing!, is_trial: true, trial_ends_at: at(2), end_date: at(2) };
    expect(licenseNextStep(converting, NOW)).toEqual({ next: "First charge Jun 17, 2026", amount: "$9.00" });
  });
});

describe("which rows start open", () => {
  it("a row that needs the customer, or every row of a short page", () => {
    expect(rowStartsOpen("payment-failed", 9)).toBe(true);
    expect(rowStartsOpen(null, 9)).toBe(false);
    expect(rowStartsOpen(null, ALL_OPEN_UP_TO)).toBe(true);
    expect(rowStartsOpen(null, ALL_OPEN_UP_TO + 1)).toBe(false);
  });
});
