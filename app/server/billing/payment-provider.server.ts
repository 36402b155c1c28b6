import type { PlanSwitchPreview } from "~/domain/plan-switch";
import type { PlanId } from "~/domain/plans";
import type { CountryCode } from "~/domain/countries";
import type { PricePreview } from "~/domain/localized-prices";
import type { DiscountEntity } from "~/domain/discount-codes";

/**
 * What the site asks of a payment provider. Two implementations: `paddle` (Paddle Billing's
 * API) and `demo` (plays Paddle's part in embedded mode, emitting Paddle-shaped, signed events
 * through the same webhook handler). Purchases arrive as webhooks, never through this interface.
 */
export interface PaymentProvider {
  readonly name: "demo" | "paddle";
  /** The secret webhook signatures are checked with. */
  readonly webhookSecret: string | undefined;
  /** Schedules the subscription's cancellation at the end of the current billing period. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /**
   * Cancels the subscription now (Paddle: POST /subscriptions/{id}/cancel with effective_from
   * "immediately"): the one change Paddle accepts for a past-due subscription, whose cancel at the
   * period's end it refuses (subscription_update_when_past_due). Used to stop a past-due
   * subscription's renewal after a refund, a revoke or a chargeback (decision 0056).
   */
  cancelNow(subscriptionId: string): Promise<void>;
  /** Removes a scheduled cancellation, so the subscription renews again. */
  removeScheduledCancel(subscriptionId: string): Promise<void>;
  /**
   * Ends a trialing subscription's trial now (Paddle: POST /subscriptions/{id}/activate): the saved
   * payment method is charged at once and the billing period starts now. The charge arrives as a
   * webhook (transaction.completed, subscription.activated) like any other; the answer says when
   * the next charge is.
   */
  activateTrial(subscriptionId: string): Promise<{ nextBilledAt: string | null }>;
  /**
   * Asks for a refund of a completed transaction (one adjustment): partial (the line item, an
   * amount) or full. Idempotent per transaction: when the transaction already has a refund
   * adjustment pending or approved, that one is the answer and nothing new is made, so a retried
   * request never refunds twice (decision 0036).
   */
  refund(input: RefundInput): Promise<{ adjustmentId: string }>;
  /**
   * Creates the transaction a plan's checkout pays for, at the price the server chose; the
   * overlay opens with its id, so the browser never picks a price.
   */
  createPlanCheckout(input: PlanCheckoutInput): Promise<{ transactionId: string }>;
  /**
   * The discount a buyer's code names, or null when there is none (Paddle: GET /discounts?code=, any
   * status, so an archived one is told apart from a mistyped one; the demo provider: its own codes).
   * Whether it can be used is the server's rule (~/domain/discount-codes, decision 0073).
   */
  findDiscount(code: string): Promise<DiscountEntity | null>;
  /**
   * Changes a subscription's seat count (Paddle: PATCH /subscriptions/{id} with the item's
   * new quantity and a proration_billing_mode): `prorated_immediately` bills the added seats for the
   * rest of the period now (its transaction arrives as a webhook with origin subscription_update);
   * `do_not_bill` changes what the next renewal bills (fewer seats from then).
   */
  updateSeats(input: SeatUpdateInput): Promise<void>;
  /**
   * What switching a subscription to another plan would do, changing nothing (Paddle: PATCH
   * /subscriptions/{id}/preview with the new items and proration_billing_mode): charged or credited
   * now, the next charge and its date, and the plan and end date the license would have.
   */
  previewPlanChange(input: PlanChangeInput): Promise<PlanSwitchPreview>;
  /**
   * Switches the subscription to another plan (Paddle: PATCH /subscriptions/{id} with the same
   * body): `prorated_immediately` bills the difference now (its transaction arrives as a webhook
   * with origin subscription_update), `do_not_bill` bills the new price from the next renewal.
   */
  changePlan(input: PlanChangeInput): Promise<void>;
  /**
   * Gives the subscription a discount from its next billing period (Paddle: PATCH /subscriptions/{id}
   * with `discount: { id, effective_from: "next_billing_period" }`): the cancel step's offer taken
   * (decision 0065). The demo provider takes `percent` off its next renewal itself; Paddle reads the
   * discount's amount from the discount the vendor made.
   */
  applyDiscount(input: { subscriptionId: string; discountId: string; percent: number }): Promise<void>;
  /** Prepares a one-time charge for a license extension (its webhook applies it). */
  createExtensionCharge(input: ExtensionChargeInput): Promise<{ transactionId: string }>;
  /**
   * The transaction the overlay opens to update a past-due subscription's payment method (Paddle:
   * GET /subscriptions/{id}/update-payment-method-transaction); paying it settles what is due.
   */
  paymentMethodUpdate(subscriptionId: string): Promise<{ transactionId: string }>;
  /**
   * What these prices cost a buyer in a country, as the checkout would charge them (Paddle: POST
   * /pricing-preview with `items` of `price_id` and quantity (1, or a team's seats) and `address.country_code`): the
   * currency, each price's total with its tax, and the tax rate. Changes nothing (decision 0072).
   */
  previewPrices(input: {
    priceIds: readonly string[];
    country: CountryCode;
    /** Each price's quantity (a team's seats); 1 when absent. The lines' totals stay one unit's. */
    quantity?: number;
  }): Promise<PricePreview>;
  /**
   * Where a completed transaction's invoice PDF can be downloaded (Paddle: GET
   * /transactions/{id}/invoice, a link valid for an hour); null when the site renders it itself (demo).
   */
  invoiceUrl(transactionId: string): Promise<string | null>;
}

export interface RefundInput {
  transactionId: string;
  itemId: string | null;
  amountCents: number;
  reason: string;
  /** The whole transaction (Paddle: type full) rather than an amount of its line item. */
  full?: boolean;
  /** One per transaction of a refund (refundIdempotencyKey): the same key never makes a second adjustment. */
  idempotencyKey?: string;
}

export interface PlanCheckoutInput {
  /** Our checkouts row, echoed in custom_data. */
  checkoutId: string;
  userId: string;
  email: string;
  planId: PlanId;
  priceId: string;
  /** The price is from the first-time-buyer set, which carries the 7-day trial. */
  trial: boolean;
  /** Seats of a team checkout: items[].quantity; 1 (a personal license) when absent. */
  quantity?: number;
  /** A team checkout's team name, echoed in custom_data (kind "team"). */
  teamName?: string;
  /**
   * The discount the server checked for the buyer's code (decision 0073): the transaction's
   * `discount_id`, its code echoed in custom_data (`discount_code`) for the payment's row.
   */
  discount?: { id: string; code: string };
  /**
   * The buyer's country as the pricing page priced it (decision 0072). The demo provider charges its
   * table's price there (its currency and tax); Paddle's overlay asks the buyer's address itself and
   * charges the price's amount for it, so nothing of it is sent to Paddle.
   */
  country?: CountryCode | null;
}

export interface SeatUpdateInput {
  subscriptionId: string;
  priceId: string;
  quantity: number;
  proration: "prorated_immediately" | "do_not_bill";
}

export interface PlanChangeInput {
  subscriptionId: string;
  from: PlanId;
  to: PlanId;
  /** The new plan's price id (the regular set: a plan change never starts a trial). */
  priceId: string;
  proration: "prorated_immediately" | "do_not_bill";
  /** Months of bought extensions, added to the license's end as the preview names it. */
  extendedMonths: number;
  /** A team's subscription (decision 0074): its seats, unchanged by the switch; absent for a personal license (1). */
  quantity?: number;
}

export interface ExtensionChargeInput {
  checkoutId: string;
  userId: string;
  email: string;
  licenseId: string;
  months: number;
  years: number;
  amountCents: number;
  description: string;
}

/** What the provider must still be told once the event's changes are committed. */
export type FollowUp = {
  kind: "stop-renewal";
  licenseId: string;
  subscriptionId: string;
  /** The provider object that made it necessary (a transaction or adjustment id): part of the job's key. */
  occasion: string;
};

/** A provider call that failed; the message is safe to log, not meant for users. */
export class ProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProviderError";
  }
}
