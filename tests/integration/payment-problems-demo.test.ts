import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import { action as renewAction } from "~/routes/api.demo.renew";
import { parseRenewTarget } from "~/server/billing/demo/demo-renew.server";
import { payments, webhook_events } from "~/server/db/schema";
import { demoPurchase } from "../support/checkout";
import { testContext } from "../support/route-call";
import { testEngines } from "../support/test-app";

import { paymentProblemsSuite } from "../support/payment-problems-suite";

describe.each(testEngines())("payment problems on %s", (engine) => {
  const { state, db, licenseOf } = paymentProblemsSuite(engine);

  describe("the demo provider and demo:renew --fail", () => {
    const renew = (body: unknown) =>
      renewAction({
        request: new Request("http://localhost/api/demo/renew", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${state.app.env.DEMO_WEBHOOK_SECRET}` },
        }),
        params: {},
        context: testContext(),
      } as never) as Promise<Response>;

    it("--fail declines the renewal: the license is past due, no payment is recorded, the end date stays", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      const before = await licenseOf(subscriptionId);
      const answer = await renew({ subscriptionId, fail: true });
      expect(answer.status).toBe(200);
      const [outcome] = (await answer.json()).outcomes;
      expect(outcome).toMatchObject({ subscriptionId, outcome: "payment-failed" });
      const license = await licenseOf(subscriptionId);
      expect(license.past_due_since).not.toBeNull();
      expect(license.end_date.toISOString()).toBe(before.end_date.toISOString());
      expect(await db().select().from(payments).where(eq(payments.id, outcome.transactionId))).toEqual([]);
      const types = (await db().select({ type: webhook_events.event_type }).from(webhook_events)).map((e) => e.type);
      expect(types).toEqual(
        expect.arrayContaining(["transaction.payment_failed", "transaction.past_due", "subscription.past_due"]),
      );
      // Failing again while past due is refused with a reason.
      expect((await state.demo.failRenewal(subscriptionId)).outcome).toBe("skipped");
    });

    it("a later demo:renew pays the failed renewal: payment recorded, end date one period on, problem cleared", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      const before = await licenseOf(subscriptionId);
      // The license's short id (what the billing history shows) names its subscription too.
      const failing = await renew({ subscriptionId: before.short_id.toLowerCase(), fail: true });
      const [failed] = (await failing.json()).outcomes;
      expect(failed).toMatchObject({ subscriptionId, outcome: "payment-failed" });
      expect((await renew({ subscriptionId: "FK-0000-0000" })).status).toBe(404);
      const recovered = await renew({ subscriptionId });
      const [outcome] = (await recovered.json()).outcomes;
      expect(outcome).toMatchObject({
        outcome: "renewed",
        transactionId: (failed as { transactionId: string }).transactionId,
      });
      const license = await licenseOf(subscriptionId);
      expect(license.past_due_since).toBeNull();
      expect(license.end_date.toISOString()).toBe(addMonths(before.end_date, 1).toISOString());
      const [payment] = await db().select().from(payments).where(eq(payments.id, outcome.transactionId));
      expect(payment).toMatchObject({ kind: "renewal", amount_cents: 900 });
    });

    it("--fail is refused for bad input and for a subscription whose cancellation is scheduled", async () => {
      expect((await renew({ subscriptionId: "sub_demo_x", fail: "yes" })).status).toBe(400);
      expect((await renew({ all: true, fail: true })).status).toBe(400);
      expect((await renew({ subscriptionId: "sub_missing", fail: true })).status).toBe(404);
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      await state.demo.cancelAtPeriodEnd(subscriptionId);
      expect(await state.demo.failRenewal(subscriptionId)).toMatchObject({ outcome: "skipped" });
      expect((await licenseOf(subscriptionId)).past_due_since).toBeNull();
    });
  });
});

describe("demo:renew's --fail argument", () => {
  it.each([
    [["--fail", "sub_demo_abc123"], { subscriptionId: "sub_demo_abc123", fail: true }],
    [["--fail"], null],
    [["--fail", "--all"], null],
    [["--fail", "txn_1"], null],
    [["sub_demo_abc123", "--fail"], null],
    [["--fail", "fk-7q2m 9xkd"], { subscriptionId: "FK-7Q2M-9XKD", fail: true }],
    [["FK-7Q2M-9XKD"], { subscriptionId: "FK-7Q2M-9XKD" }],
    [["--fail", "FK-1"], null],
  ])("%j → %j", (args, expected) => {
    expect(parseRenewTarget(args)).toEqual(expected);
  });
});
