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

type Events = AbstractEvent[] & { checkouts: PurchaseCheckout[] };
type Step = LicenseScenario["steps"][number];
interface TxnFields {
  amountCents: number;
  start: Date;
  end: Date;
  origin: "web" | "subscription_recurring";
  trial: boolean;
}

/** The in-order event stream of a scenario: what Paddle sends as each step happens. */
export function eventsOf(scenario: LicenseScenario[]): Events {
  const events = Object.assign([] as AbstractEvent[], { checkouts: [] as PurchaseCheckout[] });
  scenario.forEach((lic, i) => new LicenseStream(events, lic, i).play());
  return events;
}

/** One license's lifecycle, step by step: what it is at each moment and the events each step sends. */
class LicenseStream {
  private readonly plan: ReturnType<typeof getPlan>;
  private readonly priceId: string;
  private t: number;
  private periodStart: Date;
  private periodEnd: Date;
  private trialing: boolean;
  private live = true;
  private cancelScheduled = false;
  private refunded = false;
  private refundAsked = false;
  private paidTxn: string | null;
  private stepsInPeriod = 0;
  private n = 0;
  private readonly trialDates: { start: Date; end: Date } | null;
  /** The event key of each transaction: adjustments and the next renewal come after it. */
  private readonly txnEvents = new Map<string, string>();
  private lastTxn: string | undefined;

  constructor(
    private readonly events: Events,
    private readonly lic: LicenseScenario,
    private readonly i: number,
  ) {
    this.plan = getPlan(lic.plan);
    this.priceId = `pri_demo_${lic.plan}${lic.trial ? "_trial" : ""}`;
    this.t = T0 + i * HOUR;
    this.periodStart = new Date(this.t);
    this.periodEnd = lic.trial
      ? new Date(this.t + TRIAL_DAYS * 24 * HOUR)
      : addMonths(this.periodStart, this.plan.months);
    this.trialing = lic.trial;
    this.paidTxn = lic.trial ? null : `p${i}`;
    this.trialDates = lic.trial ? { start: this.periodStart, end: this.periodEnd } : null;
  }

  play() {
    const { lic, i } = this;
    // The checkout: the server creates it, then the subscription is created and its first transaction completes.
    const amountCents = lic.trial ? 0 : this.plan.priceCents;
    this.events.checkouts.push({
      license: i,
      txnKey: `p${i}`,
      plan: lic.plan,
      trial: lic.trial,
      priceId: this.priceId,
      amountCents,
    });
    this.subEvent("subscription.created", this.t);
    this.subEvent(lic.trial ? "subscription.trialing" : "subscription.activated", this.t + SECOND);
    const first = {
      amountCents,
      start: this.periodStart,
      end: this.periodEnd,
      origin: "web",
      trial: lic.trial,
    } as const;
    this.txnEvent(`p${i}`, this.t + 2 * SECOND, first, true);
    for (const step of lic.steps) this.take(step);
  }

  private take(step: Step) {
    switch (step.kind) {
      case "renew":
        return this.renew();
      case "cancel":
      case "reenable":
        return this.scheduleCancel(step, step.kind === "cancel");
      case "end":
        return this.end();
      case "refund-approved":
      case "refund-rejected":
      case "refund-pending":
        return this.refund(step);
      case "extend":
        return this.extend(step);
    }
  }

  private key(what: string) {
    return `l${this.i}-${++this.n}-${what}`;
  }

  private later(step: Step) {
    this.t += step.gapHours * HOUR;
  }

  private subEvent(
    type: string,
    at: number,
    extra: { status?: "active" | "trialing" | "canceled"; scheduledCancel?: boolean } = {},
  ) {
    const { i, lic, periodStart: start, periodEnd: end, trialDates } = this;
    const status = extra.status ?? (this.trialing ? "trialing" : "active");
    const scheduledCancel = extra.scheduledCancel ?? this.cancelScheduled;
    this.events.push({
      key: this.key(type),
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
  }

  private txnEvent(txnKey: string, at: number, fields: TxnFields, purchase = false) {
    const { i, lic, priceId } = this;
    const eventKey = this.key("transaction.completed");
    this.events.push({
      key: eventKey,
      license: i,
      type: "transaction.completed",
      at: new Date(at),
      purchase,
      after: this.lastTxn,
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
    this.txnEvents.set(txnKey, eventKey);
    this.lastTxn = eventKey;
  }

  private renew() {
    if (!this.live || this.cancelScheduled || this.refunded || this.refundAsked) return;
    this.t = this.periodEnd.getTime();
    this.periodStart = this.periodEnd;
    this.periodEnd = addMonths(this.periodStart, this.plan.months);
    const txnKey = `r${this.i}-${this.n}`;
    const fields = { amountCents: this.plan.priceCents, start: this.periodStart, end: this.periodEnd };
    this.txnEvent(txnKey, this.t, { ...fields, origin: "subscription_recurring", trial: false });
    const wasTrialing = this.trialing;
    this.trialing = false;
    this.subEvent(wasTrialing ? "subscription.activated" : "subscription.updated", this.t + SECOND);
    this.paidTxn = txnKey;
    this.stepsInPeriod = 0;
  }

  /** A scheduled cancellation (`cancel`), or its removal. */
  private scheduleCancel(step: Step, cancel: boolean) {
    if (!this.live || this.stepsInPeriod >= 3) return;
    if (cancel ? this.cancelScheduled : !this.cancelScheduled || this.refunded || this.refundAsked) return;
    this.later(step);
    this.cancelScheduled = cancel;
    this.subEvent("subscription.updated", this.t);
    this.stepsInPeriod++;
  }

  private end() {
    if (!this.live || !this.cancelScheduled) return;
    this.t = this.periodEnd.getTime();
    this.live = false;
    this.subEvent("subscription.canceled", this.t, { status: "canceled", scheduledCancel: false });
  }

  private refund(step: Step) {
    if (!this.paidTxn || this.refunded || this.refundAsked || this.stepsInPeriod >= 3) return;
    const { i } = this;
    this.later(step);
    const adjKey = `a${i}-${this.n}`;
    const txnKey = this.paidTxn;
    const amountCents = Math.ceil(this.plan.priceCents * 0.95);
    const pending = (w: World) =>
      adjustment({
        adjustmentId: w.id("adj", adjKey),
        transactionId: w.id("txn", txnKey),
        subscriptionId: w.subscriptionId(i),
        amountCents,
        status: "pending_approval",
      });
    const refundedTxn = this.txnEvents.get(txnKey);
    const adjustmentEvent = (type: string, data: (w: World) => Promise<unknown>) =>
      this.events.push({ key: this.key(type), license: i, type, at: new Date(this.t), after: refundedTxn, data });
    adjustmentEvent("adjustment.created", async (w) => pending(w));
    this.refundAsked = true;
    // The site's refund request also stops the renewal.
    if (this.live && !this.cancelScheduled) {
      this.cancelScheduled = true;
      this.subEvent("subscription.updated", this.t + SECOND);
    }
    if (step.kind !== "refund-pending") {
      this.later(step);
      const status = step.kind === "refund-approved" ? "approved" : "rejected";
      adjustmentEvent("adjustment.updated", async (w) => ({ ...pending(w), status }));
      this.refunded = status === "approved";
      this.refundAsked = false;
    }
    this.stepsInPeriod++;
  }

  private extend(step: Step) {
    if (this.refunded || this.refundAsked || step.months + step.years === 0 || this.stepsInPeriod >= 3) return;
    this.later(step);
    const { i } = this;
    const txnKey = `e${i}-${this.n}`;
    const paidAt = new Date(this.t);
    this.events.push({
      key: this.key("extension"),
      license: i,
      type: "transaction.completed",
      at: paidAt,
      after: this.txnEvents.get(`p${i}`),
      data: (w) => extensionPaid(w, i, txnKey, paidAt, step),
    });
    this.stepsInPeriod++;
  }
}

/** An extension's payment: the site created the one-time charge for the license (the extend action), then it is paid. */
async function extensionPaid(w: World, i: number, txnKey: string, paidAt: Date, { months, years }: Step) {
  const [row] = await w
    .db()
    .select({ id: licenses.id })
    .from(licenses)
    .where(eq(licenses.paddle_subscription_id, w.subscriptionId(i)));
  const amountCents = extensionPriceCents(months, years);
  await w
    .db()
    .insert(checkouts)
    .values({
      user_id: w.users[i]!.id,
      kind: "extension",
      transaction_id: w.id("txn", txnKey),
      status: "open",
      license_id: row!.id,
      months: months + 12 * years,
      amount_cents: amountCents,
      currency: "USD",
    });
  return {
    ...transaction({
      userId: w.users[i]!.id,
      subscriptionId: null,
      amountCents,
      start: paidAt,
      end: null,
      origin: "api",
      customData: { kind: "extension", user_id: w.users[i]!.id, license_id: row?.id ?? null, months, years },
    }),
    id: w.id("txn", txnKey),
  };
}
