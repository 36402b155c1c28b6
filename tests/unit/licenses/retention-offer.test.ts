import { describe, expect, it } from "vitest";
import {
  CANCEL_NOTE_MAX,
  cheaperPeriodOf,
  parseCancelAnswer,
  offerTakenToast,
  retentionOffer,
  retentionOfferTexts,
  type RetentionFacts,
} from "~/domain/retention-offer";
import { formatDate } from "~/domain/format-date";
import { discountedCents } from "~/domain/renewal-charge";

const now = new Date("2026-11-28T00:00:00Z");
const end = "2027-01-10T00:00:00.000Z";
const base: RetentionFacts = {
  license_type: "yearly",
  status: "active",
  end_date: end,
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: null,
  past_due_since: null,
  team_role: null,
  plan_next_renewal: null,
  retention_offer_outcome: null,
};
const discount = { discountId: "dsc_01retain", discountPercent: 20 };
const none = { discountId: null, discountPercent: 20 };

describe("the cancel step's answer", () => {
  it("takes no reason and no note, a listed reason, and a note up to the limit", () => {
    expect(parseCancelAnswer({ reason: "", note: "  " })).toEqual({ ok: true, answer: { reason: null, note: null } });
    expect(parseCancelAnswer({ reason: null, note: null })).toEqual({ ok: true, answer: { reason: null, note: null } });
    expect(parseCancelAnswer({ reason: "too-expensive", note: "x".repeat(CANCEL_NOTE_MAX) })).toEqual({
      ok: true,
      answer: { reason: "too-expensive", note: "x".repeat(CANCEL_NOTE_MAX) },
    });
  });
  it("refuses an unknown reason and a note too long", () => {
    expect(parseCancelAnswer({ reason: "bored", note: "" })).toMatchObject({
      ok: false,
      message: /not one of the reasons/,
    });
    expect(parseCancelAnswer({ reason: "", note: "x".repeat(CANCEL_NOTE_MAX + 1) })).toMatchObject({
      ok: false,
      message: /too long/,
    });
  });
});

describe("the offer's eligibility", () => {
  it("offers the configured discount on the next renewal, with its charge and date", () => {
    expect(retentionOffer(base, discount, now)).toEqual({
      kind: "discount",
      discountId: "dsc_01retain",
      percent: 20,
      nextChargeCents: 7200,
      nextChargeAt: end,
      currency: "USD",
    });
  });
  it("without a discount, offers the next shorter period; none for the monthly plan", () => {
    expect(retentionOffer(base, none, now)).toEqual({
      kind: "cheaper-period",
      to: "6_months",
      nextChargeCents: 4950,
      nextChargeAt: end,
      currency: "USD",
    });
    expect(retentionOffer({ ...base, license_type: "6_months" }, none, now)).toMatchObject({
      to: "monthly",
      nextChargeCents: 900,
    });
    expect(retentionOffer({ ...base, license_type: "monthly" }, none, now)).toBeNull();
    expect(retentionOffer({ ...base, license_type: "monthly" }, discount, now)).toMatchObject({
      kind: "discount",
      nextChargeCents: 720,
    });
  });
  it("a euro subscription's offer is in euros: its renewal or the checkout's quote; none where unknown", () => {
    const charges = [{ kind: "purchase", amount_cents: 10710, currency: "EUR" }];
    const quoted_prices = { currency: "EUR", plans: { monthly: 1071, "6_months": 5949, yearly: 10710 } };
    const euros = { ...base, charges, quoted_prices };
    expect(retentionOffer(euros, discount, now)).toMatchObject({ nextChargeCents: 8568, currency: "EUR" });
    const cheaper = retentionOffer(euros, none, now)!;
    expect(cheaper).toMatchObject({ to: "6_months", nextChargeCents: 5949, currency: "EUR" });
    expect(retentionOfferTexts(cheaper).body).toBe(
      `Keep renewing every 6 months instead: the next charge is €59.49 on ${formatDate(end)}, and €59.49 every 6 months after that.`,
    );
    expect(offerTakenToast(retentionOffer(euros, discount, now)!).description).toBe(
      `Your next charge is €85.68 on ${formatDate(end)} (20% off).`,
    );
    // Bought before the quote was kept: the discount still has its renewal (the last full charge); the
    // shorter period's price in euros is not known, so it is not offered.
    expect(retentionOffer({ ...base, charges }, discount, now)).toMatchObject({ nextChargeCents: 8568 });
    expect(retentionOffer({ ...base, charges }, none, now)).toBeNull();
  });
  it("makes no offer Paddle would refuse or that makes no sense, nor a second one", () => {
    const refused: Partial<RetentionFacts>[] = [
      { retention_offer_outcome: "declined" },
      { retention_offer_outcome: "taken" },
      { is_trial: true },
      { license_type: "trial" },
      { license_type: "tester" },
      { past_due_since: "2026-11-20T00:00:00Z" },
      { team_role: "seat" },
      { team_role: "billing" },
      { cancellation_requested: true, auto_renew: false },
      { plan_next_renewal: "monthly" },
      { status: "revoked" },
      { refunded: true },
      { has_subscription: false },
      { end_date: "2026-11-01T00:00:00Z" },
    ];
    for (const change of refused)
      expect(retentionOffer({ ...base, ...change }, discount, now), JSON.stringify(change)).toBeNull();
  });
  it("cheaper period and discount arithmetic", () => {
    expect(cheaperPeriodOf("yearly")).toBe("6_months");
    expect(cheaperPeriodOf("monthly")).toBeNull();
    expect(discountedCents(4950, 20)).toBe(3960);
    expect(discountedCents(900, 15)).toBe(765);
  });
});
