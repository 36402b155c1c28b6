import { and, desc, eq, gt, inArray, like, sql } from "drizzle-orm";
import { addMonths, extendedEndDate } from "~/domain/extension";
import { isPlanId, refundEligibleUntil, type PlanId } from "~/domain/plans";
import { isUuid } from "../action-error.server";
import type { Transaction } from "../db/client.server";
import { audit_log, checkouts, licenses, payments, users, webhook_events, type License } from "../db/schema";
import { licenseKeys } from "../licenses/keys.server";
import { getLogger } from "../logger.server";
import { subscriptionSchema, type PaddleAdjustment, type PaddleEvent, type PaddleSubscription, type PaddleTransaction } from "./paddle-events.server";
import { isTrialPriceId, planForPriceId } from "./price-ids.server";

/**
 * Applies one verified provider event to the licenses, inside the transaction that recorded
 * it. The license row follows the subscription; payments are facts keyed by transaction id;
 * an event older than what the row already reflects never moves it backwards.
 */
export async function applyWebhookEvent(tx: Transaction, event: PaddleEvent): Promise<FollowUp[]> {
  const occurredAt = new Date(event.occurred_at);
  switch (event.event_type) {
    case "transaction.completed":
      return applyTransactionCompleted(tx, event.data, occurredAt);
    case "adjustment.created":
    case "adjustment.updated":
      return applyAdjustment(tx, event.data, occurredAt, event.event_id);
    default:
      await applySubscription(tx, event.data, occurredAt);
      return [];
  }
}

/** What the provider must still be told once the event's changes are committed. */
export type FollowUp = { kind: "stop-renewal"; licenseId: string; subscriptionId: string };

/** What the checkout (or the server, for extensions) put in custom_data. */
function readCustomData(data: Record<string, unknown> | null | undefined) {
  const userId = isUuid(data?.user_id) ? data.user_id : null;
  const planType = isPlanId(data?.plan_type) ? data.plan_type : null;
  // Which license and how many months come from the checkout the server recorded, never from here.
  const extension = data?.kind === "extension";
  return { userId, planType, extension };
}

async function licenseForSubscription(tx: Transaction, subscriptionId: string): Promise<License | undefined> {
  const [license] = await tx
    .select()
    .from(licenses)
    .where(eq(licenses.paddle_subscription_id, subscriptionId))
    .for("update");
  return license;
}

function newKey(license: Pick<License, "email" | "windows_username" | "computer_name" | "start_date">, end_date: Date): string {
  return licenseKeys().generate({
    email: license.email,
    windows_username: license.windows_username,
    computer_name: license.computer_name,
    start_date: license.start_date,
    end_date,
  });
}

async function applyTransactionCompleted(tx: Transaction, txn: PaddleTransaction, occurredAt: Date): Promise<FollowUp[]> {
  const log = getLogger();
  const custom = readCustomData(txn.custom_data);
  if (!custom.userId) {
    log.warn({ transaction: txn.id }, "transaction.completed without custom_data.user_id: not linked to a user");
    return [];
  }
  const [already] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, txn.id));
  if (already) return [];
  const amount = Number(txn.details.totals.total);
  const billedAt = new Date(txn.billed_at ?? occurredAt);
  const payment: PaymentFacts = {
    id: txn.id,
    user_id: custom.userId,
    subscription_id: txn.subscription_id ?? null,
    item_id: txn.details.line_items[0]?.id ?? null,
    amount_cents: amount,
    currency: txn.details.totals.currency_code,
    billed_at: billedAt,
  };

  // An extension is a one-time transaction (no subscription) that the server itself created.
  if (custom.extension && !txn.subscription_id) return applyExtensionPayment(tx, txn, payment);

  if (!txn.subscription_id || !txn.billing_period) {
    log.warn({ transaction: txn.id }, "transaction.completed without a subscription or billing period: nothing to apply");
    return [];
  }
  // The price paid decides the plan; custom data only when the price is not one of ours.
  const planType: PlanId | null = planForPriceId(txn.items[0]?.price.id ?? "") ?? custom.planType;
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, custom.userId));
  if (!user) {
    log.warn({ transaction: txn.id, userId: custom.userId }, "transaction.completed for a user that does not exist");
    return [];
  }
  const periodStart = new Date(txn.billing_period.starts_at);
  const periodEnd = new Date(txn.billing_period.ends_at);
  // The trial is granted only through a trial checkout the server created for a first-time buyer
  // (decided, under a lock, when the checkout was created). A trial price arriving any other way
  // is recorded, flagged, and makes a regular license.
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.transaction_id, txn.id)).for("update");
  const trialPrice = txn.items.some((item) => item.price.trial_period) || isTrialPriceId(txn.items[0]?.price.id ?? "");
  const isTrial =
    trialPrice &&
    amount === 0 &&
    checkout?.kind === "plan" &&
    checkout.trial &&
    checkout.status !== "superseded" &&
    checkout.user_id === custom.userId;
  if (checkout) await tx.update(checkouts).set({ status: "completed", updated_at: occurredAt }).where(eq(checkouts.id, checkout.id));

  let license = await licenseForSubscription(tx, txn.subscription_id);
  let kind: "purchase" | "renewal" = "renewal";
  if (!license) {
    if (!planType) {
      log.warn({ transaction: txn.id }, "transaction.completed for an unknown plan: nothing to apply");
      return [];
    }
    kind = "purchase";
    const base = { email: user.email, windows_username: null, computer_name: null, start_date: periodStart };
    const inserted = await tx
      .insert(licenses)
      .values({
        user_id: custom.userId,
        ...base,
        license_key: newKey(base, periodEnd),
        license_type: planType,
        status: "active",
        end_date: periodEnd,
        is_trial: isTrial,
        trial_starts_at: isTrial ? periodStart : null,
        trial_ends_at: isTrial ? periodEnd : null,
        auto_renew: true,
        paddle_subscription_id: txn.subscription_id,
        purchase_date: billedAt,
        refund_eligible_until: refundEligibleUntil(billedAt),
      })
      .onConflictDoNothing()
      .returning();
    license = inserted[0] ?? (await licenseForSubscription(tx, txn.subscription_id));
    if (!license) throw new Error(`license for ${txn.subscription_id} neither inserted nor found`);
    if (trialPrice && !isTrial) {
      await flagAudit(tx, "trial_refused", license.id, {
        transaction: txn.id,
        user_id: custom.userId,
        reason: checkout ? "the checkout was not a first-time buyer's trial" : "no checkout created by the site",
      });
    }
    // Subscription events that arrived before this one (e.g. a cancellation) apply now.
    await resyncSubscription(tx, txn.subscription_id);
  } else if (license.status === "revoked" || license.status === "refunded" || license.status === "refund_requested" || license.refunded) {
    // Charged although revoked or refunded: the earlier stop did not reach the provider. Record
    // the payment, keep the license as it is, and ask the provider to stop renewing again.
    await tx.insert(payments).values({ ...payment, license_id: license.id, kind: "renewal" });
    log.warn({ transaction: txn.id, licenseId: license.id }, "renewal charged for a revoked or refunded license");
    return [{ kind: "stop-renewal", licenseId: license.id, subscriptionId: txn.subscription_id }];
  } else {
    // A renewal: the license runs to the new period's end (plus any extension); never backwards.
    const end_date = addMonths(periodEnd, license.extended_months);
    const changes: Partial<License> = {};
    if (end_date > license.end_date) Object.assign(changes, { end_date, license_key: newKey(license, end_date) });
    if (amount > 0) {
      const [earlierPaid] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.license_id, license.id), gt(payments.amount_cents, 0), inArray(payments.kind, ["purchase", "renewal"])))
        .limit(1);
      // The first paid period after a trial is the purchase that the refund window counts from.
      if (!earlierPaid) Object.assign(changes, { is_trial: false, purchase_date: billedAt, refund_eligible_until: refundEligibleUntil(billedAt) });
    }
    if (Object.keys(changes).length > 0) await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
  }
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind });
  return [];
}

async function applySubscription(tx: Transaction, sub: PaddleSubscription, occurredAt: Date): Promise<void> {
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
      Object.assign(changes, { trial_starts_at: new Date(trialDates.starts_at), trial_ends_at: new Date(trialDates.ends_at) });
    }
  } else if (sub.status === "active" || sub.status === "past_due") {
    // Billed: whatever order the events came in, the trial is over.
    changes.is_trial = false;
  }
  await tx.update(licenses).set(changes).where(eq(licenses.id, license.id));
}

/** A completed transaction's facts, before we know which license it paid for. */
type PaymentFacts = Omit<typeof payments.$inferInsert, "license_id" | "kind"> & { amount_cents: number; billed_at: Date; user_id: string };

/** Applies the newest stored event about a subscription (used when its license was just created). */
async function resyncSubscription(tx: Transaction, subscriptionId: string): Promise<void> {
  const [latest] = await tx
    .select({ payload: webhook_events.payload, occurred_at: webhook_events.occurred_at })
    .from(webhook_events)
    .where(and(sql`${webhook_events.payload} -> 'data' ->> 'id' = ${subscriptionId}`, like(webhook_events.event_type, "subscription.%")))
    .orderBy(desc(webhook_events.occurred_at))
    .limit(1);
  if (!latest) return;
  const sub = subscriptionSchema.safeParse((latest.payload as { data?: unknown }).data);
  if (sub.success) await applySubscription(tx, sub.data, latest.occurred_at);
}

/** An extension payment: applied only when its transaction is the extension checkout the server created. */
async function applyExtensionPayment(
  tx: Transaction,
  txn: PaddleTransaction,
  payment: PaymentFacts,
): Promise<FollowUp[]> {
  const log = getLogger();
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.transaction_id, txn.id)).for("update");
  const currency = txn.details.totals.currency_code;
  if (
    !checkout ||
    checkout.kind !== "extension" ||
    checkout.status === "completed" ||
    checkout.user_id !== payment.user_id ||
    !checkout.license_id ||
    currency !== checkout.currency ||
    payment.amount_cents < checkout.amount_cents
  ) {
    log.warn({ transaction: txn.id, amount: payment.amount_cents, currency }, "extension payment does not match a checkout the site created: not applied");
    await flagAudit(tx, "extension_refused", txn.id, { transaction: txn.id, user_id: payment.user_id, amount_cents: payment.amount_cents, currency });
    return [];
  }
  const [license] = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, checkout.license_id), eq(licenses.user_id, checkout.user_id)))
    .for("update");
  if (!license) {
    log.warn({ transaction: txn.id, licenseId: checkout.license_id }, "extension paid for a license that does not exist");
    return [];
  }
  const end_date = extendedEndDate(license.end_date, payment.billed_at, checkout.months);
  await tx
    .update(licenses)
    // A paid extension makes a trial a paid license.
    .set({ end_date, extended_months: license.extended_months + checkout.months, is_trial: false, license_key: newKey(license, end_date) })
    .where(eq(licenses.id, license.id));
  await tx.insert(payments).values({ ...payment, license_id: license.id, kind: "extension" });
  await tx.update(checkouts).set({ status: "completed", updated_at: payment.billed_at }).where(eq(checkouts.id, checkout.id));
  return [];
}

/** An audit entry by the payment provider's webhook (no person acted): something to look at. */
async function flagAudit(tx: Transaction, action: string, targetId: string, details: Record<string, unknown>): Promise<void> {
  await tx.insert(audit_log).values({ actor_id: null, actor_email: "payment webhook", action, target_type: action.startsWith("trial") ? "license" : "transaction", target_id: targetId, details });
}

async function applyAdjustment(tx: Transaction, adjustment: PaddleAdjustment, occurredAt: Date, eventId: string): Promise<FollowUp[]> {
  if (adjustment.action !== "refund") return [];
  // A later event about the same adjustment was applied already: this one is stale.
  const newer = await tx
    .select({ id: webhook_events.event_id })
    .from(webhook_events)
    .where(
      and(
        sql`${webhook_events.payload} -> 'data' ->> 'id' = ${adjustment.id}`,
        gt(webhook_events.occurred_at, occurredAt),
        sql`${webhook_events.event_id} <> ${eventId}`,
      ),
    )
    .limit(1);
  if (newer.length > 0) return [];
  const [paid] = await tx
    .select({ license_id: payments.license_id })
    .from(payments)
    .where(eq(payments.id, adjustment.transaction_id));
  const [license] = paid
    ? await tx.select().from(licenses).where(eq(licenses.id, paid.license_id)).for("update")
    : adjustment.subscription_id
      ? [await licenseForSubscription(tx, adjustment.subscription_id)]
      : [];
  if (!license) {
    getLogger().warn({ adjustment: adjustment.id }, "refund adjustment for a transaction we do not know");
    return [];
  }
  if (license.refunded) return [];
  if (adjustment.status === "approved") {
    await tx
      .update(licenses)
      .set({
        status: "refunded",
        refunded: true,
        refund_amount: Math.abs(Number(adjustment.totals.total)),
        refunded_at: occurredAt,
        auto_renew: false,
        cancellation_requested: false,
        cancellation_requested_at: null,
      })
      .where(eq(licenses.id, license.id));
    // A refund approved without the site's request (e.g. in Paddle's dashboard): stop renewal too.
    if (license.auto_renew && !license.cancellation_requested && license.paddle_subscription_id) {
      return [{ kind: "stop-renewal", licenseId: license.id, subscriptionId: license.paddle_subscription_id }];
    }
  } else if (adjustment.status === "pending_approval") {
    if (license.status === "active") await tx.update(licenses).set({ status: "refund_requested" }).where(eq(licenses.id, license.id));
  } else if (license.status === "refund_requested") {
    // Rejected (or reversed before approval): the license is active again.
    await tx.update(licenses).set({ status: "active" }).where(eq(licenses.id, license.id));
  }
  return [];
}

/** The newest paid purchase or renewal of a license (never an extension): what its refund refunds. */
export async function latestPaidPayment(tx: Pick<Transaction, "select">, licenseId: string) {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.license_id, licenseId), gt(payments.amount_cents, 0), inArray(payments.kind, ["purchase", "renewal"])))
    .orderBy(desc(payments.billed_at))
    .limit(1);
  return payment;
}
