/**
 * Seat accounting of a team (decision 0046), pure. A team pays for `paid` seats now; a reduction asked
 * for takes effect at the next renewal (`nextRenewal`), and while it is scheduled no more seats
 * are handed out than it allows, so assigned seats never exceed paid seats, before or after the
 * renewal. More seats take effect now (the provider prorates the charge).
 */

export const TEAM_SEATS_MIN = 2;
export const TEAM_SEATS_MAX = 100;

export interface SeatFacts {
  /** Seats the provider bills now. */
  paid: number;
  /** Seats held by members (seat licenses). */
  assigned: number;
  /** Open invitations (pending, not expired). */
  pending: number;
  /** A reduction scheduled for the next renewal, or null. */
  nextRenewal: number | null;
}

export const SEAT_ERRORS = {
  seatCount: `A team has between ${TEAM_SEATS_MIN} and ${TEAM_SEATS_MAX} seats.`,
  noInvitations: "Enter at least one e-mail address.",
  tooManyInvitations: (free: number) =>
    free === 0
      ? "There are no free seats to invite to. Add seats or withdraw an invitation first."
      : `Only ${free} free ${free === 1 ? "seat" : "seats"}: invite at most ${free} ${free === 1 ? "person" : "people"}.`,
  noFreeSeat: "There is no free seat left in this team. Ask the team's owner to add seats.",
  belowAssigned: (assigned: number) =>
    `The team has ${assigned} assigned seats: remove members before going below ${assigned}.`,
  unchanged: "The team already has this many seats.",
} as const;

/** Whether a seat count is one a team may have (2–100, whole). */
export function isSeatCount(value: number): boolean {
  return Number.isInteger(value) && value >= TEAM_SEATS_MIN && value <= TEAM_SEATS_MAX;
}

/** Seats that may be held: the paid seats, or the scheduled reduction's count when lower. */
export function seatCapacity(facts: SeatFacts): number {
  return facts.nextRenewal === null ? facts.paid : Math.min(facts.paid, facts.nextRenewal);
}

/** Seats nobody holds (what the team page shows as free). */
export function freeSeats(facts: SeatFacts): number {
  return Math.max(0, seatCapacity(facts) - facts.assigned);
}

/** How many more people may be invited: free seats not already promised to an open invitation. */
export function invitableSeats(facts: SeatFacts): number {
  return Math.max(0, freeSeats(facts) - facts.pending);
}

export type SeatDecision = { ok: true } | { ok: false; error: string };

/** Inviting `count` addresses at once: at least one, never more than the invitable seats. */
export function checkInvite(facts: SeatFacts, count: number): SeatDecision {
  if (count < 1) return { ok: false, error: SEAT_ERRORS.noInvitations };
  const room = invitableSeats(facts);
  if (count > room) return { ok: false, error: SEAT_ERRORS.tooManyInvitations(room) };
  return { ok: true };
}

/** Taking a seat (accepting an invitation, a domain claim, the owner's own seat): a free seat must exist. */
export function checkTakeSeat(facts: SeatFacts): SeatDecision {
  return freeSeats(facts) > 0 ? { ok: true } : { ok: false, error: SEAT_ERRORS.noFreeSeat };
}

/** A seat count change and when it takes effect. */
export type SeatChange =
  | { ok: true; effect: "now"; seats: number; added: number }
  | { ok: true; effect: "next-renewal"; seats: number }
  | { ok: true; effect: "cancel-reduction"; seats: number }
  | { ok: false; error: string };

/**
 * Changing the seat count to `requested`: more than paid is bought now (prorated); fewer takes effect
 * at the next renewal and never goes below the assigned seats; asking for the paid count again while
 * a reduction is scheduled cancels the reduction.
 */
export function decideSeatChange(facts: SeatFacts, requested: number): SeatChange {
  if (!isSeatCount(requested)) return { ok: false, error: SEAT_ERRORS.seatCount };
  if (requested > facts.paid) return { ok: true, effect: "now", seats: requested, added: requested - facts.paid };
  if (requested < facts.assigned) return { ok: false, error: SEAT_ERRORS.belowAssigned(facts.assigned) };
  if (requested === facts.paid) {
    return facts.nextRenewal === null
      ? { ok: false, error: SEAT_ERRORS.unchanged }
      : { ok: true, effect: "cancel-reduction", seats: requested };
  }
  if (requested === facts.nextRenewal) return { ok: false, error: SEAT_ERRORS.unchanged };
  return { ok: true, effect: "next-renewal", seats: requested };
}

/** The facts after a change was applied (what the database then holds). */
export function applySeatChange(facts: SeatFacts, change: SeatChange): SeatFacts {
  if (!change.ok) return facts;
  if (change.effect === "now") return { ...facts, paid: change.seats, nextRenewal: null };
  if (change.effect === "cancel-reduction") return { ...facts, nextRenewal: null };
  return { ...facts, nextRenewal: change.seats };
}

/** The subscription renewed: a scheduled reduction takes effect (the provider bills that many from now). */
export function renewSeats(facts: SeatFacts): SeatFacts {
  if (facts.nextRenewal === null) return facts;
  return { ...facts, paid: facts.nextRenewal, nextRenewal: null };
}

/** The price of `seats` seats of a plan at `unitCents` each. */
export function seatsTotalCents(unitCents: number, seats: number): number {
  return unitCents * seats;
}

/**
 * What adding seats now costs for the rest of the period, as the provider prorates it: the unit price
 * times the added seats times the share of the period left (rounded to the cent). An estimate shown
 * before confirming; the provider's transaction is the amount charged.
 */
export function proratedCents(unitCents: number, added: number, period: { start: Date; end: Date }, now: Date): number {
  const total = period.end.getTime() - period.start.getTime();
  if (total <= 0 || added <= 0) return 0;
  const left = Math.min(Math.max(period.end.getTime() - now.getTime(), 0), total);
  return Math.round((unitCents * added * left) / total);
}
