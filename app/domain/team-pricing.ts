import { formatPrice } from "./billing";
import { formatUsd, getPlan, isPlanId, type PlanId } from "./plans";
import { withReturnTo } from "./return-to";
import { TEAM_SEATS_MAX, TEAM_SEATS_MIN } from "./team-seats";

/**
 * The pricing page's team offer (decision 0047): a plan bought for 2–100 seats, the total shown as the
 * buyer types, and the choice carried through the address (`/pricing?plan=yearly&seats=5`) so the
 * form works before scripts and survives registration.
 */

export const TEAM_SEATS_ERROR = `Choose between ${TEAM_SEATS_MIN} and ${TEAM_SEATS_MAX} seats.`;

/** A seat count typed into the form: a whole number within the bounds, or null. */
export function parseTeamSeats(value: unknown): number | null {
  if (typeof value !== "string" || !/^\s*\d{1,3}\s*$/.test(value)) return null;
  const seats = Number(value);
  return seats >= TEAM_SEATS_MIN && seats <= TEAM_SEATS_MAX ? seats : null;
}

/** What the team pays per period: the plan's price per seat. */
export function teamTotalCents(planId: PlanId, seats: number): number {
  return getPlan(planId).priceCents * seats;
}

/**
 * "5 seats × $90 = $450 per year", or in the currency the page priced one seat in (decision 0072):
 * "5 seats × €99.99 = €499.95 per year".
 */
export function teamTotalLine(
  planId: PlanId,
  seats: number,
  seat: { amountMinor: number; currency: string } = { amountMinor: getPlan(planId).priceCents, currency: "USD" },
): string {
  const total = seat.amountMinor * seats;
  return `${seats} seats × ${formatPrice(seat.amountMinor, seat.currency)} = ${formatPrice(total, seat.currency)} ${getPlan(planId).period}`;
}

/** The pricing page with a team's checkout to open (once signed in, with scripts). */
export function pricingWithTeam(planId: PlanId, seats: number): string {
  return `/pricing?plan=${planId}&seats=${seats}`;
}

/** Where a visitor buying seats is sent: registration, then back to those seats. */
export function registerForTeam(planId: PlanId, seats: number): string {
  return withReturnTo("/register", pricingWithTeam(planId, seats));
}

/** The team choice in an address (`?plan=…&seats=…`), or null when it names no valid one. */
export function teamToOpen(search: URLSearchParams): { planId: PlanId; seats: number } | null {
  const planId = search.get("plan");
  const seats = parseTeamSeats(search.get("seats"));
  return isPlanId(planId) && seats !== null ? { planId, seats } : null;
}

/** What /register says about the plan a visitor chose on the pricing page before registering. */
export interface ChosenPlanSummary {
  /** "Monthly" or "Monthly for 3 seats". */
  name: string;
  /** "$9 per month" or "3 seats × $9 = $27 per month". */
  price: string;
  /** Whether the checkout starts with the free trial: one person's first plan does, a team never. */
  trial: boolean;
}

/**
 * The choice carried in registration's return address (`/pricing?plan=monthly`, or with `&seats=3`
 * for a team), in words; null for any other address. A team is its seats and their total, without
 * a trial (the team checkout has none): not the one-seat price with a trial.
 */
export function chosenPlanSummary(returnTo: string | null | undefined): ChosenPlanSummary | null {
  if (!returnTo?.startsWith("/pricing?")) return null;
  const search = new URLSearchParams(returnTo.slice("/pricing?".length));
  const team = teamToOpen(search);
  if (team) {
    const plan = getPlan(team.planId);
    return {
      name: `${plan.name} for ${team.seats} seats`,
      price: teamTotalLine(team.planId, team.seats),
      trial: false,
    };
  }
  const planId = search.get("plan");
  if (!isPlanId(planId)) return null;
  const plan = getPlan(planId);
  return { name: plan.name, price: `${formatUsd(plan.priceCents)} ${plan.period}`, trial: true };
}
