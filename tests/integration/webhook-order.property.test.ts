import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths, extensionPriceCents } from "~/domain/extension";
import { getPlan, TRIAL_DAYS } from "~/domain/plans";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, payments } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { adjustment, signed, subscription, transaction } from "../support/paddle-fixtures";
import { createUser, startTestApp, testEngines, type TestApp } from "../support/test-app";

/**
 * The webhook handler must not trust delivery order (docs/payments.md, "Webhook signatures" and
 * "Events and the fields we read"): Paddle retries failed deliveries and sends events concurrently, so
 * a license's events can arrive in any order and more than once. These properties generate realistic
 * lifecycles (purchase with or without trial, renewals, a scheduled cancellation and its removal, the
 * cancellation taking effect, a refund requested then approved or rejected, extensions), deliver them
 * to one set of users in order and to a twin set shuffled and duplicated, and compare what each ends
 * with: the license (status, dates, renewal and refund fields, trial flags, the key's payload) and its
 * payments.
 */

const SECRET = "whsec_property_secret_0123456789";
const SEED = 20_251_010;
const RUNS = 30;
/** Far enough ahead that every end date is in the future when the test runs. */
const T0 = Date.parse("2031-03-01T09:00:00.000Z");
const HOUR = 3_600_000;
const SECOND = 1000;

type Plan = "monthly" | "yearly";
type StepKind =
  "renew" | "cancel" | "reenable" | "end" | "refund-approved" | "refund-rejected" | "refund-pending" | "extend";
interface LicenseScenario {
  plan: Plan;
  trial: boolean;
  steps: { kind: StepKind; gapHours: number; months: number; years: number }[];
}

/** The checkout the server created for a license's purchase (it decides the trial). */
interface PurchaseCheckout {
  license: number;
  txnKey: string;
  plan: Plan;
  trial: boolean;
  priceId: string;
  amountCents: number;
}

/** One event of the in-order stream, built for a world (a set of users and ids) when delivered. */
interface AbstractEvent {
  key: string;
  license: number;
  type: string;
  at: Date;
  /** The license-creating purchase (extensions name the license, so they always come after it). */
  purchase?: boolean;
  /** An event that is always delivered before this one's first delivery (see `causal`). */
  after?: string;
  data: (world: World) => Promise<unknown>;
}

interface World {
  tag: string;
  users: { id: string; email: string }[];
  subscriptionId: (license: number) => string;
  id: (prefix: string, key: string) => string;
}

const stepArb = fc.record({
  kind: fc.constantFrom<StepKind>(
    "renew",
    "renew",
    "cancel",
    "reenable",
    "end",
    "refund-approved",
    "refund-rejected",
    "refund-pending",
    "extend",
  ),
  gapHours: fc.integer({ min: 1, max: 24 }),
  months: fc.integer({ min: 0, max: 3 }),
  years: fc.integer({ min: 0, max: 1 }),
});
const licenseArb: fc.Arbitrary<LicenseScenario> = fc.record({
  plan: fc.constantFrom<Plan>("monthly", "yearly"),
  trial: fc.boolean(),
  steps: fc.array(stepArb, { maxLength: 6 }),
});
const scenarioArb = fc.array(licenseArb, { minLength: 1, maxLength: 3 });

/** The in-order event stream of a scenario: what Paddle sends as each step happens. */
function eventsOf(scenario: LicenseScenario[]): AbstractEvent[] & { checkouts: PurchaseCheckout[] } {
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
              const [row] = await db()
                .select({ id: licenses.id })
                .from(licenses)
                .where(eq(licenses.paddle_subscription_id, w.subscriptionId(i)));
              // The site created this one-time charge for the license (the extend action).
              await db()
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

let app: TestApp;
const db = () => app.database.db;
let worlds = 0;
let delivered = 0;
const seen = { licenses: 0, trials: 0, extended: 0, refunded: 0, notRenewing: 0 };

async function newWorld(count: number): Promise<World> {
  const tag = `w${++worlds}x${Math.random().toString(36).slice(2, 8)}`;
  const users = [];
  for (let i = 0; i < count; i++) users.push(await createUser(db(), `order-${tag}-${i}@example.com`));
  return { tag, users, subscriptionId: (i) => `sub_01${tag}l${i}`, id: (prefix, key) => `${prefix}_01${tag}${key}` };
}

/** Delivers the events in the order given (a key may repeat: a redelivery of the same event). */
async function deliver(world: World, events: ReturnType<typeof eventsOf>, order: string[]): Promise<void> {
  for (const c of events.checkouts) {
    await db()
      .insert(checkouts)
      .values({
        user_id: world.users[c.license]!.id,
        kind: "plan",
        transaction_id: world.id("txn", c.txnKey),
        status: "open",
        plan_type: c.plan,
        trial: c.trial,
        price_id: c.priceId,
        amount_cents: c.amountCents,
      });
  }
  const bodies = new Map<string, unknown>();
  const byKey = new Map(events.map((e) => [e.key, e]));
  for (const key of order) {
    const event = byKey.get(key)!;
    if (!bodies.has(key)) {
      bodies.set(key, {
        event_id: world.id("evt", key),
        event_type: event.type,
        occurred_at: event.at.toISOString(),
        notification_id: world.id("ntf", key),
        data: await event.data(world),
      });
    }
    const result = await receiveWebhook({
      ...signed(SECRET, bodies.get(key)),
      secret: SECRET,
    });
    delivered++;
    expect(result.status, `${key}: ${result.body.message}`).toBe(200);
  }
}

/** What a world ended with, without its ids: per license, the row's facts and its payments. */
async function stateOf(world: World, count: number) {
  const state = [];
  for (let i = 0; i < count; i++) {
    const rows = await db()
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, world.subscriptionId(i)));
    const ids = rows.map((r) => r.id);
    const paid = ids.length ? await db().select().from(payments).where(inArray(payments.license_id, ids)) : [];
    state.push({
      licenses: rows.map((r) => ({
        license_type: r.license_type,
        status: r.status,
        start_date: r.start_date.toISOString(),
        end_date: r.end_date.toISOString(),
        is_trial: r.is_trial,
        trial_starts_at: r.trial_starts_at?.toISOString() ?? null,
        trial_ends_at: r.trial_ends_at?.toISOString() ?? null,
        auto_renew: r.auto_renew,
        cancellation_requested: r.cancellation_requested,
        cancellation_requested_at: r.cancellation_requested_at?.toISOString() ?? null,
        refunded: r.refunded,
        refund_amount: r.refund_amount,
        refunded_at: r.refunded_at?.toISOString() ?? null,
        extended_months: r.extended_months,
        purchase_date: r.purchase_date?.toISOString() ?? null,
        refund_eligible_until: r.refund_eligible_until?.toISOString() ?? null,
        key: { ...licenseKeys().decode(r.license_key), email: "(the user's)" },
        // A refunded license's renewal is over whatever the subscription says: not compared.
        ...(r.refunded ? { cancellation_requested: "(refunded)", cancellation_requested_at: "(refunded)" } : {}),
      })),
      payments: paid
        .map((p) => ({
          id: p.id.replace(world.tag, "W"),
          kind: p.kind,
          amount_cents: p.amount_cents,
          currency: p.currency,
          billed_at: p.billed_at.toISOString(),
        }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    });
  }
  return state;
}

/** A number in [0, 1), spread evenly (fast-check's default bias would pile them up at 0 and 1, so nothing moves). */
const unit = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

/** Each event 1–3 times; `positions` are where the copies go, as a fraction of the stream. */
const copiesArb = (n: number) =>
  fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), unit), { minLength: n, maxLength: n });

/**
 * What no delivery order can break, because of what happened in between: a renewal is charged
 * a period after the previous charge was delivered (Paddle retries a failed delivery for about
 * three days, shorter than a period); a refund is requested on the site for a payment it shows;
 * an extension is created by the site for a license it has. Subscription events are unconstrained.
 * An event whose prerequisite has not been delivered yet waits for it.
 */
function causal(order: string[], events: readonly AbstractEvent[]): string[] {
  const after = new Map(events.map((e) => [e.key, e.after]));
  const seen = new Set<string>();
  const waiting = new Map<string, string[]>();
  const result: string[] = [];
  const emit = (key: string) => {
    result.push(key);
    if (seen.has(key)) return;
    seen.add(key);
    const released = waiting.get(key) ?? [];
    waiting.delete(key);
    for (const next of released) emit(next);
  };
  for (const key of order) {
    const prerequisite = after.get(key);
    if (prerequisite && !seen.has(prerequisite)) waiting.set(prerequisite, [...(waiting.get(prerequisite) ?? []), key]);
    else emit(key);
  }
  return result;
}

async function inOrderAndOther(scenario: LicenseScenario[], order: (events: AbstractEvent[]) => string[]) {
  const events = eventsOf(scenario);
  const reference = await newWorld(scenario.length);
  await deliver(
    reference,
    events,
    events.map((e) => e.key),
  );
  const other = await newWorld(scenario.length);
  const sequence = causal(order(events), events);
  await deliver(other, events, sequence);
  const expected = await stateOf(reference, scenario.length);
  // Every purchase made its license in order (so the comparison is about something).
  expect(expected.map((l) => l.licenses.length)).toEqual(scenario.map(() => 1));
  for (const {
    licenses: [l],
  } of expected) {
    seen.licenses++;
    if (l!.is_trial) seen.trials++;
    if (l!.extended_months > 0) seen.extended++;
    if (l!.refunded) seen.refunded++;
    if (!l!.auto_renew) seen.notRenewing++;
  }
  expect(await stateOf(other, scenario.length)).toEqual(expected);
}

/** A permutation from fast-check's random choices (one sort key per delivery). */
function permuted(keys: string[], sortKeys: number[]): string[] {
  return keys
    .map((key, index) => ({ key, sort: sortKeys[index % sortKeys.length]! + index * 1e-9 }))
    .sort((a, b) => a.sort - b.sort)
    .map((x) => x.key);
}

function withCopies(events: AbstractEvent[], copies: [number, number][]): string[] {
  return events.flatMap((e, index) => Array(copies[index]?.[0] ?? 1).fill(e.key) as string[]);
}

describe.each(testEngines())("webhook delivery order and redelivery (property, on %s)", (engine) => {
  beforeAll(async () => {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => {
    console.log(
      `[webhook-order ${engine}] worlds: ${worlds}, deliveries: ${delivered}; in-order licenses: ${seen.licenses} ` +
        `(trials ${seen.trials}, extended ${seen.extended}, refunded ${seen.refunded}, not renewing ${seen.notRenewing})`,
    );
    await app?.close();
  });

  const withStream = <T>(extra: (n: number) => fc.Arbitrary<T>) =>
    scenarioArb.chain((scenario) => fc.tuple(fc.constant(scenario), extra(eventsOf(scenario).length)));

  it(
    "in order with every event redelivered up to twice later: the same as once in order",
    { timeout: 300_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(withStream(copiesArb), async ([scenario, copies]) => {
          await inOrderAndOther(scenario, (events) => {
            // The first copy in place; the redeliveries later in the stream.
            const order = events.map((e) => ({ key: e.key, at: events.indexOf(e) }));
            const again = events.flatMap((e, index) =>
              Array.from({ length: copies[index]![0] - 1 }, () => ({
                key: e.key,
                at: index + copies[index]![1] * (events.length - index) + 0.5,
              })),
            );
            return [...order, ...again].sort((a, b) => a.at - b.at).map((x) => x.key);
          });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  it(
    "the purchase first, then everything else shuffled and duplicated: the same as in order",
    { timeout: 300_000 },
    async () => {
      const arb = withStream((n) => fc.tuple(copiesArb(n), fc.array(unit, { minLength: 3 * n, maxLength: 3 * n })));
      await fc.assert(
        fc.asyncProperty(arb, async ([scenario, [copies, sortKeys]]) => {
          await inOrderAndOther(scenario, (events) => {
            const purchases = events.filter((e) => e.purchase).map((e) => e.key);
            // One copy of each purchase first; their redeliveries shuffle with the rest.
            const rest = withCopies(events, copies);
            for (const key of purchases) rest.splice(rest.indexOf(key), 1);
            return [...purchases, ...permuted(rest, sortKeys)];
          });
        }),
        { seed: SEED + 1, numRuns: RUNS },
      );
    },
  );

  it("the whole stream shuffled and duplicated: the same as in order", { timeout: 300_000 }, async () => {
    const arb = withStream((n) => fc.tuple(copiesArb(n), fc.array(unit, { minLength: 3 * n, maxLength: 3 * n })));
    await fc.assert(
      fc.asyncProperty(arb, async ([scenario, [copies, sortKeys]]) => {
        await inOrderAndOther(scenario, (events) => permuted(withCopies(events, copies), sortKeys));
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
  });
});
