import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applySeatChange,
  checkInvite,
  checkTakeSeat,
  decideSeatChange,
  freeSeats,
  invitableSeats,
  isSeatCount,
  proratedCents,
  renewSeats,
  SEAT_ERRORS,
  seatCapacity,
  type SeatFacts,
} from "~/domain/team-seats";

const facts = (paid: number, assigned: number, pending = 0, nextRenewal: number | null = null): SeatFacts => ({
  paid,
  assigned,
  pending,
  nextRenewal,
});

describe("seat accounting", () => {
  it("a team has 2 to 100 whole seats", () => {
    for (let n = -1; n <= 102; n++) expect(isSeatCount(n)).toBe(n >= 2 && n <= 100);
    expect(isSeatCount(2.5)).toBe(false);
    expect(isSeatCount(Number.NaN)).toBe(false);
  });

  it("free seats are the paid seats not held, and a scheduled reduction caps them", () => {
    expect(freeSeats(facts(5, 2))).toBe(3);
    expect(freeSeats(facts(5, 5))).toBe(0);
    expect(freeSeats(facts(5, 3, 0, 4))).toBe(1);
    expect(seatCapacity(facts(5, 3, 0, 4))).toBe(4);
    expect(seatCapacity(facts(5, 3, 0, null))).toBe(5);
  });

  it("invitations may not exceed the free seats not promised to open invitations", () => {
    expect(invitableSeats(facts(5, 2, 1))).toBe(2);
    expect(checkInvite(facts(5, 2, 1), 2)).toEqual({ ok: true });
    expect(checkInvite(facts(5, 2, 1), 3)).toEqual({ ok: false, error: SEAT_ERRORS.tooManyInvitations(2) });
    expect(checkInvite(facts(3, 3), 1)).toEqual({ ok: false, error: SEAT_ERRORS.tooManyInvitations(0) });
    expect(checkInvite(facts(5, 0), 0)).toEqual({ ok: false, error: SEAT_ERRORS.noInvitations });
    expect(SEAT_ERRORS.tooManyInvitations(1)).toBe("Only 1 free seat: invite at most 1 person.");
  });

  it("a seat can be taken only while one is free", () => {
    expect(checkTakeSeat(facts(3, 2))).toEqual({ ok: true });
    expect(checkTakeSeat(facts(3, 3))).toEqual({ ok: false, error: SEAT_ERRORS.noFreeSeat });
    expect(checkTakeSeat(facts(5, 3, 0, 3))).toEqual({ ok: false, error: SEAT_ERRORS.noFreeSeat });
  });

  it("more seats take effect now, fewer from the next renewal, never below the assigned seats", () => {
    expect(decideSeatChange(facts(3, 2), 5)).toEqual({ ok: true, effect: "now", seats: 5, added: 2 });
    expect(decideSeatChange(facts(5, 2), 3)).toEqual({ ok: true, effect: "next-renewal", seats: 3 });
    expect(decideSeatChange(facts(5, 4), 3)).toEqual({ ok: false, error: SEAT_ERRORS.belowAssigned(4) });
    expect(decideSeatChange(facts(5, 2), 5)).toEqual({ ok: false, error: SEAT_ERRORS.unchanged });
    expect(decideSeatChange(facts(5, 2, 0, 3), 5)).toEqual({ ok: true, effect: "cancel-reduction", seats: 5 });
    expect(decideSeatChange(facts(5, 2, 0, 3), 3)).toEqual({ ok: false, error: SEAT_ERRORS.unchanged });
    expect(decideSeatChange(facts(5, 2), 1)).toEqual({ ok: false, error: SEAT_ERRORS.seatCount });
    expect(decideSeatChange(facts(5, 2), 101)).toEqual({ ok: false, error: SEAT_ERRORS.seatCount });
    expect(decideSeatChange(facts(5, 2), 3.5)).toEqual({ ok: false, error: SEAT_ERRORS.seatCount });
  });

  it("applying a change and renewing move the counts as decided", () => {
    const now = applySeatChange(facts(3, 2, 0, 2), decideSeatChange(facts(3, 2, 0, 2), 6));
    expect(now).toEqual(facts(6, 2, 0, null));
    const later = applySeatChange(facts(6, 2), decideSeatChange(facts(6, 2), 4));
    expect(later).toEqual(facts(6, 2, 0, 4));
    expect(renewSeats(later)).toEqual(facts(4, 2, 0, null));
    expect(renewSeats(facts(6, 2))).toEqual(facts(6, 2));
    const refused = decideSeatChange(facts(6, 5), 4);
    expect(applySeatChange(facts(6, 5), refused)).toEqual(facts(6, 5));
  });

  it("the prorated charge is the added seats' share of the period left", () => {
    const period = { start: new Date("2026-01-01T00:00:00Z"), end: new Date("2026-01-31T00:00:00Z") };
    expect(proratedCents(900, 2, period, new Date("2026-01-16T00:00:00Z"))).toBe(900);
    expect(proratedCents(900, 2, period, period.start)).toBe(1800);
    expect(proratedCents(900, 2, period, period.end)).toBe(0);
    expect(proratedCents(900, 2, period, new Date("2027-01-01T00:00:00Z"))).toBe(0);
    expect(proratedCents(900, 0, period, period.start)).toBe(0);
    expect(proratedCents(900, 2, { start: period.end, end: period.end }, period.start)).toBe(0);
  });
});

type Step =
  | { kind: "invite"; count: number }
  | { kind: "accept" }
  | { kind: "remove" }
  | { kind: "withdraw" }
  | { kind: "change"; seats: number }
  | { kind: "renew" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("invite" as const), count: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant("accept" as const) }),
  fc.record({ kind: fc.constant("remove" as const) }),
  fc.record({ kind: fc.constant("withdraw" as const) }),
  fc.record({ kind: fc.constant("change" as const), seats: fc.integer({ min: 0, max: 102 }) }),
  fc.record({ kind: fc.constant("renew" as const) }),
);

/** One step as the services apply it: a refused step changes nothing. */
function run(state: SeatFacts, s: Step): SeatFacts {
  switch (s.kind) {
    case "invite":
      return checkInvite(state, s.count).ok ? { ...state, pending: state.pending + s.count } : state;
    case "accept":
      if (state.pending === 0 || !checkTakeSeat(state).ok) return state;
      return { ...state, pending: state.pending - 1, assigned: state.assigned + 1 };
    case "remove":
      return state.assigned > 0 ? { ...state, assigned: state.assigned - 1 } : state;
    case "withdraw":
      return state.pending > 0 ? { ...state, pending: state.pending - 1 } : state;
    case "change":
      return applySeatChange(state, decideSeatChange(state, s.seats));
    case "renew":
      return renewSeats(state);
  }
}

describe("the seat invariant (property)", () => {
  it("assigned seats never exceed paid seats through any sequence of invite, accept, remove, change and renewal", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), fc.array(step, { maxLength: 60 }), (paid, steps) => {
        let state = facts(paid, 0);
        for (const s of steps) {
          state = run(state, s);
          expect(state.assigned).toBeLessThanOrEqual(state.paid);
          expect(state.assigned).toBeLessThanOrEqual(seatCapacity(state));
          expect(isSeatCount(state.paid)).toBe(true);
          // After a renewal the reduction is in effect and still covers every assigned seat.
          expect(renewSeats(state).assigned).toBeLessThanOrEqual(renewSeats(state).paid);
        }
      }),
      { numRuns: 500, seed: 30 },
    );
  });
});
