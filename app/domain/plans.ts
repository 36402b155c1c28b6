/**
 * The plan catalogue (docs/product.md, "Buying"): prices in cents (USD, per license), all plans
 * auto-renewing with cancel anytime; a 7-day trial for buyers with no license yet.
 * Pure: used by the pricing page in the browser and by checkout and refunds on the server.
 */

export const PLAN_IDS = ["monthly", "6_months", "yearly"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const TRIAL_DAYS = 7;
/** A purchase can be refunded in the app for this many days (refund policy: 14 days). */
export const REFUND_WINDOW_DAYS = 14;
/** The in-app refund is 95% of the plan price, rounded up to the cent. */
export const REFUND_PERCENT = 95;

export interface Plan {
  id: PlanId;
  name: string;
  priceCents: number;
  months: number;
  period: string;
  features: string[];
}

export const PLANS: readonly Plan[] = [
  {
    id: "monthly",
    name: "Monthly",
    priceCents: 900,
    months: 1,
    period: "per month",
    features: ["All features", "Updates while subscribed", "E-mail support"],
  },
  {
    id: "6_months",
    name: "6 Months",
    priceCents: 4950,
    months: 6,
    period: "every 6 months",
    features: ["All features", "Updates while subscribed", "E-mail support"],
  },
  {
    id: "yearly",
    name: "Yearly",
    priceCents: 9000,
    months: 12,
    period: "per year",
    features: ["All features", "Updates while subscribed", "Priority e-mail support"],
  },
];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && (PLAN_IDS as readonly string[]).includes(value);
}

export function getPlan(id: PlanId): Plan {
  return PLANS.find((plan) => plan.id === id)!;
}

/** Savings against paying monthly for the same months, in whole percent (6 months: 8, yearly: 17). */
export function savingsPercent(id: PlanId): number {
  const plan = getPlan(id);
  const monthly = getPlan("monthly").priceCents * plan.months;
  return Math.round(((monthly - plan.priceCents) / monthly) * 100);
}

/** What a plan costs per month, in cents (rounded to the cent). */
export function perMonthCents(id: PlanId): number {
  const plan = getPlan(id);
  return Math.round(plan.priceCents / plan.months);
}

/** "$9", "$49.50", "$90", "$8.25": whole dollars without cents. */
export function formatUsd(cents: number): string {
  const dollars = Math.floor(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  const sign = cents < 0 ? "-" : "";
  return rest === 0 ? `${sign}$${dollars}` : `${sign}$${dollars}.${String(rest).padStart(2, "0")}`;
}

/** 95% of the plan price, rounded up to the cent (monthly 855, 6 months 4703, yearly 8550). */
export function refundAmountCents(id: PlanId): number {
  return Math.ceil((getPlan(id).priceCents * REFUND_PERCENT) / 100);
}

export interface PriceIds {
  /** First-time buyers: prices with the 7-day trial. */
  trial: Record<PlanId, string>;
  /** Customers who already have a license. */
  regular: Record<PlanId, string>;
}

/** The provider price id for a plan, from the set that applies to this buyer. */
export function priceIdFor(id: PlanId, { firstTimeBuyer }: { firstTimeBuyer: boolean }, priceIds: PriceIds): string {
  return (firstTimeBuyer ? priceIds.trial : priceIds.regular)[id];
}

/** The end of the in-app refund window for a purchase made at `purchasedAt`. */
export function refundEligibleUntil(purchasedAt: Date): Date {
  return new Date(purchasedAt.getTime() + REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000);
}
