import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as pricingRoute from "~/routes/pricing";
import { CHECKOUT_ERRORS } from "~/lib/checkout";
import { createPlanCheckout } from "~/server/billing/create-checkout.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { PlanCheckoutInput } from "~/server/billing/payment-provider.server";
import { checkouts, licenses } from "~/server/db/schema";
import { givePassword } from "../../support/team";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { stubPaymentProvider } from "../../support/stub-provider";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const PASSWORD = "correct horse battery";

describe.each(testEngines())("checkouts created by the server on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(() => {
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  /** A confirmed account that can sign in, and its session cookie. */
  async function customer() {
    const user = await createUser(db(), `checkout-${engine}-${++n}@example.com`);
    await givePassword(db(), user.id, PASSWORD);
    return { ...user, cookie: await signInCookie(user.email, PASSWORD) };
  }
  const post = (fields: Record<string, string>, cookie: string) =>
    call(() => pricingRoute.action(routeArgs(formRequest("/pricing", fields, cookie))));
  const licensesOf = (userId: string) => db().select().from(licenses).where(eq(licenses.user_id, userId));

  it("a first-time buyer's checkout carries the trial price chosen on the server; the Pay makes a trial license", async () => {
    const buyer = await customer();
    const created = await post({ intent: "checkout", plan: "yearly" }, buyer.cookie);
    expect(created.status).toBe(200);
    expect(created.data.checkout).toMatchObject({ planId: "yearly", trial: true, dueTodayCents: 0, priceCents: 9000 });
    expect(created.data.checkout.transactionId).toMatch(/^txn_demo_/);
    expect(Date.parse(created.data.checkout.trialEndsAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const [row] = await db()
      .select()
      .from(checkouts)
      .where(eq(checkouts.transaction_id, created.data.checkout.transactionId));
    expect(row).toMatchObject({
      user_id: buyer.id,
      kind: "plan",
      trial: true,
      price_id: "pri_demo_yearly_trial",
      status: "open",
    });
    const paid = await post({ intent: "demo-pay", transactionId: created.data.checkout.transactionId }, buyer.cookie);
    expect(paid).toMatchObject({ status: 200, data: { paid: { transactionId: created.data.checkout.transactionId } } });
    const [license] = await licensesOf(buyer.id);
    expect(license).toMatchObject({ license_type: "yearly", is_trial: true });
  });

  it("a customer who has a license gets the regular price and no trial", async () => {
    const buyer = await customer();
    const first = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    await post({ intent: "demo-pay", transactionId: first.data.checkout.transactionId }, buyer.cookie);
    const second = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    expect(second.data.checkout).toMatchObject({ trial: false, dueTodayCents: 900, trialEndsAt: null });
    await post({ intent: "demo-pay", transactionId: second.data.checkout.transactionId }, buyer.cookie);
    const rows = await licensesOf(buyer.id);
    expect(rows.map((l) => l.is_trial).sort()).toEqual([false, true]);
  });

  it("six checkouts and Pays at once by a new customer give at most one trial", async () => {
    const buyer = await customer();
    const attempts = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const created = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
        if (created.status !== 200) return created.status;
        return (await post({ intent: "demo-pay", transactionId: created.data.checkout.transactionId }, buyer.cookie))
          .status;
      }),
    );
    expect(attempts).toContain(200);
    for (const status of attempts) expect([200, 409]).toContain(status);
    const rows = await licensesOf(buyer.id);
    expect(rows.filter((l) => l.is_trial)).toHaveLength(1);
    const trials = await db()
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.user_id, buyer.id), eq(checkouts.trial, true)));
    expect(trials).toHaveLength(1);
  });

  it("reopening the same plan's trial reuses its transaction; another plan's trial replaces it", async () => {
    const buyer = await customer();
    const a = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    const b = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    expect(b.data.checkout.transactionId).toBe(a.data.checkout.transactionId);
    const c = await post({ intent: "checkout", plan: "yearly" }, buyer.cookie);
    expect(c.data.checkout).toMatchObject({ planId: "yearly", trial: true });
    const [old] = await db()
      .select()
      .from(checkouts)
      .where(eq(checkouts.transaction_id, a.data.checkout.transactionId));
    expect(old!.status).toBe("superseded");
    // Paying the superseded one still works, but it is no longer a trial.
    await post({ intent: "demo-pay", transactionId: a.data.checkout.transactionId }, buyer.cookie);
    await post({ intent: "demo-pay", transactionId: c.data.checkout.transactionId }, buyer.cookie);
    const rows = await licensesOf(buyer.id);
    expect(rows.filter((l) => l.is_trial).map((l) => l.license_type)).toEqual(["yearly"]);
  });

  it("a Pay is refused for another user's transaction, twice for one transaction, and for nonsense", async () => {
    const owner = await customer();
    const intruder = await customer();
    const created = await post({ intent: "checkout", plan: "monthly" }, owner.cookie);
    const transactionId = created.data.checkout.transactionId;
    expect((await post({ intent: "demo-pay", transactionId }, intruder.cookie)).status).toBe(404);
    expect((await post({ intent: "demo-pay", transactionId }, owner.cookie)).status).toBe(200);
    const again = await post({ intent: "demo-pay", transactionId }, owner.cookie);
    expect(again.status).toBe(409);
    expect(again.data.error).toMatch(/paid already/);
    expect((await post({ intent: "demo-pay", transactionId: "txn_'; drop table x" }, owner.cookie)).status).toBe(400);
    expect((await post({ intent: "checkout", plan: "weekly" }, owner.cookie)).data).toEqual({
      error: CHECKOUT_ERRORS.invalidPlan,
    });
    expect((await post({ intent: "nonsense" }, owner.cookie)).status).toBe(400);
    expect(await licensesOf(intruder.id)).toHaveLength(0);
    expect(await licensesOf(owner.id)).toHaveLength(1);
  });

  it("signed-out visitors are sent to sign in", async () => {
    const result = await post({ intent: "checkout", plan: "monthly" }, "");
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toMatch(/^\/login/);
  });

  it("with Paddle, the server asks for the price it chose and the browser only gets the transaction id", async () => {
    const asked: PlanCheckoutInput[] = [];
    setPaymentProvider(
      stubPaymentProvider({
        createPlanCheckout: async (input) => {
          asked.push(input);
          return { transactionId: `txn_01paddle${asked.length}` };
        },
      }),
    );
    const buyer = await customer();
    const created = await post({ intent: "checkout", plan: "6_months", priceId: "pri_attacker_free" }, buyer.cookie);
    expect(created.data.checkout).toMatchObject({ transactionId: "txn_01paddle1", trial: true });
    expect(asked[0]).toMatchObject({
      userId: buyer.id,
      planId: "6_months",
      priceId: "pri_demo_6_months_trial",
      trial: true,
    });
    expect((await post({ intent: "demo-pay", transactionId: "txn_01paddle1" }, buyer.cookie)).status).toBe(404);
  });

  it("when the provider fails, the checkout's text and the trial is not held", async () => {
    const buyer = await customer();
    setPaymentProvider({
      ...demo,
      createPlanCheckout: async () => {
        throw new Error("Paddle is down");
      },
    });
    const failed = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    expect(failed).toMatchObject({ status: 502, data: { error: CHECKOUT_ERRORS.openFailed } });
    setPaymentProvider(demo);
    const retried = await createPlanCheckout({ userId: buyer.id, email: buyer.email, planId: "monthly" });
    expect(retried.trial).toBe(true);
  });
});
