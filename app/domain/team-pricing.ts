import { formatUsd, getPlan, isPlanId, type PlanId } from "./plans";
import { withReturnTo } from "./return-to";
import { TEAM_SEATS_MAX, TEAM_SEATS_MIN } from "./team-seats";

/**
 * The pricing page's team offer (issue 30): a plan bought for 2–100 seats, the total shown as the
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

/** "5 seats × $90 = $450 per year". */
export function teamTotalLine(planId: PlanId, seats: number): string {
  const plan = getPlan(planId);
  return `${seats} seats × ${formatUsd(plan.priceCents)} = ${formatUsd(teamTotalCents(planId, seats))} ${plan.period}`;
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
