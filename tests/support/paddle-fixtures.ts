import { randomBytes } from "node:crypto";
import { signatureHeader } from "~/server/billing/webhook-signature.server";

/**
 * Paddle Billing webhook payloads shaped like the real ones (Paddle's API reference): more
 * fields than we read, amounts as strings in minor units, ids with their prefixes.
 */

const id = (prefix: string) => `${prefix}_01${randomBytes(12).toString("hex")}`;
const DAY = 86_400_000;

export function envelope(event_type: string, data: unknown, occurred_at = new Date()) {
  return {
    event_id: id("evt"),
    event_type,
    occurred_at: occurred_at.toISOString(),
    notification_id: id("ntf"),
    data,
  };
}

export function signed(secret: string, event: unknown, now = new Date()) {
  const rawBody = JSON.stringify(event);
  return { rawBody, signature: signatureHeader(secret, rawBody, now) };
}

export interface TransactionFixture {
  userId: string;
  planType?: string;
  subscriptionId?: string | null;
  priceId?: string;
  amountCents: number;
  start: Date;
  end: Date | null;
  origin?: "web" | "subscription_recurring" | "subscription_update" | "api";
  trial?: boolean;
  customData?: Record<string, unknown>;
}

export function transaction(f: TransactionFixture) {
  const total = String(f.amountCents);
  const totals = {
    subtotal: total,
    discount: "0",
    tax: "0",
    total,
    credit: "0",
    balance: "0",
    grand_total: total,
    fee: null,
    earnings: null,
    currency_code: "USD",
  };
  const priceId = f.priceId ?? "pri_01monthlyregular";
  return {
    id: id("txn"),
    status: "completed",
    customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
    address_id: "add_01hv6y1jf5k1ptc8d1nmsdvbk8",
    business_id: null,
    custom_data: f.customData ?? { user_id: f.userId, plan_type: f.planType ?? "monthly" },
    origin: f.origin ?? "web",
    collection_mode: "automatic",
    subscription_id: f.subscriptionId === undefined ? id("sub") : f.subscriptionId,
    invoice_id: id("inv"),
    invoice_number: "325-10566",
    billing_details: null,
    billing_period: f.end ? { starts_at: f.start.toISOString(), ends_at: f.end.toISOString() } : null,
    currency_code: "USD",
    discount_id: null,
    created_at: f.start.toISOString(),
    updated_at: f.start.toISOString(),
    billed_at: f.start.toISOString(),
    items: [
      {
        price: {
          id: priceId,
          description: "Monthly license",
          product_id: "pro_01hv6xyz",
          billing_cycle: { interval: "month", frequency: 1 },
          trial_period: f.trial ? { interval: "day", frequency: 7 } : null,
          tax_mode: "account_setting",
          unit_price: { amount: "900", currency_code: "USD" },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          status: "active",
        },
        quantity: 1,
        proration: null,
      },
    ],
    details: {
      tax_rates_used: [{ tax_rate: "0", totals: { subtotal: total, discount: "0", tax: "0", total } }],
      totals,
      adjusted_totals: totals,
      payout_totals: null,
      line_items: [
        {
          id: id("txnitm"),
          price_id: priceId,
          quantity: 1,
          proration: null,
          tax_rate: "0",
          unit_totals: { subtotal: total, discount: "0", tax: "0", total },
          totals: { subtotal: total, discount: "0", tax: "0", total },
          product: { id: "pro_01hv6xyz", name: "License" },
        },
      ],
    },
    payments: [
      {
        payment_attempt_id: "b5a3cbd5-1f8f-4e1b-9a6b-7a4a3b2c1d0e",
        status: "captured",
        method_details: { type: "card" },
      },
    ],
    checkout: { url: "https://example.com/pay?_ptxn=txn" },
  };
}

export interface SubscriptionFixture {
  subscriptionId: string;
  userId: string;
  planType?: string;
  status?: "active" | "trialing" | "canceled" | "past_due" | "paused";
  start: Date;
  end: Date;
  scheduledCancel?: boolean;
  trialDates?: { start: Date; end: Date } | null;
}

export function subscription(f: SubscriptionFixture) {
  const status = f.status ?? "active";
  return {
    id: f.subscriptionId,
    status,
    customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
    address_id: "add_01hv6y1jf5k1ptc8d1nmsdvbk8",
    business_id: null,
    currency_code: "USD",
    created_at: f.start.toISOString(),
    updated_at: new Date().toISOString(),
    started_at: f.start.toISOString(),
    first_billed_at: f.start.toISOString(),
    next_billed_at: status === "canceled" ? null : f.end.toISOString(),
    paused_at: null,
    canceled_at: status === "canceled" ? f.end.toISOString() : null,
    collection_mode: "automatic",
    billing_details: null,
    current_billing_period:
      status === "canceled" ? null : { starts_at: f.start.toISOString(), ends_at: f.end.toISOString() },
    billing_cycle: { interval: "month", frequency: 1 },
    scheduled_change: f.scheduledCancel
      ? { action: "cancel", effective_at: f.end.toISOString(), resume_at: null }
      : null,
    custom_data: { user_id: f.userId, plan_type: f.planType ?? "monthly" },
    items: [
      {
        status: status === "trialing" ? "trialing" : "active",
        quantity: 1,
        recurring: true,
        created_at: f.start.toISOString(),
        updated_at: f.start.toISOString(),
        previously_billed_at: f.start.toISOString(),
        next_billed_at: f.end.toISOString(),
        trial_dates: f.trialDates
          ? { starts_at: f.trialDates.start.toISOString(), ends_at: f.trialDates.end.toISOString() }
          : null,
        price: {
          id: "pri_01monthlyregular",
          product_id: "pro_01hv6xyz",
          description: "Monthly license",
          billing_cycle: { interval: "month", frequency: 1 },
          trial_period: f.trialDates ? { interval: "day", frequency: 7 } : null,
          tax_mode: "account_setting",
          unit_price: { amount: "900", currency_code: "USD" },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          status: "active",
        },
        product: { id: "pro_01hv6xyz", name: "License", tax_category: "standard", status: "active" },
      },
    ],
    discount: null,
    import_meta: null,
  };
}

export function adjustment(f: {
  transactionId: string;
  subscriptionId: string | null;
  amountCents: number;
  status: "pending_approval" | "approved" | "rejected" | "reversed";
  adjustmentId?: string;
  /** Paddle creates the dispute actions by itself (chargeback, chargeback_warning, chargeback_reverse), as "full". */
  action?: "refund" | "chargeback" | "chargeback_warning" | "chargeback_reverse" | "credit";
}) {
  const total = String(f.amountCents);
  const action = f.action ?? "refund";
  return {
    id: f.adjustmentId ?? id("adj"),
    action,
    type: action === "refund" ? "partial" : "full",
    transaction_id: f.transactionId,
    subscription_id: f.subscriptionId,
    customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
    reason: action === "refund" ? "Refund requested by the customer" : "Dispute raised with the card issuer",
    credit_applied_to_balance: null,
    currency_code: "USD",
    status: f.status,
    items: [
      {
        id: id("adjitm"),
        item_id: id("txnitm"),
        type: "partial",
        amount: total,
        proration: null,
        totals: { subtotal: total, tax: "0", total },
      },
    ],
    totals: { subtotal: total, tax: "0", total, fee: "0", earnings: "0", currency_code: "USD" },
    payout_totals: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  };
}

export const days = (n: number, from = new Date()) => new Date(from.getTime() + n * DAY);
