import { CANCEL_REASONS, type CancelReason } from "./retention-offer";
import { getPlan, isPlanId } from "./plans";

/**
 * The admin overview's months of leaving and MRR movement (decision 0065): pure, so the SQL only
 * counts and these rules are unit-tested. Months are UTC calendar months ("2026-11").
 */

export const MOVEMENT_MONTHS = 6;

export const MRR_MOVEMENTS = ["new", "expansion", "contraction", "churn"] as const;
export type MrrMovement = (typeof MRR_MOVEMENTS)[number];

/** One counted fact: a purchase or converted trial (new), a plan switch, or a renewal that ended (churn). */
export type MovementFact =
  { kind: "new"; plan: string } | { kind: "plan-change"; from: string; to: string } | { kind: "churn"; plan: string };

/** A plan's monthly recurring revenue in cents (its price over its months, unrounded); 0 for no plan. */
export function planMrrCents(plan: string): number {
  if (!isPlanId(plan)) return 0;
  const { priceCents, months } = getPlan(plan);
  return priceCents / months;
}

/**
 * How a fact moves MRR, and by how much (cents a month, positive): new and churn by their plan; a
 * plan switch (a `plan_change` payment or `license.plan_changed`) is expansion when the new plan's
 * MRR is higher, contraction when lower, and no movement when equal or not plans.
 */
export function classifyMovement(fact: MovementFact): { movement: MrrMovement; cents: number } | null {
  if (fact.kind === "new" || fact.kind === "churn") {
    const cents = planMrrCents(fact.plan);
    return cents > 0 ? { movement: fact.kind, cents } : null;
  }
  if (!isPlanId(fact.from) || !isPlanId(fact.to)) return null;
  const delta = planMrrCents(fact.to) - planMrrCents(fact.from);
  if (delta === 0) return null;
  return delta > 0 ? { movement: "expansion", cents: delta } : { movement: "contraction", cents: -delta };
}

export type MonthMovement = { month: string } & Record<MrrMovement, number>;

/** "2026-11" for a date's UTC month. */
export function utcMonth(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The first instant of the window: the first of the month, `months - 1` months before this one (UTC). */
export function monthsStart(now: Date, months = MOVEMENT_MONTHS): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
}

/** The window's months, oldest first. */
export function windowMonths(now: Date, months = MOVEMENT_MONTHS): string[] {
  const start = monthsStart(now, months);
  return Array.from({ length: months }, (_, i) =>
    utcMonth(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1))),
  );
}

/** Counted facts (each with how many) summed per month and movement, cents rounded once per cell. */
export function movementByMonth(
  rows: { month: string; fact: MovementFact; count: number }[],
  now: Date,
  months = MOVEMENT_MONTHS,
): MonthMovement[] {
  const byMonth = new Map(
    windowMonths(now, months).map((month) => [month, { month, new: 0, expansion: 0, contraction: 0, churn: 0 }]),
  );
  for (const row of rows) {
    const point = byMonth.get(row.month);
    const moved = classifyMovement(row.fact);
    if (point && moved) point[moved.movement] += moved.cents * Number(row.count);
  }
  return [...byMonth.values()].map((point) => ({
    month: point.month,
    new: Math.round(point.new),
    expansion: Math.round(point.expansion),
    contraction: Math.round(point.contraction),
    churn: Math.round(point.churn),
  }));
}

/** Net movement of a month: new and expansion less contraction and churn. */
export function netMovement(point: MonthMovement): number {
  return point.new + point.expansion - point.contraction - point.churn;
}

export type LeavingMonth = {
  month: string;
  /** Cancellations by reason ("none" when no reason was given). */
  byReason: Record<CancelReason | "none", number>;
  cancellations: number;
  offersMade: number;
  offersTaken: number;
};

/** Cancel-step answers counted by month, reason and offer outcome, shaped per month. */
export function leavingByMonth(
  rows: { month: string; reason: string | null; outcome: string | null; count: number }[],
  now: Date,
  months = MOVEMENT_MONTHS,
): LeavingMonth[] {
  const empty = (month: string): LeavingMonth => ({
    month,
    byReason: Object.fromEntries([...CANCEL_REASONS, "none"].map((r) => [r, 0])) as LeavingMonth["byReason"],
    cancellations: 0,
    offersMade: 0,
    offersTaken: 0,
  });
  const byMonth = new Map(windowMonths(now, months).map((month) => [month, empty(month)]));
  for (const row of rows) {
    const point = byMonth.get(row.month);
    if (!point) continue;
    const count = Number(row.count);
    if (row.outcome !== null) point.offersMade += count;
    if (row.outcome === "taken") {
      point.offersTaken += count;
      continue;
    }
    point.cancellations += count;
    const reason = (CANCEL_REASONS as readonly string[]).includes(row.reason ?? "")
      ? (row.reason as CancelReason)
      : "none";
    point.byReason[reason] += count;
  }
  return [...byMonth.values()];
}

/** The admin overview's column for each reason (short; the customer saw CANCEL_REASON_LABELS). */
export const LEAVING_REASON_LABELS: Record<CancelReason | "none", string> = {
  "too-expensive": "Too expensive",
  "not-using": "Not using it",
  "missing-feature": "Missing feature",
  switching: "Switching",
  "technical-problems": "Technical problems",
  other: "Other",
  none: "No reason",
};

export const MRR_MOVEMENT_LABELS: Record<MrrMovement, string> = {
  new: "New",
  expansion: "Expansion",
  contraction: "Contraction",
  churn: "Churn",
};

/** "Nov 2026" for "2026-11" (the month a row counts, UTC). */
export function monthLabel(month: string): string {
  const [year, number] = month.split("-").map(Number);
  return new Date(Date.UTC(year!, number! - 1, 1)).toLocaleString("en-US", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** The admin overview's last months: MRR movement and the cancel step's answers, oldest first. */
export interface MonthsOverview {
  movement: MonthMovement[];
  leaving: LeavingMonth[];
}
