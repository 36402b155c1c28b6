import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { demo_billing, licenses, payments, users, webhook_events } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { seedDemoData } from "~/server/seed.server";
import { parseRenewTarget } from "~/server/billing/demo/demo-renew.server";
import { action as renewAction } from "~/routes/api.demo.renew";
import { demoExtensionCharge, demoPurchase } from "../../support/checkout";
import { testContext } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

describe.each(testEngines())("the demo payment provider on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine);
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  const db = () => app.database.db;
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;
  const newUser = () => createUser(db(), `demo-buyer-${engine}-${++n}@example.com`);

  it("paying a checkout creates the subscription and, through signed webhook events, the license", async () => {
    const user = await newUser();
    const { transactionId, subscriptionId } = await demoPurchase(db(), demo, user, "yearly");
    expect(transactionId).toMatch(/^txn_demo_[0-9a-f]{20}$/);
    expect(subscriptionId).toMatch(/^sub_demo_/);
    const license = await licenseOf(subscriptionId);
    expect(license).toMatchObject({
      user_id: user.id,
      email: user.email,
      license_type: "yearly",
      is_trial: false,
      auto_renew: true,
      status: "active",
    });
    expect(license.end_date.toISOString()).toBe(addMonths(license.start_date, 12).toISOString());
    expect(licenseKeys().decode(license.license_key)).toMatchObject({
      email: user.email,
      end_date: license.end_date.toISOString(),
    });
    const events = await db().select({ type: webhook_events.event_type }).from(webhook_events);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["subscription.created", "subscription.activated", "transaction.completed"]),
    );
    const [payment] = await db().select().from(payments).where(eq(payments.id, transactionId));
    expect(payment).toMatchObject({ amount_cents: 9000, kind: "purchase" });
  });

  it("a trial checkout is free for 7 days; renewing it bills the plan and ends the trial", async () => {
    const user = await newUser();
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly", { trial: true });
    const trial = await licenseOf(subscriptionId);
    expect(trial.is_trial).toBe(true);
    expect(trial.trial_ends_at!.getTime() - trial.start_date.getTime()).toBe(7 * 86_400_000);
    const outcome = await demo.renew(subscriptionId);
    expect(outcome.outcome).toBe("renewed");
    const paid = await licenseOf(subscriptionId);
    expect(paid.is_trial).toBe(false);
    expect(paid.end_date.toISOString()).toBe(addMonths(trial.end_date, 1).toISOString());
    expect(paid.license_key).not.toBe(trial.license_key);
  });

  it("cancel at period end, re-enable, and a renewal after a cancellation ends the subscription", async () => {
    const user = await newUser();
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    await demo.cancelAtPeriodEnd(subscriptionId);
    expect(await licenseOf(subscriptionId)).toMatchObject({ auto_renew: false, cancellation_requested: true });
    await demo.removeScheduledCancel(subscriptionId);
    expect(await licenseOf(subscriptionId)).toMatchObject({
      auto_renew: true,
      cancellation_requested: false,
      cancellation_requested_at: null,
    });
    await demo.cancelAtPeriodEnd(subscriptionId);
    const before = await licenseOf(subscriptionId);
    expect(await demo.renew(subscriptionId)).toEqual({ subscriptionId, outcome: "canceled" });
    const after = await licenseOf(subscriptionId);
    expect(after).toMatchObject({ auto_renew: false, cancellation_requested: false });
    expect(after.end_date.toISOString()).toBe(before.end_date.toISOString());
    expect((await demo.renew(subscriptionId)).outcome).toBe("skipped");
    await expect(demo.removeScheduledCancel(subscriptionId)).rejects.toBeInstanceOf(ProviderError);
  });

  it("refund: pending until settled; approval marks the license refunded; a second refund is refused", async () => {
    const user = await newUser();
    const { subscriptionId, transactionId } = await demoPurchase(db(), demo, user, "monthly");
    await expect(demo.refund({ transactionId, itemId: null, amountCents: 901, reason: "x" })).rejects.toThrow(
      /exceeds/,
    );
    const { adjustmentId } = await demo.refund({
      transactionId,
      itemId: null,
      amountCents: 855,
      reason: "Requested by the customer",
    });
    expect((await licenseOf(subscriptionId)).status).toBe("refund_requested");
    await expect(demo.refund({ transactionId, itemId: null, amountCents: 855, reason: "again" })).rejects.toThrow(
      /already has a refund/,
    );
    await demo.settleRefund(adjustmentId, "approved");
    expect(await licenseOf(subscriptionId)).toMatchObject({ status: "refunded", refunded: true, refund_amount: 855 });
  });

  it("a rejected refund returns the license to active", async () => {
    const user = await newUser();
    const { subscriptionId, transactionId } = await demoPurchase(db(), demo, user, "6_months");
    const { adjustmentId } = await demo.refund({ transactionId, itemId: null, amountCents: 4703, reason: "x" });
    await demo.settleRefund(adjustmentId, "rejected");
    expect((await licenseOf(subscriptionId)).status).toBe("active");
  });

  it("an extension charge is applied by its webhook once paid", async () => {
    const user = await newUser();
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    const license = await licenseOf(subscriptionId);
    const { transactionId } = await demoExtensionCharge(db(), demo, user, license.id, { months: 3, amountCents: 2700 });
    expect((await licenseOf(subscriptionId)).end_date.getTime()).toBe(license.end_date.getTime());
    await demo.payExtension(transactionId);
    expect((await licenseOf(subscriptionId)).end_date.toISOString()).toBe(addMonths(license.end_date, 3).toISOString());
    await expect(demo.payExtension(transactionId)).rejects.toBeInstanceOf(ProviderError);
  });

  it("the seeded licenses have the demo records that renewal, cancel and refund need", async () => {
    await seedDemoData(db());
    const [demoUser] = await db().select().from(users).where(eq(users.email, "demo@forgekit.example"));
    const rows = await db().select().from(licenses).where(eq(licenses.user_id, demoUser!.id));
    const renewing = rows.find((l) => l.paddle_subscription_id === "sub_demo_seed_renewing")!;
    await demo.cancelAtPeriodEnd(renewing.paddle_subscription_id!);
    expect(await licenseOf(renewing.paddle_subscription_id!)).toMatchObject({ cancellation_requested: true });
    await demo.removeScheduledCancel(renewing.paddle_subscription_id!);
    const cancelling = await licenseOf("sub_demo_seed_cancelling");
    expect(cancelling.cancellation_requested).toBe(true);
    await demo.removeScheduledCancel("sub_demo_seed_cancelling");
    expect((await licenseOf("sub_demo_seed_cancelling")).auto_renew).toBe(true);
    const outcomes = await demo.renewAll();
    expect(outcomes.map((o) => o.subscriptionId)).toEqual(
      expect.arrayContaining(["sub_demo_seed_renewing", "sub_demo_seed_cancelling"]),
    );
    expect(outcomes.map((o) => o.subscriptionId)).not.toContain("sub_demo_seed_refunded");
    // The refund-requested license stopped renewing with its request: renewing ends it, never bills it.
    expect(outcomes.find((o) => o.subscriptionId === "sub_demo_seed_refund_requested")).toEqual({
      subscriptionId: "sub_demo_seed_refund_requested",
      outcome: "canceled",
    });
    expect(await licenseOf("sub_demo_seed_refund_requested")).toMatchObject({
      status: "refund_requested",
      auto_renew: false,
    });
    expect(
      await db().select().from(payments).where(eq(payments.subscription_id, "sub_demo_seed_refund_requested")),
    ).toHaveLength(1);
    const stored = await db()
      .select()
      .from(demo_billing)
      .where(eq(demo_billing.subscription_id, "sub_demo_seed_refund_requested"));
    expect([...new Set(stored.map((r) => r.kind))].sort()).toEqual(["adjustment", "subscription", "transaction"]);
  });

  it("demo:renew's endpoint needs the demo secret and renews one subscription or all", async () => {
    const user = await newUser();
    const { subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    const before = await licenseOf(subscriptionId);
    const post = (body: unknown, authorization?: string) =>
      renewAction({
        request: new Request("http://localhost/api/demo/renew", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
        }),
        params: {},
        context: testContext(),
      } as never) as Promise<Response>;
    expect((await post({ subscriptionId })).status).toBe(401);
    expect((await post({ subscriptionId }, "Bearer wrong")).status).toBe(401);
    const auth = `Bearer ${app.env.DEMO_WEBHOOK_SECRET}`;
    expect((await post({ nothing: true }, auth)).status).toBe(400);
    expect((await post({ subscriptionId: "sub_missing" }, auth)).status).toBe(404);
    // Control characters or anything but a subscription id: 400 before any lookup.
    expect((await post({ subscriptionId: "a\u0000b" }, auth)).status).toBe(400);
    expect((await post({ subscriptionId: "sub_a\u0000b" }, auth)).status).toBe(400);
    expect((await post({ subscriptionId: ["sub_1"] }, auth)).status).toBe(400);
    const ok = await post({ subscriptionId }, auth);
    expect(ok.status).toBe(200);
    expect((await ok.json()).outcomes[0]).toMatchObject({ subscriptionId, outcome: "renewed" });
    expect((await licenseOf(subscriptionId)).end_date.toISOString()).toBe(addMonths(before.end_date, 1).toISOString());
  });
});

describe("demo:renew's arguments", () => {
  it.each([
    [["--all"], { all: true }],
    [["sub_demo_abc123"], { subscriptionId: "sub_demo_abc123" }],
    [[], null],
    [["--all", "sub_1"], null],
    [["txn_1"], null],
    [["sub_; rm -rf"], null],
  ])("%j → %j", (args, expected) => {
    expect(parseRenewTarget(args)).toEqual(expected);
  });
});
