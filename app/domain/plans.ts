/**
 * The plan table (docs/product.md, "Buying"; docs/CONTRIBUTING.md, "Adding a plan"): every kind of
 * license the site knows, paid or not, in one place. Each list of plans or license types, their
 * names, prices, periods, machine limits and trial length derives from these two tables; a map keyed
 * by PlanId or LicenseType that misses one is a compile error. Prices in cents (USD, per license);
 * every paid plan renews automatically and can be cancelled anytime. Pure: used by the pricing page
 * in the browser, by checkout, refunds, e-mails and the database's check constraint on the server.
 */

import { ENTITLEMENTS, inTableOrder, type Entitlement } from "./entitlements";

/** What every kind of license has (later fields go here). */
interface LicenseKindRow {
  /** The name every page, e-mail and invoice shows ("6 Months"; docs/voice.md keeps its capitals). */
  name: string;
  /** Machines a license may have active at once, unless MACHINES_PER_PLAN says otherwise. */
  machines: number;
  /**
   * Floating leases a license may hold at once (decision 0069): build servers and virtual desktops
   * take one for a time and give it back, beside the machine limit; 0 is no floating use.
   */
  floatingLeases: number;
  /** The tool's features it unlocks (entitlements.ts); read at every answer, so a change reaches every tool. */
  entitlements: readonly Entitlement[];
}

/** A plan a customer pays for. */
interface PaidPlanRow extends LicenseKindRow {
  priceCents: number;
  /** The length of one period; the provider bills every `months` months. */
  months: number;
  /** The period after a price: "$9 per month". */
  period: string;
  /** The plan before a noun, in a sentence: "a 6-month license". */
  adjective: string;
  features: readonly string[];
  /** A reminder e-mail goes a week before it renews (a monthly charge is expected). */
  renewalReminder: boolean;
  /** The pricing page marks it "Most popular". */
  mostPopular: boolean;
}

/** A license nobody pays for: the first-time buyer's trial, a tester license an admin adds. */
interface FreeKindRow extends LicenseKindRow {
  /** How long it lasts: the trial's days, a tester license's default (the admin may choose 1 to 365). */
  days: number;
}

/** The pricing page's lines after the entitlements'. */
const FEATURES = ["Updates while subscribed", "E-mail support"] as const;
const CORE: readonly Entitlement[] = ["generate", "batch"];

/** The paid plans, in the order the pricing page shows them. */
const PAID_PLANS = {
  monthly: {
    name: "Monthly",
    priceCents: 900,
    months: 1,
    period: "per month",
    adjective: "monthly",
    features: FEATURES,
    machines: 2,
    floatingLeases: 0,
    entitlements: CORE,
    renewalReminder: false,
    mostPopular: false,
  },
  "6_months": {
    name: "6 Months",
    priceCents: 4950,
    months: 6,
    period: "every 6 months",
    adjective: "6-month",
    features: FEATURES,
    machines: 2,
    floatingLeases: 0,
    entitlements: CORE,
    renewalReminder: true,
    mostPopular: false,
  },
  yearly: {
    name: "Yearly",
    priceCents: 9000,
    months: 12,
    period: "per year",
    adjective: "yearly",
    features: ["Updates while subscribed", "Priority e-mail support"],
    machines: 2,
    // The plan with command-line generation: the one build servers run.
    floatingLeases: 3,
    entitlements: ENTITLEMENTS,
    renewalReminder: true,
    mostPopular: true,
  },
} satisfies Record<string, PaidPlanRow>;

/** The license types without a payment. */
const FREE_KINDS = {
  // A trial tries everything (one floating lease shows how they work); a tester license includes every
  // entitlement there is, and one floating lease.
  trial: { name: "Trial", days: 7, machines: 2, floatingLeases: 1, entitlements: ENTITLEMENTS },
  tester: { name: "Tester", days: 30, machines: 1, floatingLeases: 1, entitlements: ENTITLEMENTS },
} satisfies Record<string, FreeKindRow>;

export type PlanId = keyof typeof PAID_PLANS;
export type FreeLicenseType = keyof typeof FREE_KINDS;
/** Every value of licenses.license_type. */
export type LicenseType = PlanId | FreeLicenseType;

export const PLAN_IDS = Object.keys(PAID_PLANS) as readonly PlanId[];
export const FREE_LICENSE_TYPES = Object.keys(FREE_KINDS) as readonly FreeLicenseType[];
/** Every license type in the table's order: the plans, then the trial and the tester license. */
export const LICENSE_TYPES: readonly LicenseType[] = [...PLAN_IDS, ...FREE_LICENSE_TYPES];

/** The name of each license type ("Monthly", "6 Months", "Trial"). */
export const LICENSE_TYPE_LABELS = Object.fromEntries(
  LICENSE_TYPES.map((type) => [type, licenseKindRow(type).name]),
) as Record<LicenseType, string>;

/** A first-time buyer's free trial, in days (7). */
export const TRIAL_DAYS = FREE_KINDS.trial.days;
/** A tester license's length unless the admin gives another (30 days). */
export const TESTER_DEFAULT_DAYS = FREE_KINDS.tester.days;

/** A purchase can be refunded in the app for this many days (refund policy: 14 days). */
export const REFUND_WINDOW_DAYS = 14;
/** The in-app refund is 95% of the plan price, rounded up to the cent. */
export const REFUND_PERCENT = 95;

export interface Plan extends PaidPlanRow {
  id: PlanId;
}

export const PLANS: readonly Plan[] = PLAN_IDS.map((id) => ({ id, ...PAID_PLANS[id] }));

/** What every license type has, paid or not: its name and its machines at once. */
export function licenseKindRow(type: LicenseType): LicenseKindRow {
  return isPlanId(type) ? PAID_PLANS[type] : FREE_KINDS[type];
}

/** The entitlements of a license type, in the table's order; none for a type the table does not know. */
export function entitlementsOf(type: string): Entitlement[] {
  return isLicenseType(type) ? inTableOrder(licenseKindRow(type).entitlements) : [];
}

/**
 * The floating leases a license may hold at once (0: its plan has no floating use). A trial of any plan
 * has the trial's; a type the table does not know has none.
 */
export function floatingLeasesOf(type: string, isTrial = false): number {
  if (isTrial) return FREE_KINDS.trial.floatingLeases;
  return isLicenseType(type) ? licenseKindRow(type).floatingLeases : 0;
}

/**
 * What the pricing page says a plan includes of floating use (decision 0069): its lease limit from
 * this table, or nothing for a plan without floating use.
 */
export function floatingLeasesLine(count: number): string | null {
  if (count <= 0) return null;
  return `${count} floating lease${count === 1 ? "" : "s"} for build servers`;
}

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && Object.hasOwn(PAID_PLANS, value);
}

export function isLicenseType(value: unknown): value is LicenseType {
  return isPlanId(value) || (typeof value === "string" && Object.hasOwn(FREE_KINDS, value));
}

export function getPlan(id: PlanId): Plan {
  return PLANS.find((plan) => plan.id === id)!;
}

/** A license type's name; a value the table does not know is shown as it is. */
export function licenseTypeLabel(type: string): string {
  return isLicenseType(type) ? LICENSE_TYPE_LABELS[type] : type;
}

/** "a, b or c": plans named in a sentence ("6-month or yearly"). */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
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

/** Every plan's price in one currency, in its minor units, as the provider quoted it for a country (decision 0072). */
export interface QuotedPrices {
  currency: string;
  plans: Record<PlanId, number>;
}

/** "$9", "$49.50", "$90", "$8.25", "$1,080": whole dollars without cents. */
export function formatUsd(cents: number): string {
  return writeDollars(cents, cents % 100 === 0);
}

/**
 * US dollars as `Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })` writes them
 * ("$1,234.50", "-$9.00"; "$9" when `whole`), without building that formatter: a browser's first one
 * loads its locale data, 40–110 ms on this project's machine, inside the page's hydration (decision 0085).
 */
export function writeDollars(cents: number, whole: boolean): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  const units = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return whole ? `${sign}$${units}` : `${sign}$${units}.${String(absolute % 100).padStart(2, "0")}`;
}

/** 95% of the plan price, rounded up to the cent (monthly 855, 6 months 4703, yearly 8550). */
export function refundAmountCents(id: PlanId): number {
  return Math.ceil((getPlan(id).priceCents * REFUND_PERCENT) / 100);
}

/** The configuration variables of a plan's two provider price ids: PRICE_<ID>_TRIAL and PRICE_<ID>. */
export interface PriceEnvNames<P extends PlanId = PlanId> {
  trial: `PRICE_${Uppercase<P>}_TRIAL`;
  regular: `PRICE_${Uppercase<P>}`;
}

export function priceEnvNames<P extends PlanId>(id: P): PriceEnvNames<P> {
  const regular = `PRICE_${id.toUpperCase() as Uppercase<P>}` as const;
  return { trial: `${regular}_TRIAL`, regular };
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
