import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { expect } from "vitest";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, payments, type License } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { signed } from "./paddle-fixtures";
import { createUser, type TestApp } from "./test-app";
import type { AbstractEvent, LicenseScenario, PurchaseCheckout, World } from "./webhook-order-scenarios";
import { eventsOf } from "./webhook-order-stream";

// The webhook delivery-order property's worlds: a set of users a stream is delivered to, in order
// or shuffled and duplicated, and what each world ends with, compared.

/** A number in [0, 1), spread evenly (fast-check's default bias would pile them up at 0 and 1, so nothing moves). */
const unit = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

/** Each event 1–3 times; `positions` are where the copies go, as a fraction of the stream. */
export const copiesArb = (n: number) =>
  fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), unit), { minLength: n, maxLength: n });

/** One sort key per delivery, for `permuted`. */
export const sortKeysArb = (n: number) => fc.array(unit, { minLength: 3 * n, maxLength: 3 * n });

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

/** A permutation from fast-check's random choices (one sort key per delivery). */
export function permuted(keys: string[], sortKeys: number[]): string[] {
  return keys
    .map((key, index) => ({ key, sort: sortKeys[index % sortKeys.length]! + index * 1e-9 }))
    .sort((a, b) => a.sort - b.sort)
    .map((x) => x.key);
}

export function withCopies(events: AbstractEvent[], copies: [number, number][]): string[] {
  return events.flatMap((e, index) => Array(copies[index]?.[0] ?? 1).fill(e.key) as string[]);
}

/**
 * Delivers streams to worlds in the app `app()` with webhooks signed with `secret`: `inOrderAndOther`
 * delivers a scenario in order to one world and in `order` to a twin, and expects the same ends;
 * `summary` says how many worlds, deliveries and kinds of license the runs made.
 */
export function orderWorlds(app: () => TestApp, secret: string) {
  const db = () => app().database.db;
  let worlds = 0;
  let delivered = 0;
  const seen = { licenses: 0, trials: 0, extended: 0, refunded: 0, notRenewing: 0 };

  async function newWorld(count: number): Promise<World> {
    const tag = `w${++worlds}x${Math.random().toString(36).slice(2, 8)}`;
    const users = [];
    for (let i = 0; i < count; i++) users.push(await createUser(db(), `order-${tag}-${i}@example.com`));
    return {
      db,
      tag,
      users,
      subscriptionId: (i) => `sub_01${tag}l${i}`,
      id: (prefix, key) => `${prefix}_01${tag}${key}`,
    };
  }

  /** Delivers the events in the order given (a key may repeat: a redelivery of the same event). */
  async function deliver(world: World, events: ReturnType<typeof eventsOf>, order: string[]): Promise<void> {
    await recordCheckouts(db(), world, events.checkouts);
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
        ...signed(secret, bodies.get(key)),
        secret,
      });
      delivered++;
      expect(result.status, `${key}: ${result.body.message}`).toBe(200);
    }
  }

  /** What a world ended with, without its ids: per license, the row's facts and its payments. */
  const stateOf = (world: World, count: number) => worldState(db(), world, count);

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

  const summary = () =>
    `worlds: ${worlds}, deliveries: ${delivered}; in-order licenses: ${seen.licenses} ` +
    `(trials ${seen.trials}, extended ${seen.extended}, refunded ${seen.refunded}, not renewing ${seen.notRenewing})`;
  return { inOrderAndOther, summary };
}

/** The checkouts the server created for the world's purchases, before their events arrive. */
async function recordCheckouts(db: TestApp["database"]["db"], world: World, purchases: PurchaseCheckout[]) {
  for (const c of purchases) {
    await db.insert(checkouts).values({
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
}

/** What a world ended with, without its ids: per license, the row's facts and its payments. */
async function worldState(db: TestApp["database"]["db"], world: World, count: number) {
  const state = [];
  for (let i = 0; i < count; i++) {
    const rows = await db
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, world.subscriptionId(i)));
    const ids = rows.map((r) => r.id);
    const paid = ids.length ? await db.select().from(payments).where(inArray(payments.license_id, ids)) : [];
    state.push({
      licenses: rows.map(licenseFacts),
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

/** A license row's facts a delivery order could change, without its ids. */
function licenseFacts(r: License) {
  return {
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
  };
}
