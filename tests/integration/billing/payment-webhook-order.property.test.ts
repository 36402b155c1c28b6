import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";
import { scenarioArb } from "../../support/webhook-order-scenarios";
import { eventsOf } from "../../support/webhook-order-stream";
import { copiesArb, orderWorlds, permuted, sortKeysArb, withCopies } from "../../support/webhook-order-worlds";

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

describe.each(testEngines())("webhook delivery order and redelivery (property, on %s)", (engine) => {
  let app: TestApp;
  const { inOrderAndOther, summary } = orderWorlds(() => app, SECRET);
  beforeAll(async () => {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => {
    console.log(`[webhook-order ${engine}] ${summary()}`);
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
      const arb = withStream((n) => fc.tuple(copiesArb(n), sortKeysArb(n)));
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
    const arb = withStream((n) => fc.tuple(copiesArb(n), sortKeysArb(n)));
    await fc.assert(
      fc.asyncProperty(arb, async ([scenario, [copies, sortKeys]]) => {
        await inOrderAndOther(scenario, (events) => permuted(withCopies(events, copies), sortKeys));
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
  });
});
