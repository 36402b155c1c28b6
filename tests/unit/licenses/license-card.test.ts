import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canCopyKey,
  canExtendLicense,
  endedOffer,
  groupLicenses,
  isInactiveLicense,
  nextCardChange,
  revokedNote,
  summarizeLicense,
} from "~/domain/license-card";
import { isRefundEligible, type LicenseFacts } from "~/domain/license-status";
import { graceEndsAt, isInGracePeriod } from "~/domain/past-due";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

const base: LicenseFacts & { refunded_at: Date | null } = {
  license_type: "monthly",
  status: "active",
  end_date: at(10),
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: at(5),
  refunded_at: null,
};
const license = (change: Partial<typeof base>) => ({ ...base, ...change });

describe("summarizeLicense: one badge and one line that agree", () => {
  it("an auto-renewing license says when it renews and for how much, once", () => {
    expect(summarizeLicense(base, NOW)).toEqual({
      kind: "active",
      badge: { label: "Active", tone: "success" },
      line: "Active, renews on Jun 25, 2026 for $9.00",
    });
  });

  it("a cancelled renewal and a license without renewal say until", () => {
    expect(summarizeLicense(license({ cancellation_requested: true }), NOW).line).toBe(
      "Active until Jun 25, 2026; automatic renewal is cancelled",
    );
    expect(summarizeLicense(license({ auto_renew: false }), NOW).line).toBe("Active, until Jun 25, 2026");
  });

  it("a refund-requested license says nothing about renewing", () => {
    const summary = summarizeLicense(license({ status: "refund_requested" }), NOW);
    expect(summary.badge.label).toBe("Refund requested");
    expect(summary.line).not.toMatch(/renew|Active/i);
  });

  it("refunded, revoked, expired and trials", () => {
    expect(summarizeLicense(license({ status: "refunded", refunded: true, refunded_at: at(-2) }), NOW)).toMatchObject({
      kind: "refunded",
      badge: { label: "Refunded" },
      line: "Refunded on Jun 13, 2026",
    });
    expect(summarizeLicense(license({ status: "revoked" }), NOW)).toMatchObject({ badge: { label: "Revoked" } });
    expect(summarizeLicense(license({ end_date: at(-1) }), NOW)).toMatchObject({
      badge: { label: "Expired" },
      line: "Expired on Jun 14, 2026",
    });
    const trial = license({ license_type: "trial", is_trial: true, trial_ends_at: at(3), has_subscription: false });
    expect(summarizeLicense(trial, NOW).line).toBe("Active, trial until Jun 18, 2026");
    // A trial wears its own badge, not a paid license's green "Active" (decision 0040).
    expect(summarizeLicense(trial, NOW).badge).toEqual({ label: "Trial", tone: "info" });
    expect(summarizeLicense({ ...trial, trial_ends_at: at(-3) }, NOW)).toMatchObject({
      badge: { label: "Trial Expired" },
      line: "Trial Expired on Jun 12, 2026",
    });
    const planTrial = license({ is_trial: true, trial_ends_at: at(3) });
    expect(summarizeLicense(planTrial, NOW).line).toBe(
      "Active, trial until Jun 18, 2026; first charge $9.00 on Jun 18, 2026, then renews automatically",
    );
  });
});

describe("summarizeLicense: a failed renewal payment", () => {
  it("says the payment failed and until when it works, never that it renews", () => {
    const pastDue = license({ end_date: at(-2), past_due_since: at(-2) });
    const summary = summarizeLicense(pastDue, NOW);
    expect(summary).toEqual({
      kind: "active",
      badge: { label: "Payment failed", tone: "warning" },
      line: "Payment failed: active until Jun 27, 2026 unless a payment goes through",
    });
    expect(summary.line).not.toMatch(/renews/);
    expect(groupLicenses([pastDue], NOW).active).toHaveLength(1);
  });

  it("after the grace period it is expired like any other", () => {
    const over = license({ end_date: at(-20), past_due_since: at(-20) });
    expect(summarizeLicense(over, NOW)).toMatchObject({ kind: "expired", badge: { label: "Expired" } });
  });
});

describe("groupLicenses", () => {
  it("keeps active and refund-requested licenses first, in order, and moves the others under inactive", () => {
    const list = [
      { ...license({ end_date: at(-1) }), name: "expired" },
      { ...base, name: "active" },
      { ...license({ status: "revoked" }), name: "revoked" },
      { ...license({ status: "refund_requested" }), name: "refund requested" },
      { ...license({ status: "refunded", refunded: true }), name: "refunded" },
      { ...license({ is_trial: true, trial_ends_at: at(-1) }), name: "trial expired" },
      { ...license({ auto_renew: false }), name: "not renewing" },
    ];
    const { active, inactive } = groupLicenses(list, NOW);
    expect(active.map((l) => l.name)).toEqual(["active", "refund requested", "not renewing"]);
    expect(inactive.map((l) => l.name)).toEqual(["expired", "revoked", "refunded", "trial expired"]);
  });
});

describe("canExtendLicense and canCopyKey", () => {
  it("extends paid plans, also expired ones; never free tester licenses, trials, revoked or refunded ones", () => {
    expect(canExtendLicense(base)).toBe(true);
    expect(canExtendLicense(license({ license_type: "tester", has_subscription: false }))).toBe(false);
    expect(canExtendLicense(license({ end_date: at(-30) }))).toBe(true);
    expect(canExtendLicense(license({ license_type: "trial", is_trial: true }))).toBe(false);
    expect(canExtendLicense(license({ is_trial: true, trial_ends_at: at(3) }))).toBe(false);
    expect(canExtendLicense(license({ status: "revoked" }))).toBe(false);
    expect(canExtendLicense(license({ status: "refund_requested" }))).toBe(false);
    expect(canExtendLicense(license({ status: "refunded", refunded: true }))).toBe(false);
  });

  it("offers Copy unless the key no longer works or is hidden", () => {
    expect(canCopyKey(base, NOW)).toBe(true);
    // An expired license's or ended trial's key activates nothing: no Copy (decision 0057).
    expect(canCopyKey(license({ end_date: at(-1), auto_renew: false }), NOW)).toBe(false);
    expect(canCopyKey(license({ is_trial: true, trial_ends_at: at(-1), end_date: at(-1) }), NOW)).toBe(false);
    expect(canCopyKey(license({ status: "revoked" }), NOW)).toBe(false);
    expect(canCopyKey(license({ status: "refund_requested" }), NOW)).toBe(false);
  });

  it("an ended license offers Extend where allowed, otherwise buying a plan; a working one neither", () => {
    expect(endedOffer(base, NOW)).toBeNull();
    expect(endedOffer(license({ end_date: at(-1), auto_renew: false }), NOW)?.next).toBe("extend");
    const tester = license({ license_type: "tester", has_subscription: false, auto_renew: false, end_date: at(-1) });
    expect(endedOffer(tester, NOW)?.next).toBe("buy");
    const trial = license({ license_type: "trial", is_trial: true, trial_ends_at: at(-1), end_date: at(-1) });
    expect(endedOffer(trial, NOW)).toEqual({
      next: "buy",
      line: "This trial has ended and its key no longer works. Buy a plan to keep using the tool.",
    });
  });
});

type Facts = typeof base;

/** Everything a card shows that depends on the clock. */
function cardAt(license: Facts, now: Date) {
  const graceEnd = graceEndsAt(license);
  return {
    summary: summarizeLicense(license, now),
    inactive: isInactiveLicense(license, now),
    copy: canCopyKey(license, now),
    refund: isRefundEligible(license, now),
    grace: isInGracePeriod(license, now),
    paymentNoticeWorking: graceEnd !== null && graceEnd > now,
  };
}

describe("nextCardChange: until when a page of license cards stays right", () => {
  it("is the earliest moment ahead among trial end, end date, refund window and grace end", () => {
    expect(nextCardChange([base], NOW)).toEqual(at(5));
    expect(nextCardChange([{ ...base, refund_eligible_until: at(-1) }], NOW)).toEqual(at(10));
    expect(
      nextCardChange([{ ...base, is_trial: true, trial_ends_at: at(2), refund_eligible_until: null }], NOW),
    ).toEqual(at(2));
    // Past due with the end date behind: the grace period's end is next.
    expect(
      nextCardChange([{ ...base, end_date: at(-3), refund_eligible_until: null, past_due_since: at(-4) }], NOW),
    ).toEqual(at(11));
    expect(nextCardChange([base, { ...base, end_date: at(1), refund_eligible_until: null }], NOW)).toEqual(at(1));
  });

  it("is null when nothing lies ahead (and for no licenses)", () => {
    expect(nextCardChange([{ ...base, end_date: at(-1), refund_eligible_until: at(-2) }], NOW)).toBeNull();
    expect(nextCardChange([], NOW)).toBeNull();
  });

  it("reads ISO strings as the page's data carries them", () => {
    expect(nextCardChange([{ ...base, end_date: at(3).toISOString(), refund_eligible_until: null }], NOW)).toEqual(
      at(3),
    );
  });

  it("property: at any moment before it, every card says and offers exactly what it did at first", () => {
    const offset = fc.integer({ min: -40 * DAY, max: 40 * DAY });
    const maybe = fc.option(offset, { nil: null });
    const licenseArb = fc.record({
      status: fc.constantFrom("active", "revoked", "refund_requested"),
      license_type: fc.constantFrom("monthly", "yearly", "tester", "trial"),
      end: offset,
      is_trial: fc.boolean(),
      trial_end: maybe,
      auto_renew: fc.boolean(),
      cancellation_requested: fc.boolean(),
      has_subscription: fc.boolean(),
      refunded: fc.boolean(),
      refund_until: maybe,
      past_due: maybe,
    });
    const toDate = (ms: number | null) => (ms === null ? null : new Date(NOW.getTime() + ms));
    fc.assert(
      fc.property(
        fc.array(licenseArb, { minLength: 1, maxLength: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (raw, f) => {
          const list: Facts[] = raw.map((r) => ({
            ...base,
            status: r.status,
            license_type: r.license_type,
            end_date: toDate(r.end)!,
            is_trial: r.is_trial,
            trial_ends_at: toDate(r.trial_end),
            auto_renew: r.auto_renew,
            cancellation_requested: r.cancellation_requested,
            has_subscription: r.has_subscription,
            refunded: r.refunded,
            refund_eligible_until: toDate(r.refund_until),
            past_due_since: toDate(r.past_due),
          }));
          const next = nextCardChange(list, NOW);
          const horizon = next ? next.getTime() : NOW.getTime() + 100 * DAY;
          const later = new Date(NOW.getTime() + Math.floor(f * (horizon - NOW.getTime() - 1)));
          for (const license of list) expect(cardAt(license, later)).toEqual(cardAt(license, NOW));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("revokedNote: who a revoked card sends the customer to", () => {
  it("a member removed from their team is sent to its owner, in the removal e-mail's words", () => {
    expect(revokedNote({ revoked_reason: "removed from team", team: { name: "Acme Ltd", role: "seat" } })).toBe(
      "You were removed from Acme Ltd; ask its owner if you think this is a mistake.",
    );
  });

  it("any other revocation (an admin's, a chargeback's, a team's subscription) points to support", () => {
    const support = /^Contact support if you think this is a mistake\.$/;
    expect(revokedNote({ revoked_reason: null, team: null })).toMatch(support);
    expect(revokedNote({ revoked_reason: null, team: { name: "Acme Ltd", role: "seat" } })).toMatch(support);
    expect(revokedNote({ revoked_reason: "removed from team", team: { name: "Acme", role: "billing" } })).toMatch(
      support,
    );
    // With the site's address, named (docs/voice.md: a next step names where to go).
    expect(revokedNote({ revoked_reason: null, team: null }, "help@forgekit.example")).toBe(
      "Contact support at help@forgekit.example if you think this is a mistake.",
    );
  });
});
