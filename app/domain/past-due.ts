import type { ActionResult } from "./action-result";

/**
 * Payment problems (decision 0023): when a renewal cannot be charged the provider keeps the
 * subscription "past due" and retries; the license keeps working for a grace period after its
 * paid time ends, and a later successful payment clears the problem.
 */

/** Days a past-due license keeps working after its paid time (end date) ends. */
export const PAST_DUE_GRACE_DAYS = 14;

const DAY = 24 * 60 * 60 * 1000;
const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** The fields the payment-problem rules read (dates as Date or ISO strings). */
export interface PastDueFacts {
  end_date: Date | string;
  past_due_since?: Date | string | null;
}

/** When a past-due license stops working: its end date plus the grace period; null when paid up. */
export function graceEndsAt(license: PastDueFacts): Date | null {
  if (!license.past_due_since) return null;
  return new Date(toDate(license.end_date).getTime() + PAST_DUE_GRACE_DAYS * DAY);
}

/** Until when the license works: its end date, or the end of the grace period while past due. */
export function accessEndsAt(license: PastDueFacts): Date {
  return graceEndsAt(license) ?? toDate(license.end_date);
}

/** Whether the license is past due and working only because of the grace period. */
export function isInGracePeriod(license: PastDueFacts, now: Date = new Date()): boolean {
  const graceEnd = graceEndsAt(license);
  return graceEnd !== null && toDate(license.end_date) <= now && now < graceEnd;
}

/**
 * The payment provider refuses every change to a past-due subscription (Paddle's
 * `subscription_update_when_past_due`): no cancelling or re-enabling its renewal, no seat change,
 * until the payment is recovered. Only an immediate cancellation is accepted (decision 0056).
 */
export function subscriptionChangesRefused(license: Pick<PastDueFacts, "past_due_since">): boolean {
  return Boolean(license.past_due_since);
}

/** The payment state stored on a license. */
export interface PaymentState {
  past_due_since: Date | null;
  payment_state_at: Date | null;
}

/**
 * A provider event about the license's payments: a failed charge (transaction.payment_failed,
 * transaction.past_due, subscription.past_due) or a settled one (a completed renewal, the
 * subscription active, trialing or ended again).
 */
export type PaymentEvent = { kind: "failed"; at: Date } | { kind: "settled"; at: Date };

/**
 * The state after an event, or null when it changes nothing. The newest event wins whatever the
 * delivery order (an event not newer than the last one applied is stale); the first failure of an
 * episode is kept as `past_due_since`, so retries do not move it.
 */
export function nextPaymentState(current: PaymentState, event: PaymentEvent): PaymentState | null {
  if (current.payment_state_at && event.at <= current.payment_state_at) return null;
  if (event.kind === "failed") {
    return { past_due_since: current.past_due_since ?? event.at, payment_state_at: event.at };
  }
  return { past_due_since: null, payment_state_at: event.at };
}

/**
 * The provider's reason for a declined charge, from a stored transaction event's payload
 * (Paddle's `data.payments[].error_code`, newest attempt first): "insufficient funds"; null when
 * the payload names none (support explains a failed payment, decision 0057).
 */
export function declineReasonOf(payload: unknown): string | null {
  const data = (payload as { data?: { payments?: unknown } } | null)?.data;
  const attempts = Array.isArray(data?.payments) ? (data.payments as { error_code?: unknown }[]) : [];
  for (const attempt of attempts) {
    const code = attempt?.error_code;
    if (typeof code === "string" && /^[a-z_]{1,64}$/.test(code)) return code.replace(/_/g, " ");
  }
  return null;
}

/** The failed charge attempts a stored transaction event lists (decision 0057): how many, and the newest. */
export interface FailedAttempts {
  count: number;
  lastAt: Date | null;
}

/**
 * The declined attempts of a transaction, from a stored event's payload (Paddle's `data.payments[]`,
 * each with `status` "error" when the charge failed and its `created_at`). The provider does not
 * announce its next retry, so support is told how often it tried and when it last did.
 */
export function failedAttemptsOf(payload: unknown): FailedAttempts {
  const data = (payload as { data?: { payments?: unknown } } | null)?.data;
  const attempts = Array.isArray(data?.payments) ? (data.payments as { status?: unknown; created_at?: unknown }[]) : [];
  let count = 0;
  let lastAt: Date | null = null;
  for (const attempt of attempts) {
    if (attempt?.status !== "error") continue;
    count += 1;
    const at = typeof attempt.created_at === "string" ? new Date(attempt.created_at) : null;
    if (at && !Number.isNaN(at.getTime()) && (!lastAt || at > lastAt)) lastAt = at;
  }
  return { count, lastAt };
}

/** The license card's payment-problem texts, in one place for the card, the server and the tests. */
export const PAYMENT_PROBLEM_TEXTS = {
  title: "Payment failed",
  body: (graceEnd: string) =>
    `We could not charge your payment method for this license's renewal. The license keeps working until ${graceEnd}; update your payment method before then to keep it.`,
  expired:
    "We could not charge your payment method for this license's renewal. Update your payment method to renew it.",
  button: "Update payment method",
  updated: "Payment method updated",
  updatedDetail: "The renewal was paid and your license runs on.",
  updateFailed: "The payment method could not be updated. Please try again.",
  nothingDue: "This license has no failed payment to settle.",
  /** What a past-due card and /team say instead of the changes the provider refuses. */
  whileOverdue: (graceEnd: string | null) =>
    graceEnd
      ? `While the payment is overdue, automatic renewal and seats cannot be changed. The payment is retried automatically; if none goes through by ${graceEnd}, the license stops working and its subscription ends.`
      : "While the payment is overdue, automatic renewal and seats cannot be changed. Update your payment method to renew the license.",
  /** The server's answer (409) to a renewal or seat change asked for while the payment is overdue. */
  changeRefused:
    "This subscription's last payment failed, so it cannot be changed now. Update your payment method first; once the payment goes through, you can change it again.",
} as const;

/** What "Update payment method" answers: the overlay's transaction, or the demo payment's outcome. */
export type PaymentMethodAnswer = ActionResult & { transactionId?: string; demo?: boolean; recovered?: boolean };
