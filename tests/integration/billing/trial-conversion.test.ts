import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paymentDescription } from "~/domain/billing";
import { chargeStatusText } from "~/domain/charge-words";
import { formatDate } from "~/domain/format-date";
import { licenseState } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { TRIAL_TEXTS } from "~/domain/trial-conversion";
import * as licensesRoute from "~/routes/licenses";
import { listBillingHistory } from "~/server/billing/billing-history.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import type { PaddleSubscription } from "~/server/billing/paddle-events.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, demo_billing, licenses, payments, users } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { demoPurchase } from "../../support/checkout";
import { envelope, signed, transaction } from "../../support/paddle-fixtures";
import { call, formRequest, routeArgs } from "../../support/route-call";
import { stubPaymentProvider } from "../../support/stub-provider";
import { testEngines, type TestApp } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("a trial converts on purpose on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let userCookie: string;
  let adminCookie: string;
  let user: { id: string; email: string };

  beforeAll(async () => {
    ({ app, userCookie, adminCookie } = await startAdminTestApp(engine));
    const [row] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    user = { id: row!.id, email: row!.email };
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(async () => {
    await drainJobs();
    app.mails.length = 0;
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  const post = (fields: Record<string, string>, cookie = userCookie) =>
    call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, cookie))));
  /** A monthly plan bought with the free trial through the demo checkout: the license it made. */
  const newTrial = async () => {
    // One live trial checkout per user (the database's rule): each test's trial stands for a new one.
    await db().update(checkouts).set({ status: "superseded" }).where(eq(checkouts.user_id, user.id));
    const { subscriptionId, transactionId } = await demoPurchase(db(), demo, user, "monthly", { trial: true });
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    return { license: license!, subscriptionId, transactionId };
  };
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const paymentsOf = (licenseId: string) => db().select().from(payments).where(eq(payments.license_id, licenseId));
  const demoSubscription = async (id: string) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.id, id)))[0]!.data as PaddleSubscription;

  it("the trial's card state: converting, first charge of the plan's price on the trial's end", async () => {
    const { license } = await newTrial();
    const state = licenseState(licenseFacts(license), new Date());
    expect(state.state).toBe("trial-converting");
    expect(state.nextChargeCents).toBe(900);
    expect(state.date).toEqual(license.trial_ends_at);
  });

  it("Start paid plan now (demo): the provider charges now, the license becomes paid through the webhook, the payment is recorded", async () => {
    const { license, subscriptionId } = await newTrial();
    await drainJobs();
    app.mails.length = 0;
    const before = Date.now();
    const result = await post({ intent: "start-paid-plan", licenseId: license.id });
    expect(result.status).toBe(200);
    expect(result.data.toast).toMatchObject({ title: "Paid plan started", variant: "success" });
    expect(result.data.toast.description).toMatch(/^\$9\.00 is charged now; the license renews on /);

    const after = await reload(license.id);
    expect(after.is_trial).toBe(false);
    expect(after.auto_renew).toBe(true);
    expect(after.end_date.getTime()).toBeGreaterThan(license.end_date.getTime());
    // One month from now (28 to 31 days), not from the trial's end.
    expect(after.end_date.getTime() - before).toBeGreaterThan(27 * DAY);
    expect(after.end_date.getTime() - before).toBeLessThan(32 * DAY);
    expect(after.license_key).not.toBe(license.license_key);
    expect(after.purchase_date!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(after.refund_eligible_until!.getTime() - after.purchase_date!.getTime()).toBe(14 * DAY);
    expect(licenseState(licenseFacts(after), new Date()).state).toBe("renewing");

    const paid = await paymentsOf(license.id);
    expect(paid.map((p) => [p.kind, p.amount_cents]).sort()).toEqual([
      ["purchase", 0],
      ["renewal", 900],
    ]);
    // /billing and the invoice name the first charge as the plan's purchase and the $0 row as the trial.
    const history = (await listBillingHistory(user.id)).filter((entry) => entry.license_short_id === after.short_id);
    expect(history.map((entry) => [paymentDescription(entry), chargeStatusText(entry)])).toEqual([
      ["Monthly license, first payment after the free trial", "Paid"],
      ["Monthly license, free trial", "Nothing charged"],
    ]);
    // The e-mail says the paid plan started, with what was charged and when it renews; not "renewed".
    await drainJobs();
    const mails = app.mails.filter((m) => m.text.includes(after.short_id));
    expect(mails.map((m) => m.subject)).toEqual([`Your ForgeKit paid plan has started (${after.short_id})`]);
    expect(mails[0]!.text).toContain("your Monthly ForgeKit plan has started: $9.00 was charged");
    expect(mails[0]!.text).toContain(`Next renewal: ${formatDate(after.end_date)} for $9.00`);
    expect(mails[0]!.text).not.toMatch(/renewing|was renewed/);
    const sub = await demoSubscription(subscriptionId);
    expect(sub.status).toBe("active");
    expect(sub.next_billed_at).toBe(after.end_date.toISOString());

    // The demo refuses a second activation as Paddle does (the subscription is no longer trialing).
    await expect(demo.activateTrial(subscriptionId)).rejects.toBeInstanceOf(ProviderError);
    // Once paid, neither action is offered any more.
    expect((await post({ intent: "start-paid-plan", licenseId: license.id })).status).toBe(409);
    expect((await post({ intent: "cancel-trial", licenseId: license.id })).data.toast.description).toBe(
      TRIAL_TEXTS.notConverting,
    );
  });

  it("Cancel trial (demo): nothing is charged, the license works until the trial's end and then ends", async () => {
    const { license, subscriptionId } = await newTrial();
    const result = await post({ intent: "cancel-trial", licenseId: license.id });
    expect(result.status).toBe(200);
    expect(result.data.toast).toEqual({ ...TRIAL_TEXTS.cancelled(license.trial_ends_at!), variant: "success" });

    const after = await reload(license.id);
    expect(after).toMatchObject({ is_trial: true, auto_renew: false, cancellation_requested: true });
    expect(after.end_date).toEqual(license.end_date);
    expect(licenseState(licenseFacts(after), new Date()).line).toMatch(/^Active, trial until /);
    const sub = await demoSubscription(subscriptionId);
    expect(sub.scheduled_change).toMatchObject({
      action: "cancel",
      effective_at: license.trial_ends_at!.toISOString(),
    });
    await drainJobs();
    expect(app.mails.filter((m) => m.subject.includes("was cancelled"))).toHaveLength(1);

    // Cancelled: no more trial actions; at the trial's end the subscription ends, nothing charged.
    expect((await post({ intent: "start-paid-plan", licenseId: license.id })).status).toBe(409);
    expect((await post({ intent: "cancel-trial", licenseId: license.id })).status).toBe(409);
    expect((await demo.renew(subscriptionId)).outcome).toBe("canceled");
    expect((await paymentsOf(license.id)).map((p) => p.amount_cents)).toEqual([0]);
    expect((await reload(license.id)).auto_renew).toBe(false);
  });

  it("Paddle: activate is called; the license changes only when the charge arrives as transaction.completed", async () => {
    const { license, subscriptionId } = await newTrial();
    const asked: string[] = [];
    const next = new Date(Date.now() + 30 * DAY);
    setPaymentProvider(
      stubPaymentProvider({
        activateTrial: async (id) => {
          asked.push(id);
          return { nextBilledAt: next.toISOString() };
        },
      }),
    );
    const result = await post({ intent: "start-paid-plan", licenseId: license.id });
    expect(result.status).toBe(200);
    expect(asked).toEqual([subscriptionId]);
    expect((await reload(license.id)).is_trial).toBe(true);

    // Paddle's charge for the activation, as its webhook delivers it.
    const start = new Date();
    const txn = transaction({
      userId: user.id,
      subscriptionId,
      amountCents: 900,
      start,
      end: next,
    });
    const secret = app.env.DEMO_WEBHOOK_SECRET;
    const answer = await receiveWebhook({ ...signed(secret, envelope("transaction.completed", txn)), secret });
    expect(answer.status).toBe(200);
    const after = await reload(license.id);
    expect(after.is_trial).toBe(false);
    expect(after.end_date.toISOString()).toBe(next.toISOString());
    const [renewal] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.license_id, license.id), eq(payments.kind, "renewal")));
    expect(renewal).toMatchObject({ id: txn.id, amount_cents: 900 });
  });

  it("a provider that refuses: 502 with the action's text, nothing changes", async () => {
    const { license } = await newTrial();
    setPaymentProvider(stubPaymentProvider({}, { name: "demo", fail: () => new ProviderError("Paddle is down") }));
    const start = await post({ intent: "start-paid-plan", licenseId: license.id });
    expect(start.status).toBe(502);
    expect(start.data.toast.description).toBe(TRIAL_TEXTS.startFailed);
    const cancel = await post({ intent: "cancel-trial", licenseId: license.id });
    expect(cancel.status).toBe(502);
    expect(cancel.data.toast.description).toBe(TRIAL_TEXTS.cancelFailed);
    expect(await reload(license.id)).toEqual(license);
  });

  it("only the owner's converting trial: another user's is not found, a paid or seeded trial is refused", async () => {
    const { license } = await newTrial();
    expect((await post({ intent: "start-paid-plan", licenseId: license.id }, adminCookie)).status).toBe(404);
    expect((await post({ intent: "cancel-trial", licenseId: license.id }, adminCookie)).status).toBe(404);
    const own = await db().select().from(licenses).where(eq(licenses.user_id, user.id));
    const seededTrial = own.find((l) => l.is_trial && !l.paddle_subscription_id)!;
    const paidPlan = own.find((l) => l.paddle_subscription_id === "sub_demo_seed_renewing")!;
    for (const other of [seededTrial, paidPlan]) {
      expect((await post({ intent: "start-paid-plan", licenseId: other.id })).status).toBe(409);
      expect((await post({ intent: "cancel-trial", licenseId: other.id })).status).toBe(409);
    }
    expect((await post({ intent: "cancel-trial", licenseId: "not-a-uuid" })).status).toBe(404);
  });
});
