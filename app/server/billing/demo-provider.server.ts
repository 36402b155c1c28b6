import { and, eq, sql } from "drizzle-orm";
import { addMonths } from "~/domain/extension";
import { getPlan, isPlanId, TRIAL_DAYS, type PlanId } from "~/domain/plans";
import type { Database } from "../db/client.server";
import { getDb } from "../db/db.server";
import { demo_billing } from "../db/schema";
import { enqueue } from "../jobs/jobs.server";
import type { PaddleAdjustment, PaddleSubscription, PaddleTransaction } from "./paddle-events.server";
import { ProviderError } from "./payment-provider.server";
import { demoPastDue } from "./demo-past-due.server";
import type { DemoDelivery, DemoProvider, RenewOutcome } from "./demo-provider-type.server";
import { demoId, demoShapes } from "./demo-shapes.server";
import { demoStore } from "./demo-store.server";
import { signatureHeader } from "./webhook-signature.server";

/**
 * The demo payment provider: Paddle's part played in the site's own database. It keeps
 * subscriptions, transactions and adjustments in Paddle's shapes (table demo_billing) and
 * announces every change as a Paddle-shaped event, signed with DEMO_WEBHOOK_SECRET and passed
 * through the same verification and handlers as Paddle's webhooks. No card data, no money.
 */

export type { DemoProvider } from "./demo-provider-type.server";

interface DemoEvent {
  event_type: string;
  data: PaddleSubscription | PaddleTransaction | PaddleAdjustment;
}

export function createDemoProvider(options: {
  webhookSecret: string;
  deliver: DemoDelivery;
  /** Pending refunds are approved this long after the request; null leaves them pending. */
  refundApprovalMs?: number | null;
  db?: () => Database;
}): DemoProvider {
  const db = options.db ?? getDb;
  const refundApprovalMs = options.refundApprovalMs === undefined ? 10_000 : options.refundApprovalMs;

  const { load, save, completeReady } = demoStore(db);
  /** Signs each event and hands it to the webhook endpoint, in order, as Paddle would deliver it. */
  async function deliver(events: DemoEvent[], at: Date = new Date()): Promise<void> {
    for (const event of events) {
      const body = JSON.stringify({
        event_id: demoId("evt"),
        event_type: event.event_type,
        occurred_at: at.toISOString(),
        notification_id: demoId("ntf"),
        data: event.data,
      });
      const result = await options.deliver({ rawBody: body, signature: signatureHeader(options.webhookSecret, body) });
      if (result.status !== 200)
        throw new ProviderError(`demo ${event.event_type} was refused: ${result.body.message}`);
    }
  }
  async function updateSubscription(subscriptionId: string, change: (sub: PaddleSubscription) => PaddleSubscription) {
    const sub = change(await load<PaddleSubscription>(subscriptionId, "subscription"));
    await save("subscription", sub, sub.id);
    await deliver([{ event_type: "subscription.updated", data: sub }]);
  }

  const provider: DemoProvider = {
    name: "demo",
    webhookSecret: options.webhookSecret,

    async createPlanCheckout({ checkoutId, userId, planId, priceId, trial }) {
      const now = new Date();
      // Ready to pay, as Paddle's transaction for a checkout is; the subscription exists once paid.
      const txn = {
        ...demoShapes.transaction({
          subscriptionId: null,
          customData: { user_id: userId, plan_type: planId, checkout_id: checkoutId },
          priceId,
          trialPeriod: trial ? { interval: "day", frequency: TRIAL_DAYS } : null,
          months: getPlan(planId).months,
          amountCents: trial ? 0 : getPlan(planId).priceCents,
          period: null,
          origin: "web",
          at: now,
        }),
        status: "ready",
      };
      await save("transaction", txn, null);
      return { transactionId: txn.id };
    },

    async payCheckout(transactionId) {
      const ready = await load<PaddleTransaction>(transactionId, "transaction");
      const userId = ready.custom_data?.user_id;
      const planId = ready.custom_data?.plan_type;
      if (ready.status !== "ready") throw new ProviderError(`transaction ${transactionId} was paid already`);
      if (ready.subscription_id !== null && ready.subscription_id !== undefined)
        throw new ProviderError(`transaction ${transactionId} is not a checkout`);
      if (typeof userId !== "string" || !isPlanId(planId))
        throw new ProviderError(`transaction ${transactionId} is not a plan checkout`);
      const now = new Date();
      const price = ready.items[0]!.price;
      const trial = Boolean(price.trial_period);
      const sub = demoShapes.subscription({ id: demoId("sub"), userId, planId, priceId: price.id, trial, start: now });
      const txn = demoShapes.transaction({
        id: ready.id,
        subscriptionId: sub.id,
        customData: ready.custom_data ?? {},
        priceId: price.id,
        trialPeriod: price.trial_period ?? null,
        months: getPlan(planId).months,
        amountCents: Number(ready.details.totals.total),
        period: sub.current_billing_period!,
        origin: "web",
        at: now,
      });
      await completeReady(txn, sub.id);
      await save("subscription", sub, sub.id);
      await deliver(
        [
          { event_type: "subscription.created", data: sub },
          { event_type: trial ? "subscription.trialing" : "subscription.activated", data: sub },
          { event_type: "transaction.completed", data: txn },
        ],
        now,
      );
      return { transactionId: txn.id, subscriptionId: sub.id };
    },

    async renew(subscriptionId, now = new Date()) {
      const sub = await load<PaddleSubscription>(subscriptionId, "subscription");
      // A past-due subscription is charged again for the renewal it owes, not for a new period.
      if (sub.status === "past_due") return provider.recover(subscriptionId, now);
      if (sub.status === "canceled" || sub.status === "paused" || !sub.current_billing_period) {
        return { subscriptionId, outcome: "skipped", reason: `the subscription is ${sub.status}` };
      }
      const periodEnd = sub.current_billing_period.ends_at;
      if (sub.scheduled_change?.action === "cancel") {
        const canceled: PaddleSubscription = {
          ...sub,
          status: "canceled",
          canceled_at: periodEnd,
          scheduled_change: null,
          next_billed_at: null,
          current_billing_period: null,
          items: sub.items.map((item) => ({ ...item, status: "inactive" })),
        };
        await save("subscription", canceled, sub.id);
        await deliver([{ event_type: "subscription.canceled", data: canceled }], now);
        return { subscriptionId, outcome: "canceled" };
      }
      const planId = sub.custom_data?.plan_type as PlanId;
      const plan = getPlan(planId);
      const start = new Date(periodEnd);
      const period = { starts_at: start.toISOString(), ends_at: addMonths(start, plan.months).toISOString() };
      const wasTrialing = sub.status === "trialing";
      const renewed: PaddleSubscription = {
        ...sub,
        status: "active",
        current_billing_period: period,
        next_billed_at: period.ends_at,
        items: sub.items.map((item) => ({ ...item, status: "active" })),
      };
      const txn = demoShapes.transaction({
        subscriptionId,
        customData: sub.custom_data ?? {},
        priceId: sub.items[0]!.price.id,
        months: plan.months,
        amountCents: plan.priceCents,
        period,
        origin: "subscription_recurring",
        at: now,
      });
      await save("subscription", renewed, sub.id);
      await save("transaction", txn, sub.id);
      await deliver(
        [
          { event_type: "transaction.completed", data: txn },
          { event_type: wasTrialing ? "subscription.activated" : "subscription.updated", data: renewed },
        ],
        now,
      );
      return { subscriptionId, outcome: "renewed", transactionId: txn.id, periodEnd: period.ends_at };
    },

    ...demoPastDue({ load, save, deliver, db }),

    // The site renders the demo's invoices itself (app/server/billing/invoice-pdf.server.ts).
    invoiceUrl: async () => null,

    async renewAll(now = new Date()) {
      const rows = await db()
        .select({ id: demo_billing.id })
        .from(demo_billing)
        .where(
          and(
            eq(demo_billing.kind, "subscription"),
            sql`${demo_billing.data} ->> 'status' in ('active', 'trialing', 'past_due')`,
          ),
        );
      const outcomes: RenewOutcome[] = [];
      for (const row of rows) outcomes.push(await provider.renew(row.id, now));
      return outcomes;
    },

    async cancelAtPeriodEnd(subscriptionId) {
      await updateSubscription(subscriptionId, (sub) => {
        if (sub.status === "canceled" || !sub.current_billing_period)
          throw new ProviderError(`subscription ${sub.id} is ${sub.status}`);
        return {
          ...sub,
          scheduled_change: { action: "cancel", effective_at: sub.current_billing_period.ends_at, resume_at: null },
        };
      });
    },

    async removeScheduledCancel(subscriptionId) {
      await updateSubscription(subscriptionId, (sub) => {
        if (sub.status === "canceled") throw new ProviderError(`subscription ${sub.id} is canceled`);
        return { ...sub, scheduled_change: null };
      });
    },

    async refund({ transactionId, amountCents, reason }) {
      const txn = await load<PaddleTransaction>(transactionId, "transaction");
      if (txn.status !== "completed") throw new ProviderError(`transaction ${transactionId} is not completed`);
      if (amountCents <= 0 || amountCents > Number(txn.details.totals.total)) {
        throw new ProviderError(`refund of ${amountCents} exceeds what transaction ${transactionId} paid`);
      }
      const pending = await db()
        .select({ id: demo_billing.id })
        .from(demo_billing)
        .where(
          and(
            eq(demo_billing.kind, "adjustment"),
            sql`${demo_billing.data} ->> 'transaction_id' = ${transactionId}`,
            sql`${demo_billing.data} ->> 'status' in ('pending_approval', 'approved')`,
          ),
        );
      if (pending.length > 0) throw new ProviderError(`transaction ${transactionId} already has a refund`);
      const adjustment: PaddleAdjustment & Record<string, unknown> = {
        id: demoId("adj"),
        action: "refund",
        type: "partial",
        transaction_id: transactionId,
        subscription_id: txn.subscription_id ?? null,
        customer_id: txn.customer_id ?? null,
        reason,
        currency_code: "USD",
        status: "pending_approval",
        totals: {
          subtotal: String(amountCents),
          tax: "0",
          total: String(amountCents),
          fee: "0",
          earnings: "0",
          currency_code: "USD",
        },
        created_at: new Date().toISOString(),
      };
      await save("adjustment", adjustment, txn.subscription_id ?? null);
      await deliver([{ event_type: "adjustment.created", data: adjustment }]);
      if (refundApprovalMs !== null) {
        // A durable job in this database, not a timer: the approval survives a restart (issue 22).
        const [key, startAfter] = [`demo-refund-approval:${adjustment.id}`, new Date(Date.now() + refundApprovalMs)];
        await enqueue("demo-refund-approval", { adjustmentId: adjustment.id }, { key, startAfter });
      }
      return { adjustmentId: adjustment.id };
    },

    async settleRefund(adjustmentId, status) {
      const adjustment = await load<PaddleAdjustment>(adjustmentId, "adjustment");
      if (adjustment.status !== "pending_approval") return;
      const settled = { ...adjustment, status, updated_at: new Date().toISOString() };
      await save("adjustment", settled, adjustment.subscription_id ?? null);
      await deliver([{ event_type: "adjustment.updated", data: settled }]);
    },

    async createExtensionCharge({ checkoutId, userId, licenseId, months, years, amountCents }) {
      const txn = {
        ...demoShapes.transaction({
          subscriptionId: null,
          customData: {
            kind: "extension",
            user_id: userId,
            license_id: licenseId,
            months,
            years,
            checkout_id: checkoutId,
          },
          priceId: "pri_demo_extension",
          months: null,
          amountCents,
          period: null,
          origin: "api",
          at: new Date(),
        }),
        status: "ready",
      };
      await save("transaction", txn, null);
      return { transactionId: txn.id };
    },

    async payExtension(transactionId) {
      const txn = await load<PaddleTransaction>(transactionId, "transaction");
      if (txn.status !== "ready") throw new ProviderError(`transaction ${transactionId} is ${txn.status}`);
      const now = new Date();
      const completed = { ...txn, status: "completed", billed_at: now.toISOString(), updated_at: now.toISOString() };
      await completeReady(completed, null);
      await deliver([{ event_type: "transaction.completed", data: completed }], now);
    },
  };
  return provider;
}
