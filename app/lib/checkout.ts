import { formatDate } from "~/domain/format-date";
import { formatPrice } from "~/domain/billing";
import { discountLabel, type DiscountEntity } from "~/domain/discount-codes";
import { getPlan, isPlanId, TRIAL_DAYS, type PlanId } from "~/domain/plans";

/**
 * The overlay checkout, whichever provider opens it: Paddle.js in Paddle mode, the in-site
 * demo dialog in demo mode. Pure decisions live here (what to open, which error to show);
 * the hook in ~/components/use-checkout wires them to the page.
 */

export const CHECKOUT_ERROR_TITLE = "Checkout Error";
/** The checkout's texts (docs/product.md, "Buying"), one per situation. */
export const CHECKOUT_ERRORS = {
  initFailed: "Failed to initialize payment system. Please refresh the page.",
  unavailable: "Payment system not available. Please refresh the page.",
  noUser: "User information not available. Please refresh the page.",
  notReady: "Payment system not ready. Please try again in a moment.",
  invalidPlan: "Invalid plan selected.",
  openFailed: "Failed to open checkout. Please try again.",
} as const;

export interface CheckoutSettings {
  displayMode: "overlay";
  theme: "dark";
  locale: "en";
}
export const CHECKOUT_SETTINGS: CheckoutSettings = { displayMode: "overlay", theme: "dark", locale: "en" };

/**
 * What the overlay is opened with: always a transaction the server prepared (plan or extension),
 * so the browser never chooses a price.
 */
export interface CheckoutRequest {
  transactionId: string;
  customer?: { email: string };
  settings: CheckoutSettings;
}

/** A plan's checkout as the server created it: its transaction and what it charges. */
export interface PlanCheckoutView {
  transactionId: string;
  planId: PlanId;
  trial: boolean;
  /** Charged today (0 with the trial). */
  dueTodayCents: number;
  /** The plan's price, charged at each renewal (and when the trial ends). */
  priceCents: number;
  /** When the trial ends and the first charge happens (ISO), or null without a trial. */
  trialEndsAt: string | null;
  /** The next charge after today's (ISO): the trial's end, or the end of the first period. */
  renewsAt: string;
  /** A team's checkout: its seats and the price of one (priceCents is then their total). */
  seats?: number;
  unitCents?: number;
  /**
   * The currency the amounts are in, when not US dollars: Paddle's price for the buyer's country
   * (decision 0072), in its minor units; `priceNote` says the country and the tax in it.
   */
  currency?: string;
  priceNote?: string;
  /**
   * The discount code the checkout's transaction was created with (decision 0073): dueTodayCents is
   * the discounted first charge; priceCents stays the plan's price.
   */
  discount?: { code: string; type: DiscountEntity["type"]; amount: string };
}

/** An amount of the checkout in its currency ("$9", "€10.71"). */
export function checkoutMoney(checkout: Pick<PlanCheckoutView, "currency">, minor: number): string {
  return formatPrice(minor, checkout.currency ?? "USD");
}

/**
 * The checkout summary's Plan and Price lines (both checkouts): "Monthly" and "$9 per month", or
 * for a team "Monthly, 3 seats" and "3 seats × $9 = $27 per month", so the buyer sees what the
 * total is made of.
 */
export function checkoutPlanLines(checkout: PlanCheckoutView): { plan: string; price: string } {
  const plan = getPlan(checkout.planId);
  const money = (minor: number) => checkoutMoney(checkout, minor);
  const total = `${money(checkout.priceCents)} ${plan.period}`;
  if (!checkout.seats) return { plan: plan.name, price: total };
  return {
    plan: `${plan.name}, ${checkout.seats} seats`,
    price: `${checkout.seats} seats × ${money(checkout.unitCents ?? plan.priceCents)} = ${total}`,
  };
}

/** The summaries' Discount line: "WELCOME20: 20% off the first charge". */
export function checkoutDiscountLine(checkout: PlanCheckoutView): string {
  if (!checkout.discount) return "";
  const money = (minor: number) => checkoutMoney(checkout, minor);
  return `${checkout.discount.code}: ${discountLabel(checkout.discount, money)} the first charge`;
}

/**
 * What happens after paying, as both checkouts (the demo dialog and the summary before Paddle's
 * overlay) say it: with the trial, "Free for 7 days, then $X on <date> unless you cancel.";
 * otherwise the amount due today and the renewal's amount and date.
 */
export function checkoutNextStep(checkout: PlanCheckoutView): string {
  const plan = getPlan(checkout.planId);
  const money = (minor: number) => checkoutMoney(checkout, minor);
  if (checkout.trial && checkout.trialEndsAt)
    return `Free for ${TRIAL_DAYS} days, then ${money(checkout.priceCents)} on ${formatDate(checkout.trialEndsAt)} unless you cancel.`;
  const code = checkout.discount ? ` with ${checkout.discount.code} (${discountLabel(checkout.discount, money)})` : "";
  return `${money(checkout.dueTodayCents)} today${code}, then ${money(checkout.priceCents)} ${plan.period}, next on ${formatDate(checkout.renewsAt)}, until you cancel.`;
}

/** What the pricing page's action answers. */
export type PlanCheckoutAnswer =
  { checkout: PlanCheckoutView } | { paid: { transactionId: string } } | { error: string };

export type CheckoutEvent =
  | { name: "checkout.completed"; transactionId: string | null }
  | { name: "checkout.closed" }
  | { name: "checkout.error"; detail: string | null };

export interface CheckoutOpener {
  open(request: CheckoutRequest): void;
}

export type CheckoutSystem = { status: "loading" } | { status: "ready"; opener: CheckoutOpener } | { status: "failed" };

export interface CheckoutUser {
  id: string;
  email: string;
}

/**
 * Whether a plan's checkout can be asked of the server now; returns the error text to show, or
 * null when the server may create it.
 */
export function planCheckoutProblem({
  system,
  user,
  planId,
}: {
  system: CheckoutSystem;
  user: CheckoutUser | null;
  planId: string;
}): string | null {
  if (system.status === "failed") return CHECKOUT_ERRORS.unavailable;
  if (system.status === "loading") return CHECKOUT_ERRORS.notReady;
  if (!user?.email || !user.id) return CHECKOUT_ERRORS.noUser;
  if (!isPlanId(planId)) return CHECKOUT_ERRORS.invalidPlan;
  return null;
}

/** Opens the overlay for the server's transaction; returns the error text to show, or null. */
export function openTransactionCheckout(
  system: CheckoutSystem,
  transactionId: string,
  email: string | null,
): string | null {
  if (system.status !== "ready")
    return system.status === "failed" ? CHECKOUT_ERRORS.unavailable : CHECKOUT_ERRORS.notReady;
  try {
    system.opener.open({ transactionId, ...(email ? { customer: { email } } : {}), settings: CHECKOUT_SETTINGS });
    return null;
  } catch {
    return CHECKOUT_ERRORS.openFailed;
  }
}

/** Paddle.js's callback event, as the page cares about it (null for the events it ignores). */
export function fromPaddleEvent(event: { name?: string; data?: unknown; detail?: unknown }): CheckoutEvent | null {
  switch (event.name) {
    case "checkout.completed": {
      // The transaction is data.transaction_id; data.id is the checkout's own id.
      const data = event.data as { transaction_id?: unknown } | undefined;
      return {
        name: "checkout.completed",
        transactionId: typeof data?.transaction_id === "string" ? data.transaction_id : null,
      };
    }
    case "checkout.closed":
      return { name: "checkout.closed" };
    case "checkout.error":
      return { name: "checkout.error", detail: typeof event.detail === "string" ? event.detail : null };
    default:
      return null;
  }
}

/** Where a completed checkout goes: /success with the transaction id, or null to show a message. */
export function successPath(transactionId: string | null): string | null {
  return transactionId ? `/success?transactionId=${encodeURIComponent(transactionId)}` : null;
}
