import { describe, expect, it } from "vitest";
import { paymentDescription } from "~/domain/billing";
import { upcomingCharges } from "~/domain/billing-overview";
import { attentionText, licenseAttention, licenseNextStep } from "~/domain/license-attention";
import { licenseState, renewalPriceCents, type LicenseStateFacts } from "~/domain/license-state";
import { getPlan } from "~/domain/plans";

/**
 * A team's subscription renews for every seat the next renewal bills (the price × seats,
 * or the fewer seats scheduled from the next renewal); a member's seat is never charged.
 */

const NOW = new Date("2026-06-15T12:00:00.000Z");
const RENEWS = "2026-07-01T12:00:00.000Z";
const monthly = getPlan("monthly").priceCents;

const renewing: LicenseStateFacts = {
  license_type: "monthly",
  status: "active",
  end_date: RENEWS,
  is_trial: false,
  trial_ends_at: null,
  auto_renew: true,
  cancellation_requested: false,
  has_subscription: true,
  refunded: false,
  refund_eligible_until: null,
};
const billing = (seats: number): LicenseStateFacts => ({ ...renewing, team_role: "billing", renewal_seats: seats });
const seat: LicenseStateFacts = { ...renewing, team_role: "seat", has_subscription: false };

describe("a team's renewal charge", () => {
  it("is the plan price times the seats the next renewal bills", () => {
    expect(renewalPriceCents(billing(5))).toBe(monthly * 5);
    const state = licenseState(billing(5), NOW);
    expect(state.state).toBe("renewing");
    expect(state.nextChargeCents).toBe(monthly * 5);
    expect(licenseNextStep(billing(5), NOW).amount).toBe(`$${((monthly * 5) / 100).toFixed(2)}`);
    expect(state.line).toBe(`Active, renews on Jul 1, 2026 for $${((monthly * 5) / 100).toFixed(2)}`);
  });

  it("bills the fewer seats scheduled from the next renewal (the caller passes those)", () => {
    expect(licenseState(billing(2), NOW).nextChargeCents).toBe(monthly * 2);
  });

  it("never names one seat's price for a team subscription whose seats are not known", () => {
    const unknown = { ...renewing, team_role: "billing" };
    expect(renewalPriceCents(unknown)).toBeNull();
    expect(licenseState(unknown, NOW).line).toBe("Active, renews on Jul 1, 2026");
  });

  it("charges a member's seat nothing: no amount in its line, the overview or the attention notice", () => {
    const state = licenseState(seat, NOW);
    expect(state.state).toBe("renewing");
    expect(state.nextChargeCents).toBeNull();
    expect(state.line).not.toMatch(/\$/);
    expect(renewalPriceCents(seat)).toBeNull();
    expect(upcomingCharges([{ ...seat, id: "s", short_id: "FK-SEAT-0001" }], NOW)).toEqual([]);
    expect(licenseNextStep(seat, NOW)).toEqual({ next: "Renews Jul 1, 2026", amount: null });
  });

  it("lists the team's renewal on /billing with its seats", () => {
    const [charge] = upcomingCharges([{ ...billing(5), id: "b", short_id: "FK-TEAM-0001" }], NOW);
    expect(charge).toMatchObject({ amountCents: monthly * 5, kind: "renewal", seats: 5 });
    expect(charge!.text).toBe(
      `Jul 1, 2026: $${((monthly * 5) / 100).toFixed(2)} for 5 seats of the Monthly team subscription FK-TEAM-0001 (renewal)`,
    );
  });

  it("names a team's payments as the team subscription's in the billing history and on its invoice", () => {
    const payment = { license_type: "yearly", amount_cents: 27000 };
    expect(paymentDescription({ ...payment, kind: "purchase", team: true })).toBe("Yearly team subscription");
    expect(paymentDescription({ ...payment, kind: "renewal", team: true })).toBe("Yearly team subscription renewal");
    expect(paymentDescription({ ...payment, kind: "seats", team: true })).toBe("Added seats, Yearly team");
    expect(paymentDescription({ ...payment, kind: "purchase" })).toBe("Yearly license");
  });

  it("leaves a person's own license at the plan price", () => {
    expect(licenseState(renewing, NOW).nextChargeCents).toBe(monthly);
    expect(upcomingCharges([{ ...renewing, id: "p", short_id: "FK-OWN-0001" }], NOW)[0]).toMatchObject({
      amountCents: monthly,
      seats: null,
    });
  });

  it("does not ask a member to extend a seat whose team will not renew: that is the owner's", () => {
    const ending = { ...seat, auto_renew: false, cancellation_requested: true, end_date: "2026-06-20T12:00:00.000Z" };
    expect(licenseAttention(ending, NOW)).toBe("expiring");
    expect(attentionText("expiring", ending, NOW)).toBe(
      "Ends Jun 20, 2026: the team's subscription will not renew. Ask the team's owner to keep it.",
    );
    const own = { ...ending, team_role: null };
    expect(attentionText("expiring", own, NOW)).toBe("Ends Jun 20, 2026 without renewal: extend it to keep working.");
  });
});
