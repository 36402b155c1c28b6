import { z } from "zod";

/**
 * The Paddle Billing webhook payloads, as far as we read them (docs/payments.md, "Events and the
 * fields we read"). Paddle's snake_case JSON is parsed as is; the demo provider emits the same shapes.
 */

const timestamp = z.iso.datetime({ offset: true });
const customData = z.record(z.string(), z.unknown()).nullable().optional();
const period = z.looseObject({ starts_at: timestamp, ends_at: timestamp });
const trialPeriod = z.looseObject({ interval: z.string(), frequency: z.number() }).nullable().optional();
const money = z.string().regex(/^-?\d+$/, "an amount in minor units");

export const transactionSchema = z.looseObject({
  id: z.string().startsWith("txn_"),
  status: z.string(),
  customer_id: z.string().nullable().optional(),
  subscription_id: z.string().nullable().optional(),
  origin: z.string().nullable().optional(),
  custom_data: customData,
  /** The discount the transaction was created with (decision 0073); its code is custom_data.discount_code. */
  discount_id: z.string().nullable().optional(),
  billing_period: period.nullable().optional(),
  billed_at: timestamp.nullable().optional(),
  created_at: timestamp,
  items: z.array(
    z.looseObject({
      price: z.looseObject({
        id: z.string(),
        billing_cycle: z.looseObject({ interval: z.string(), frequency: z.number() }).nullable().optional(),
        trial_period: trialPeriod,
      }),
      quantity: z.number(),
    }),
  ),
  details: z.looseObject({
    totals: z.looseObject({ total: money, grand_total: money.optional(), currency_code: z.string() }),
    line_items: z.array(z.looseObject({ id: z.string(), price_id: z.string() })),
  }),
});
export type PaddleTransaction = z.infer<typeof transactionSchema>;

export const subscriptionSchema = z.looseObject({
  id: z.string().startsWith("sub_"),
  status: z.enum(["active", "canceled", "past_due", "paused", "trialing"]),
  customer_id: z.string().nullable().optional(),
  current_billing_period: period.nullable().optional(),
  next_billed_at: timestamp.nullable().optional(),
  canceled_at: timestamp.nullable().optional(),
  custom_data: customData,
  scheduled_change: z
    .object({
      action: z.enum(["cancel", "pause", "resume"]),
      effective_at: timestamp,
      resume_at: timestamp.nullable().optional(),
    })
    .nullable()
    .optional(),
  items: z.array(
    z.looseObject({
      status: z.string(),
      price: z.looseObject({ id: z.string(), trial_period: trialPeriod }),
      trial_dates: period.nullable().optional(),
    }),
  ),
});
export type PaddleSubscription = z.infer<typeof subscriptionSchema>;

export const adjustmentSchema = z.looseObject({
  id: z.string().startsWith("adj_"),
  action: z.string(),
  transaction_id: z.string(),
  subscription_id: z.string().nullable().optional(),
  status: z.enum(["pending_approval", "approved", "rejected", "reversed"]),
  totals: z.looseObject({ total: money, currency_code: z.string() }),
});
export type PaddleAdjustment = z.infer<typeof adjustmentSchema>;

export const envelopeSchema = z.looseObject({
  event_id: z.string().min(1).max(200),
  event_type: z.string().min(1),
  occurred_at: timestamp,
  notification_id: z.string().optional(),
  data: z.unknown(),
});

export const SUBSCRIPTION_EVENTS = [
  "subscription.created",
  "subscription.activated",
  "subscription.trialing",
  "subscription.updated",
  "subscription.canceled",
  "subscription.past_due",
] as const;
export const ADJUSTMENT_EVENTS = ["adjustment.created", "adjustment.updated"] as const;
export const TRANSACTION_EVENTS = [
  "transaction.completed",
  "transaction.past_due",
  "transaction.payment_failed",
] as const;

export type PaddleEvent =
  | { event_id: string; event_type: (typeof TRANSACTION_EVENTS)[number]; occurred_at: string; data: PaddleTransaction }
  | {
      event_id: string;
      event_type: (typeof SUBSCRIPTION_EVENTS)[number];
      occurred_at: string;
      data: PaddleSubscription;
    }
  | { event_id: string; event_type: (typeof ADJUSTMENT_EVENTS)[number]; occurred_at: string; data: PaddleAdjustment };

export type ParsedEvent = { used: true; event: PaddleEvent } | { used: false; event_type: string } | { error: string };

const includes = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

/** Parses a verified body: an event we apply, an event type we do not use, or what is wrong with it. */
export function parseEvent(body: unknown): ParsedEvent {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { error: "not a Paddle event envelope" };
  const { event_id, event_type, occurred_at, data } = envelope.data;
  const schema = includes(TRANSACTION_EVENTS, event_type)
    ? transactionSchema
    : includes(SUBSCRIPTION_EVENTS, event_type)
      ? subscriptionSchema
      : includes(ADJUSTMENT_EVENTS, event_type)
        ? adjustmentSchema
        : null;
  if (!schema) return { used: false, event_type };
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `${event_type}: data.${issue.path.join(".")} ${issue.message}` };
  }
  return { used: true, event: { event_id, event_type, occurred_at, data: parsed.data } as PaddleEvent };
}
