import { eq } from "drizzle-orm";
import { addMonths, extensionPriceCents } from "~/domain/extension";
import { getPlan, TRIAL_DAYS } from "~/domain/plans";
import { checkouts, licenses } from "~/server/db/schema";
import { adjustment, subscription, transaction } from "./paddle-fixtures";
import type { AbstractEvent, LicenseScenario, PurchaseCheckout, World } from "./webhook-order-scenarios";

// The webhook delivery-order property's in-order stream: the events Paddle sends, in the order the
// steps of a generated lifecycle happen.

/** Far enough ahead that every end date is in the future when the test runs. */
const T0 = Date.parse("2031-03-01T09:00:00.000Z");
const HOUR = 3_600_000;
const SECOND = 1000;

/** The in-order event stream of a scenario: what Paddle sends as each step happens. */
export function eventsOf(scenario: LicenseScenario[]): AbstractEvent[] & { checkouts: PurchaseCheckout[] } {
  const events = Object.assign([] as AbstractEvent[], { checkouts: [] as PurchaseCheckout[] });
  scenario.forEach((lic, i) => {
    const plan = getPlan(lic.plan);
    const priceId = `pri_demo_${lic.plan}${lic.trial ? "_trial" : ""}`;
    let t = T0 + i * HOUR;
    let periodStart = new Date(t);
    let periodEnd = lic.trial ? new Date(t + TRIAL_DAYS * 24 * HOUR) : addMonths(periodStart, plan.months);
    let trialing = lic.trial;
    let live = true;
    let cancelScheduled = false;
    let refunded = false;
    let refundAsked = false;
    let paidTxn: string | null = lic.trial ? null : `p${i}`;
    let stepsInPeriod = 0;
    let n = 0;
    const key = (what: string) => `l${i}-${++n}-${what}`;
    const trialDates = lic.trial ? { start: periodStart, end: periodEnd } : null;
    const subEvent = (
      type: string,
      at: number,
      extra: { status?: "active" | "trialing" | "canceled"; scheduledCancel?: boolean } = {},
    ) => {
      const start = periodStart;
      const end = periodEnd;
      const status = extra.status ?? (trialing ? "trialing" : "active");
      const scheduledCancel = extra.scheduledCancel ?? cancelScheduled;
      events.push({
        key: key(type),
        license: i,
        type,
        at: new Date(at),
        data: async (w) => ({
          ...subscription({
            subscriptionId: w.subscriptionId(i),
            userId: w.users[i]!.id,
            planType: lic.plan,
            status,
            start,
            end,
            scheduledCancel,
            trialDates: status === "trialing" ? trialDates : null,
          }),
          updated_at: new Date(at).toISOString(),
        }),
      });
    };
    /** The event key of each transaction: adjustments and the next renewal come after it. */
    const txnEvents = new Map<string, string>();
    let lastTxn: string | undefined;
    const txnEvent = (
      txnKey: string,
      at: number,
      fields: { amountCents: number; start: Date; end: Date; origin: "web" | "subscription_recurring"; trial: boolean },
      purchase = false,
    ) => {
      const eventKey = key("transaction.completed");
      events.push({
        key: eventKey,
        license: i,
        type: "transaction.completed",
        at: new Date(at),
        purchase,
        after: lastTxn,
        data: async (w) => ({
          ...transaction({
            userId: w.users[i]!.id,
            planType: lic.plan,
            subscriptionId: w.subscriptionId(i),
            priceId,
            ...fields,
          }),
          id: w.id("txn", txnKey),
          billed_at: fields.start.toISOString(),
        }),
      });
      txnEvents.set(txnKey, eventKey);
      lastTxn = eventKey;
    };

    // The checkout: the server creates it, then the subscription is created and its first transaction completes.
    events.checkouts.push({
      license: i,
      txnKey: `p${i}`,
      plan: lic.plan,
      trial: lic.trial,
      priceId,
      amountCents: lic.trial ? 0 : plan.priceCents,
    });
    subEvent("subscription.created", t);
    subEvent(lic.trial ? "subscription.trialing" : "subscription.activated", t + SECOND);
    txnEvent(
      `p${i}`,
      t + 2 * SECOND,
      {
        amountCents: lic.trial ? 0 : plan.priceCents,
        start: periodStart,
        end: periodEnd,
        origin: "web",
        trial: lic.trial,
      },
      true,
    );

    for (const step of lic.steps) {
      const later = () => (t += step.gapHours * HOUR);
      switch (step.kind) {
        case "renew": {
          if (!live || cancelScheduled || refunded || refundAsked) break;
          t = periodEnd.getTime();
          periodStart = periodEnd;
          periodEnd = addMonths(periodStart, plan.months);
          const txnKey = `r${i}-${n}`;
          txnEvent(txnKey, t, {
            amountCents: plan.priceCents,
            start: periodStart,
            end: periodEnd,
            origin: "subscription_recurring",
            trial: false,
          });
          const wasTrialing = trialing;
          trialing = false;
          subEvent(wasTrialing ? "subscription.activated" : "subscription.updated", t + SECOND);
          paidTxn = txnKey;
          stepsInPeriod = 0;
          break;
        }
        case "cancel":
          if (!live || cancelScheduled || stepsInPeriod >= 3) break;
          later();
          cancelScheduled = true;
          subEvent("subscription.updated", t);
          stepsInPeriod++;
          break;
        case "reenable":
          if (!live || !cancelScheduled || refunded || refundAsked || stepsInPeriod >= 3) break;
          later();
          cancelScheduled = false;
          subEvent("subscription.updated", t);
          stepsInPeriod++;
          break;
        case "end":
          if (!live || !cancelScheduled) break;
          t = periodEnd.getTime();
          live = false;
          subEvent("subscription.canceled", t, { status: "canceled", scheduledCancel: false });
          break;
        case "refund-approved":
        case "refund-rejected":
        case "refund-pending": {
          if (!paidTxn || refunded || refundAsked || stepsInPeriod >= 3) break;
          later();
          const adjKey = `a${i}-${n}`;
          const txnKey = paidTxn;
          const amountCents = Math.ceil(plan.priceCents * 0.95);
          const pending = (w: World) =>
            adjustment({
              adjustmentId: w.id("adj", adjKey),
              transactionId: w.id("txn", txnKey),
              subscriptionId: w.subscriptionId(i),
              amountCents,
              status: "pending_approval",
            });
          const refundedTxn = txnEvents.get(txnKey);
          events.push({
            key: key("adjustment.created"),
            license: i,
            type: "adjustment.created",
            at: new Date(t),
            after: refundedTxn,
            data: async (w) => pending(w),
          });
          refundAsked = true;
          // The site's refund request also stops the renewal.
          if (live && !cancelScheduled) {
            cancelScheduled = true;
            subEvent("subscription.updated", t + SECOND);
          }
          if (step.kind !== "refund-pending") {
            later();
            const status = step.kind === "refund-approved" ? "approved" : "rejected";
            events.push({
              key: key("adjustment.updated"),
              license: i,
              type: "adjustment.updated",
              at: new Date(t),
              after: refundedTxn,
              data: async (w) => ({ ...pending(w), status }),
            });
            refunded = status === "approved";
            refundAsked = false;
          }
          stepsInPeriod++;
          break;
        }
        case "extend": {
          if (refunded || refundAsked || step.months + step.years === 0 || stepsInPeriod >= 3) break;
          later();
          const txnKey = `e${i}-${n}`;
          const paidAt = new Date(t);
          events.push({
            key: key("extension"),
            license: i,
            type: "transaction.completed",
            at: paidAt,
            after: txnEvents.get(`p${i}`),
            data: async (w) => {
              const [row] = await w
                .db()
                .select({ id: licenses.id })
                .from(licenses)
                .where(eq(licenses.paddle_subscription_id, w.subscriptionId(i)));
              // The site created this one-time charge for the license (the extend action).
              await w
                .db()
                .insert(checkouts)
                .values({
                  user_id: w.users[i]!.id,
                  kind: "extension",
                  transaction_id: w.id("txn", txnKey),
                  status: "open",
                  license_id: row!.id,
                  months: step.months + 12 * step.years,
                  amount_cents: extensionPriceCents(step.months, step.years),
                  currency: "USD",
                });
              return {
                ...transaction({
                  userId: w.users[i]!.id,
                  subscriptionId: null,
                  amountCents: extensionPriceCents(step.months, step.years),
                  start: paidAt,
                  end: null,
                  origin: "api",
                  customData: {
                    kind: "extension",
                    user_id: w.users[i]!.id,
                    license_id: row?.id ?? null,
                    months: step.months,
                    years: step.years,
                  },
                }),
                id: w.id("txn", txnKey),
              };
            },
          });
          stepsInPeriod++;
          break;
        }
      }
    }
  });
  return events;
}
