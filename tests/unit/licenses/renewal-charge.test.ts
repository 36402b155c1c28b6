import { describe, expect, it } from "vitest";
import { licenseState, type LicenseStateFacts } from "~/domain/license-state";
import { renewalCharge } from "~/domain/renewal-charge";
import type { SubscriptionCharge } from "~/domain/subscription-prices";
import { attentionText, licenseNextStep } from "~/domain/license-attention";
import { upcomingCharges } from "~/domain/billing-overview";

const NOW = new Date("2026-06-01T12:00:00Z");
const base = { license_type: "yearly", team_role: null, renewal_seats: null, plan_next_renewal: null } as const;
const eur = (kind: string, amount_cents: number): SubscriptionCharge => ({ kind, amount_cents, currency: "EUR" });

describe("the renewal's amount, in the subscription's currency (decision 0072)", () => {
  it("US dollars without payments, or with US-dollar ones: the plan table's price", () => {
    expect(renewalCharge(base)).toEqual({ cents: 9000, currency: "USD" });
    expect(renewalCharge({ ...base, charges: [{ kind: "purchase", amount_cents: 9000, currency: "USD" }] })).toEqual({
      cents: 9000,
      currency: "USD",
    });
  });

  it("another currency: the subscription's last full charge of its plan", () => {
    expect(renewalCharge({ ...base, charges: [eur("purchase", 10710)] })).toEqual({ cents: 10710, currency: "EUR" });
    expect(renewalCharge({ ...base, charges: [eur("purchase", 0), eur("renewal", 10710)] })).toEqual({
      cents: 10710,
      currency: "EUR",
    });
  });

  it("a first charge with a discount code's discount is not the full price: no amount until a full charge", () => {
    const discounted = { ...eur("purchase", 799), discount_id: "dsc_01" };
    expect(renewalCharge({ ...base, charges: [discounted] })).toEqual({ cents: null, currency: "EUR" });
    expect(renewalCharge({ ...base, charges: [discounted, eur("renewal", 999)] })).toEqual({
      cents: 999,
      currency: "EUR",
    });
  });

  it("a US-dollar extension bought later does not change the subscription's currency", () => {
    const charges = [eur("purchase", 10710), { kind: "extension", amount_cents: 2000, currency: "USD" }];
    expect(renewalCharge({ ...base, charges })).toEqual({ cents: 10710, currency: "EUR" });
  });

  it("no amount where the last charge does not say what the renewal bills: a trial's start, a switch, a team", () => {
    expect(renewalCharge({ ...base, charges: [eur("purchase", 0)] })).toEqual({ cents: null, currency: "EUR" });
    expect(renewalCharge({ ...base, charges: [eur("purchase", 1071), eur("plan_change", 5000)] })).toEqual({
      cents: null,
      currency: "EUR",
    });
    expect(renewalCharge({ ...base, plan_next_renewal: "monthly", charges: [eur("purchase", 10710)] })).toEqual({
      cents: null,
      currency: "EUR",
    });
    // A team's charge whose seats were not recorded (a payment from before they were kept).
    expect(
      renewalCharge({ ...base, team_role: "billing", renewal_seats: 3, charges: [eur("purchase", 32130)] }),
    ).toEqual({ cents: null, currency: "EUR" });
  });

  it("where the charges do not say it, a personal license's plan at the checkout's quote in that currency", () => {
    const quoted_prices = { currency: "EUR", plans: { monthly: 1071, "6_months": 5949, yearly: 10710 } };
    // A trial's zero start: its first charge is the plan's quoted price.
    expect(renewalCharge({ ...base, quoted_prices, charges: [eur("purchase", 0)] })).toEqual({
      cents: 10710,
      currency: "EUR",
    });
    // A switch's prorated charge, then a switch to a shorter plan waiting for the renewal.
    expect(
      renewalCharge({ ...base, quoted_prices, charges: [eur("purchase", 1071), eur("plan_change", 5000)] }),
    ).toEqual({ cents: 10710, currency: "EUR" });
    expect(
      renewalCharge({ ...base, quoted_prices, plan_next_renewal: "monthly", charges: [eur("purchase", 10710)] }),
    ).toEqual({ cents: 1071, currency: "EUR" });
    // With the cancel step's discount taken.
    expect(
      renewalCharge({ ...base, quoted_prices, renewal_discount_percent: 20, charges: [eur("purchase", 0)] }).cents,
    ).toBe(8568);
    // A quote in another currency than the subscription's, or a broken one, says nothing.
    const gbp = { currency: "GBP", plans: quoted_prices.plans };
    expect(renewalCharge({ ...base, quoted_prices: gbp, charges: [eur("purchase", 0)] }).cents).toBeNull();
    const broken = { currency: "EUR", plans: { ...quoted_prices.plans, yearly: -1 } };
    expect(renewalCharge({ ...base, quoted_prices: broken, charges: [eur("purchase", 0)] }).cents).toBeNull();
    // A team's subscription is priced by its seats' charges, never by a personal quote.
    expect(
      renewalCharge({ ...base, quoted_prices, team_role: "billing", renewal_seats: 3, charges: [eur("purchase", 0)] })
        .cents,
    ).toBeNull();
    // In US dollars the plan table is the price, whatever was quoted.
    expect(renewalCharge({ ...base, quoted_prices, charges: [] }).cents).toBe(9000);
  });

  it("a team in another currency: the seats its next renewal bills × the last full charge of one seat", () => {
    const team = { ...base, team_role: "billing" as const, renewal_seats: 3 };
    const bought = { ...eur("purchase", 32130), quantity: 3 };
    expect(renewalCharge({ ...team, charges: [bought] })).toEqual({ cents: 32130, currency: "EUR" });
    // Seats added since (their prorated charge is not a full one) or fewer from the renewal: the seats it will bill.
    const added = { ...eur("seats", 4000), quantity: 5 };
    expect(renewalCharge({ ...team, renewal_seats: 5, charges: [bought, added] })).toEqual({
      cents: 53550,
      currency: "EUR",
    });
    expect(
      renewalCharge({ ...team, renewal_seats: 2, charges: [bought, { ...eur("renewal", 53550), quantity: 5 }] }),
    ).toEqual({
      cents: 21420,
      currency: "EUR",
    });
    // No amount rather than a wrong one: a charge that does not divide by its seats, a switch waiting.
    expect(renewalCharge({ ...team, charges: [{ ...eur("purchase", 32131), quantity: 3 }] }).cents).toBeNull();
    expect(renewalCharge({ ...team, plan_next_renewal: "monthly", charges: [bought] }).cents).toBeNull();
  });

  it("nothing for a member's seat or a license without a plan, whatever the currency", () => {
    expect(renewalCharge({ ...base, team_role: "seat", charges: [eur("purchase", 1)] }).cents).toBeNull();
    expect(renewalCharge({ ...base, license_type: "trial" }).cents).toBeNull();
  });
});

describe("the cancel step's discount taken (decision 0065): the next renewal only, a personal license only", () => {
  it("takes its percent off the plan's price in US dollars, rounded to the cent", () => {
    expect(renewalCharge({ ...base, renewal_discount_percent: 20 })).toEqual({ cents: 7200, currency: "USD" });
    expect(renewalCharge({ ...base, license_type: "6_months", renewal_discount_percent: 15 })).toEqual({
      cents: 4207,
      currency: "USD",
    });
    expect(renewalCharge({ ...base, renewal_discount_percent: null })).toEqual({ cents: 9000, currency: "USD" });
  });

  it("takes its percent off the last full charge in another currency", () => {
    expect(renewalCharge({ ...base, renewal_discount_percent: 20, charges: [eur("purchase", 10710)] })).toEqual({
      cents: 8568,
      currency: "EUR",
    });
  });

  it("no discount on a team's subscription (the offer is never made there) or a seat", () => {
    expect(renewalCharge({ ...base, team_role: "billing", renewal_seats: 2, renewal_discount_percent: 20 })).toEqual({
      cents: 18000,
      currency: "USD",
    });
    expect(renewalCharge({ ...base, team_role: "seat", renewal_discount_percent: 20 }).cents).toBeNull();
  });
});

describe("what the card, the summary and the overview say of a euro subscription", () => {
  const renewing: LicenseStateFacts = {
    ...base,
    id: "l1",
    short_id: "FK-AB12-CD34",
    status: "active",
    is_trial: false,
    trial_ends_at: null,
    auto_renew: true,
    cancellation_requested: false,
    has_subscription: true,
    refunded: false,
    start_date: "2026-01-01T00:00:00Z",
    end_date: "2026-12-01T00:00:00Z",
    past_due_since: null,
    charges: [eur("purchase", 10710)],
  } as never;

  it("the state's line and next charge", () => {
    const state = licenseState(renewing, NOW);
    expect(state).toMatchObject({ nextChargeCents: 10710, nextChargeCurrency: "EUR" });
    expect(state.line).toBe("Active, renews on Dec 1, 2026 for €107.10");
    expect(licenseNextStep(renewing, NOW).amount).toBe("€107.10");
  });

  it("the billing overview's upcoming charge", () => {
    const [charge] = upcomingCharges([renewing as never], NOW);
    expect(charge).toMatchObject({ amountCents: 10710, currency: "EUR" });
    expect(charge!.text).toContain("€107.10");
  });

  it("a converting trial with no amount known yet says its first charge without one", () => {
    const trial = {
      ...renewing,
      is_trial: true,
      trial_ends_at: "2026-06-05T00:00:00Z",
      end_date: "2026-06-05T00:00:00Z",
      charges: [eur("purchase", 0)],
    } as LicenseStateFacts;
    expect(licenseState(trial, NOW)).toMatchObject({ state: "trial-converting", nextChargeCents: null });
    expect(attentionText("trial-ending", trial, NOW)).toBe(
      "Trial ends Jun 5, 2026: the first charge follows unless you cancel.",
    );
  });
});
