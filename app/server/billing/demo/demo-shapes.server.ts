import { randomBytes } from "node:crypto";
import { demoCharge, taxIncluded, type DemoCharge } from "~/domain/demo-prices";
import { addMonths } from "~/domain/extension";
import { getPlan, TRIAL_DAYS, type PlanId } from "~/domain/plans";
import type { PaddleSubscription, PaddleTransaction } from "../paddle-events.server";

/** The demo provider's ids: Paddle's prefixes with `_demo_` (txn_demo_…, sub_demo_…). */
export const demoId = (prefix: string) => `${prefix}_demo_${randomBytes(10).toString("hex")}`;

const DAY = 24 * 60 * 60 * 1000;

/**
 * The buyer's country the demo keeps on its subscription (and on a checkout's transaction until it is
 * paid), a demo-only field as `demo_percent` is: what Paddle knows from the customer's address. Every
 * charge of the subscription is priced for it (decision 0072).
 */
export interface DemoCountry {
  demo_country?: string | null;
}

/** What the subscription (or checkout) charges for one license of a plan: the demo's table for its country. */
export function subscriptionCharge(record: object, plan: PlanId): DemoCharge {
  return demoCharge((record as DemoCountry).demo_country ?? null, plan);
}

/** Paddle-shaped records, shared by the demo provider and the demo seed. */
export const demoShapes = {
  subscription({
    id,
    userId,
    planId,
    priceId,
    trial,
    start,
    now = start,
    quantity = 1,
    customData = { user_id: userId, plan_type: planId },
    country = null,
  }: {
    id: string;
    userId: string;
    planId: PlanId;
    priceId: string;
    trial: boolean;
    start: Date;
    now?: Date;
    quantity?: number;
    customData?: Record<string, unknown>;
    /** The buyer's country, whose currency the subscription is in (decision 0072); none: US dollars. */
    country?: string | null;
  }): PaddleSubscription & Record<string, unknown> {
    const end = trial ? new Date(start.getTime() + TRIAL_DAYS * DAY) : addMonths(start, getPlan(planId).months);
    const period = { starts_at: start.toISOString(), ends_at: end.toISOString() };
    return {
      id,
      status: trial ? "trialing" : "active",
      customer_id: customerId(userId),
      currency_code: demoCharge(country, planId).currency,
      demo_country: country,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      started_at: start.toISOString(),
      first_billed_at: trial ? null : start.toISOString(),
      next_billed_at: end.toISOString(),
      canceled_at: null,
      current_billing_period: period,
      billing_cycle: { interval: "month", frequency: getPlan(planId).months },
      scheduled_change: null,
      custom_data: customData,
      items: [
        {
          status: trial ? "trialing" : "active",
          quantity,
          price: { id: priceId, trial_period: trial ? { interval: "day", frequency: TRIAL_DAYS } : null },
          trial_dates: trial ? period : null,
        },
      ],
    };
  },
  transaction({
    id = demoId("txn"),
    subscriptionId,
    customData,
    priceId,
    trialPeriod = null,
    months,
    amountCents,
    period,
    origin,
    at,
    quantity = 1,
    currency = "USD",
    taxRate = "0",
  }: {
    quantity?: number;
    /** The subscription's currency (decision 0072) and the tax rate in its amounts ("0.19"). */
    currency?: string;
    taxRate?: string;
    id?: string;
    subscriptionId: string | null;
    customData: Record<string, unknown>;
    priceId: string;
    trialPeriod?: { interval: string; frequency: number } | null;
    months: number | null;
    amountCents: number;
    period: { starts_at: string; ends_at: string } | null;
    origin: string;
    at: Date;
  }): PaddleTransaction & Record<string, unknown> {
    const total = String(amountCents);
    // The demo's amounts include their tax, as its table says (none in US dollars).
    const tax = String(taxIncluded(amountCents, taxRate));
    const subtotal = String(amountCents - Number(tax));
    const lineTotals = { subtotal, discount: "0", tax, total };
    const totals = { ...lineTotals, grand_total: total, currency_code: currency };
    return {
      id,
      status: "completed",
      customer_id: typeof customData.user_id === "string" ? customerId(customData.user_id) : null,
      subscription_id: subscriptionId,
      origin,
      collection_mode: "automatic",
      currency_code: currency,
      custom_data: customData,
      billing_period: period,
      billed_at: at.toISOString(),
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
      // The demo's test card, as Paddle reports the card a payment used (support sees brand and last 4).
      payments:
        amountCents > 0
          ? [{ status: "captured", method_details: { type: "card", card: { type: "visa", last4: "4242" } } }]
          : [],
      items: [
        {
          price: {
            id: priceId,
            billing_cycle: months ? { interval: "month", frequency: months } : null,
            trial_period: trialPeriod,
          },
          quantity,
        },
      ],
      details: {
        // The tax line is there as on Paddle's transactions (and invoices), "0" in US dollars.
        tax_rates_used: [{ tax_rate: taxRate, totals: lineTotals }],
        totals,
        line_items: [{ id: demoId("txnitm"), price_id: priceId, quantity, tax_rate: taxRate, totals: lineTotals }],
      },
    };
  },
};

function customerId(userId: string): string {
  return `ctm_demo_${userId.replace(/-/g, "").slice(0, 20)}`;
}
