import { and, desc, eq, like, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { licenses, webhook_events, type License } from "../db/schema";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { subscriptionSchema, type PaddleSubscription } from "./paddle-events.server";

/** The license a subscription pays for, locked for the rest of the transaction. */
export async function licenseForSubscription(tx: Transaction, subscriptionId: string): Promise<License | undefined> {
  const [license] = await tx
    .select()
    .from(licenses)
    .where(eq(licenses.paddle_subscription_id, subscriptionId))
    .for("update");
  return license;
}

/** Subscription state on the license (renewing, cancellation scheduled, trial dates), never moving it backwards. */
export async function applySubscription(tx: Transaction, sub: PaddleSubscription, occurredAt: Date): Promise<void> {
  const license = await licenseForSubscription(tx, sub.id);
  // Before the purchase's transaction.completed the license does not exist yet; that event
  // creates it with a new subscription's state, so nothing is lost by skipping this one.
  if (!license) return;
  if (license.subscription_synced_at && occurredAt <= license.subscription_synced_at) return;
  const cancelScheduled = sub.scheduled_change?.action === "cancel";
  const live = sub.status === "active" || sub.status === "trialing" || sub.status === "past_due";
  const trialDates = sub.items.find((item) => item.trial_dates)?.trial_dates;
  const changes: Partial<License> = {
    subscription_synced_at: occurredAt,
    auto_renew: live && !cancelScheduled,
    cancellation_requested: live && cancelScheduled,
    cancellation_requested_at: live && cancelScheduled ? (license.cancellation_requested_at ?? occurredAt) : null,
  };
  if (sub.status === "trialing" && trialDates) {
    // Only a license granted as a trial follows the trial's dates; a subscription event never
    // makes a paid (or refused-trial, or extended) license a trial.
    if (license.is_trial) {
      Object.assign(changes, {
        trial_starts_at: new Date(trialDates.starts_at),
        trial_ends_at: new Date(trialDates.ends_at),
      });
    }
  } else if (sub.status === "active" || sub.status === "past_due") {
    // Billed: whatever order the events came in, the trial is over.
    changes.is_trial = false;
  }
  await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
  // A cancellation scheduled at the provider (its dashboard, a customer portal) that the site did
  // not ask for: the customer hears of it. One the site asked for was announced by its action
  // (cancellation_requested already true); a refund's or revoke's stop says so in its own e-mail.
  if (
    changes.cancellation_requested &&
    !license.cancellation_requested &&
    license.status === "active" &&
    !license.refunded
  ) {
    await queueCustomerMail(tx, subscriptionCancelledMail(license));
  }
}

/** The "subscription cancelled" e-mail, keyed by the period it ends with (one per period). */
export function subscriptionCancelledMail(license: Pick<License, "id" | "end_date" | "is_trial" | "trial_ends_at">) {
  const endsOn = license.is_trial && license.trial_ends_at ? license.trial_ends_at : license.end_date;
  return { kind: "subscription-cancelled" as const, licenseId: license.id, key: endsOn.toISOString() };
}

export /** Applies the newest stored event about a subscription (used when its license was just created). */
async function resyncSubscription(tx: Transaction, subscriptionId: string): Promise<void> {
  const [latest] = await tx
    .select({ payload: webhook_events.payload, occurred_at: webhook_events.occurred_at })
    .from(webhook_events)
    .where(
      and(
        sql`${webhook_events.payload} -> 'data' ->> 'id' = ${subscriptionId}`,
        like(webhook_events.event_type, "subscription.%"),
      ),
    )
    .orderBy(desc(webhook_events.occurred_at))
    .limit(1);
  if (!latest) return;
  const sub = subscriptionSchema.safeParse((latest.payload as { data?: unknown }).data);
  if (sub.success) await applySubscription(tx, sub.data, latest.occurred_at);
}
