import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canCopyKey, isInactiveLicense, nextCardChange, summarizeLicense } from "~/domain/license-card";
import { isRefundEligible, type LicenseFacts } from "~/domain/license-status";
import { graceEndsAt, isInGracePeriod } from "~/domain/past-due";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

type Facts = LicenseFacts & { refunded_at: Date | null };
const base: Facts = {
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
  past_due_since: null,
};

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
