import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extensionPriceCents } from "~/domain/extension";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses, payments } from "~/server/db/schema";
import { demoExtensionCharge, demoPurchase } from "../../support/checkout";
import { adjustment, signed } from "../../support/paddle-fixtures";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * Decision 0036: a refund of a license with extensions is several adjustments, one per transaction,
 * whose events (created pending, then approved or rejected) Paddle may deliver in any order and
 * more than once. Delivered in order to one customer and shuffled with repeats to a twin, both end
 * with the same license (status, refunded, amount, date) and the same payments (refunded, pending,
 * adjustment status).
 */

const SECRET = "whsec_refund_order_0123456789abcdef";
const T0 = Date.parse("2031-05-01T10:00:00.000Z");
const SECOND = 1000;

type Fate = "none" | "pending" | "approved" | "rejected";
const scenarioArb = fc.record({
  fates: fc.array(fc.constantFrom<Fate>("none", "pending", "approved", "approved", "rejected"), {
    minLength: 1,
    maxLength: 4,
  }),
  gaps: fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 4, maxLength: 4 }),
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 16, maxLength: 16 }),
  repeats: fc.array(fc.nat(15), { maxLength: 4 }),
});

describe.each(testEngines())("out-of-order refund adjustments of one license on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let users = 0;
  const db = () => app.database.db;

  beforeAll(async () => {
    app = await startTestApp(engine);
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });

  /** A customer with a monthly license and `extensions` paid extensions: its transaction ids, oldest first. */
  async function world(extensions: number) {
    const user = await createUser(db(), `refund-order-${engine}-${++users}@example.com`);
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    for (let i = 0; i < extensions; i++) {
      const { transactionId } = await demoExtensionCharge(db(), demo, user, license!.id, {
        months: 1,
        amountCents: extensionPriceCents(1, 0),
      });
      await demo.payExtension(transactionId);
    }
    const paid = await db()
      .select()
      .from(payments)
      .where(eq(payments.license_id, license!.id))
      .orderBy(asc(payments.billed_at));
    return { licenseId: license!.id, subscriptionId, transactions: paid.map((p) => p.id), tag: `u${users}` };
  }

  /** The events of each transaction's fate, in the order they happened. */
  function eventsFor(w: Awaited<ReturnType<typeof world>>, fates: Fate[], gaps: number[]) {
    const events: { event_id: string; event_type: string; occurred_at: string; data: unknown }[] = [];
    fates.forEach((fate, i) => {
      if (fate === "none") return;
      const created = T0 + i * 600 * SECOND;
      const base = {
        adjustmentId: `adj_01${w.tag}x${i}`,
        transactionId: w.transactions[i]!,
        subscriptionId: i === 0 ? w.subscriptionId : null,
        amountCents: 855,
      };
      events.push({
        event_id: `evt_01${w.tag}c${i}`,
        event_type: "adjustment.created",
        occurred_at: new Date(created).toISOString(),
        data: adjustment({ ...base, status: "pending_approval" }),
      });
      if (fate !== "pending")
        events.push({
          event_id: `evt_01${w.tag}u${i}`,
          event_type: "adjustment.updated",
          occurred_at: new Date(created + gaps[i]! * SECOND).toISOString(),
          data: adjustment({ ...base, status: fate }),
        });
    });
    return events;
  }

  const deliver = async (events: unknown[]) => {
    for (const event of events) {
      const result = await receiveWebhook({ ...signed(SECRET, event), secret: SECRET });
      expect(result.status, result.body.message).toBe(200);
    }
  };

  async function stateOf(w: Awaited<ReturnType<typeof world>>) {
    const [license] = await db().select().from(licenses).where(eq(licenses.id, w.licenseId));
    const paid = await db()
      .select()
      .from(payments)
      .where(eq(payments.license_id, w.licenseId))
      .orderBy(asc(payments.billed_at));
    return {
      status: license!.status,
      refunded: license!.refunded,
      refund_amount: license!.refund_amount,
      refunded_at: license!.refunded_at?.toISOString() ?? null,
      payments: paid.map((p) => [p.refunded_cents, p.pending_refund_cents, p.refund_status]),
    };
  }

  it("shuffled and repeated, the adjustments of several transactions end in the same state as in order", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ fates, gaps, order, repeats }) => {
        const inOrder = await world(fates.length - 1);
        const shuffled = await world(fates.length - 1);
        await deliver(eventsFor(inOrder, fates, gaps));
        const events = eventsFor(shuffled, fates, gaps);
        const mixed = events
          .map((event, i) => ({ event, at: order[i]! }))
          .sort((a, b) => a.at - b.at)
          .map((e) => e.event);
        for (const r of repeats)
          if (events.length > 0) mixed.splice(r % (mixed.length + 1), 0, events[r % events.length]!);
        await deliver(mixed);
        const expected = await stateOf(inOrder);
        expect(await stateOf(shuffled)).toEqual(expected);
        seen.add(expected.status);
        // What the ledger promises: never more than was paid, pending and refunded never both.
        for (const [refunded, pending] of expected.payments as [number, number][])
          expect(refunded === 0 || pending === 0).toBe(true);
      }),
      { numRuns: 12, seed: 24_2026 },
    );
    expect(seen.size).toBeGreaterThan(1);
  }, 240_000);
});
