import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import { formatDate } from "~/domain/format-date";
import { PAST_DUE_GRACE_DAYS, PAYMENT_PROBLEM_TEXTS } from "~/domain/past-due";
import { action as renewAction } from "~/routes/api.demo.renew";
import * as paymentMethodRoute from "~/routes/billing.payment-method";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { parseRenewTarget } from "~/server/billing/demo/demo-renew.server";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses, payments, users, webhook_events } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { describeLicense } from "~/server/license-api/validate-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { demoPurchase } from "../../support/checkout";
import { envelope, signed, subscription, transaction } from "../../support/paddle-fixtures";
import { call, formRequest, routeArgs, signInCookie, testContext } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

// A renewal that fails and what follows: the demo provider and demo:renew --fail, the provider's
// events (past due, the grace period, the e-mail, recovery), and Update payment method.

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("payment problems on %s", (engine) => {
  // A test app with the demo data and the demo provider: the demo customer and both demo cookies.
  const state = {} as {
    app: TestApp;
    demo: DemoProvider;
    user: { id: string; email: string };
    userCookie: string;
    adminCookie: string;
  };
  beforeAll(async () => {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(state.app.database.db);
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
    state.userCookie = await signInCookie(USER!.email, USER!.password);
    state.adminCookie = await signInCookie(ADMIN!.email, ADMIN!.password);
    const [row] = await state.app.database.db.select().from(users).where(eq(users.email, USER!.email));
    state.user = { id: row!.id, email: row!.email };
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await state.app?.close();
  });

  const db = () => state.app.database.db;
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;
  /** A Paddle-shaped event, signed with the demo secret, through the webhook handler. */
  const deliver = (event: ReturnType<typeof envelope>) =>
    receiveWebhook({ ...signed(state.app.env.DEMO_WEBHOOK_SECRET, event), secret: state.app.env.DEMO_WEBHOOK_SECRET });
  /** A monthly license bought 30 days ago through Paddle-shaped events, its period ending now. */
  async function boughtMonthAgo() {
    const start = new Date(Date.now() - 30 * DAY);
    const end = new Date(Date.now() - 1000);
    const txn = transaction({ userId: state.user.id, amountCents: 900, start, end });
    expect((await deliver(envelope("transaction.completed", txn, start))).status).toBe(200);
    const subscriptionId = txn.subscription_id!;
    const renewal = (status: string) => ({
      ...transaction({
        userId: state.user.id,
        subscriptionId,
        amountCents: 900,
        start: end,
        end: new Date(end.getTime() + 30 * DAY),
        origin: "subscription_recurring",
      }),
      status,
    });
    const sub = (status: "active" | "past_due") =>
      subscription({
        subscriptionId,
        userId: state.user.id,
        status,
        start: end,
        end: new Date(end.getTime() + 30 * DAY),
      });
    return { subscriptionId, renewal, sub, end };
  }

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

  describe("the provider's events", () => {
    it("transaction.payment_failed marks the license past due; it keeps working through the grace period", async () => {
      const { subscriptionId, renewal, end } = await boughtMonthAgo();
      const failedAt = new Date();
      expect((await deliver(envelope("transaction.payment_failed", renewal("billed"), failedAt))).status).toBe(200);
      const license = await licenseOf(subscriptionId);
      expect(license.past_due_since!.toISOString()).toBe(failedAt.toISOString());
      // The desktop API: VALID until end_date + 14 days, saying the payment is past due; then EXPIRED.
      const graceEnd = new Date(license.end_date.getTime() + PAST_DUE_GRACE_DAYS * DAY);
      expect(describeLicense(license)).toMatchObject({
        valid: true,
        code: "VALID",
        license: { payment_past_due: true, grace_ends_at: graceEnd.toISOString(), end_date: end.toISOString() },
      });
      expect(describeLicense(license, {}, new Date(graceEnd.getTime() + 1))).toMatchObject({
        valid: false,
        code: "EXPIRED",
      });
      // The card's data carries it (and only the time, nothing about the provider).
      const card = (await listUserLicenses(state.user.id)).find((l) => l.id === license.id)!;
      expect(card.past_due_since).toBe(failedAt.toISOString());
    });

    it("transaction.past_due and subscription.past_due each mark it; redeliveries and retries keep the first failure", async () => {
      const first = await boughtMonthAgo();
      const at = new Date();
      const pastDue = envelope("transaction.past_due", first.renewal("past_due"), at);
      expect((await deliver(pastDue)).status).toBe(200);
      expect((await deliver(pastDue)).body.message).toBe("Already received");
      expect((await licenseOf(first.subscriptionId)).past_due_since!.toISOString()).toBe(at.toISOString());
      const later = new Date(at.getTime() + 60_000);
      await deliver(envelope("transaction.payment_failed", first.renewal("billed"), later));
      const retried = await licenseOf(first.subscriptionId);
      expect(retried.past_due_since!.toISOString()).toBe(at.toISOString());
      expect(retried.payment_state_at!.toISOString()).toBe(later.toISOString());

      const second = await boughtMonthAgo();
      await deliver(envelope("subscription.past_due", second.sub("past_due"), at));
      const license = await licenseOf(second.subscriptionId);
      expect(license.past_due_since!.toISOString()).toBe(at.toISOString());
      // Past due still renews (Paddle keeps retrying): the subscription section stays as it was.
      expect(license.auto_renew).toBe(true);
    });

    it("the customer is e-mailed once per episode: the grace end and the update link, not again for retries", async () => {
      await drainJobs();
      state.app.mails.length = 0;
      const { subscriptionId, renewal } = await boughtMonthAgo();
      await drainJobs();
      state.app.mails.length = 0;
      const at = new Date();
      const failed = envelope("transaction.payment_failed", renewal("billed"), at);
      expect((await deliver(failed)).status).toBe(200);
      await deliver(failed);
      await deliver(envelope("transaction.past_due", renewal("past_due"), new Date(at.getTime() + 60_000)));
      await drainJobs();
      const license = await licenseOf(subscriptionId);
      const sent = state.app.mails.filter((mail) => mail.subject.startsWith("Payment failed"));
      expect(sent).toHaveLength(1);
      expect(sent[0]!.to).toBe(license.email);
      expect(sent[0]!.subject).toContain(license.short_id);
      const graceEnd = new Date(license.end_date.getTime() + PAST_DUE_GRACE_DAYS * DAY);
      expect(sent[0]!.text).toContain(formatDate(graceEnd));
      expect(sent[0]!.text).toContain("/licenses");
    });

    it("a later successful payment of the renewal clears it and renews the license", async () => {
      const { subscriptionId, renewal } = await boughtMonthAgo();
      const before = await licenseOf(subscriptionId);
      const failed = renewal("past_due");
      await deliver(envelope("transaction.past_due", failed, new Date(Date.now() - 5000)));
      expect((await licenseOf(subscriptionId)).past_due_since).not.toBeNull();
      await deliver(
        envelope("transaction.completed", { ...failed, status: "completed", billed_at: new Date().toISOString() }),
      );
      const paid = await licenseOf(subscriptionId);
      expect(paid.past_due_since).toBeNull();
      expect(paid.end_date.getTime()).toBeGreaterThan(before.end_date.getTime());
      expect(describeLicense(paid).license).toMatchObject({ payment_past_due: false, grace_ends_at: null });
    });

    it("the subscription active again clears it too", async () => {
      const { subscriptionId, sub } = await boughtMonthAgo();
      await deliver(envelope("subscription.past_due", sub("past_due"), new Date(Date.now() - 5000)));
      await deliver(envelope("subscription.updated", sub("active"), new Date()));
      expect((await licenseOf(subscriptionId)).past_due_since).toBeNull();
    });

    it("order is not trusted: a failure older than the payment that settled it, or of a paid transaction, changes nothing", async () => {
      const { subscriptionId, renewal, sub } = await boughtMonthAgo();
      const failed = renewal("past_due");
      const paidAt = new Date();
      await deliver(
        envelope("transaction.completed", { ...failed, status: "completed", billed_at: paidAt.toISOString() }, paidAt),
      );
      // Delivered late: the failure of the transaction that was then paid.
      await deliver(
        envelope("transaction.payment_failed", { ...failed, status: "billed" }, new Date(paidAt.getTime() - 60_000)),
      );
      expect((await licenseOf(subscriptionId)).past_due_since).toBeNull();
      // A subscription.past_due from before the payment, delivered late.
      await deliver(envelope("subscription.past_due", sub("past_due"), new Date(paidAt.getTime() - 30_000)));
      expect((await licenseOf(subscriptionId)).past_due_since).toBeNull();
      // A newer failure of an unpaid transaction does count.
      const next = renewal("past_due");
      await deliver(envelope("transaction.past_due", next, new Date(paidAt.getTime() + 1000)));
      expect((await licenseOf(subscriptionId)).past_due_since).not.toBeNull();
    });

    it("a failed checkout (no subscription) or an unknown subscription is recorded and changes no license", async () => {
      const checkout = {
        ...transaction({ userId: state.user.id, subscriptionId: null, amountCents: 900, start: new Date(), end: null }),
        status: "ready",
      };
      expect((await deliver(envelope("transaction.payment_failed", checkout))).status).toBe(200);
      const stranger = transaction({
        userId: state.user.id,
        amountCents: 900,
        start: new Date(),
        end: new Date(Date.now() + 30 * DAY),
      });
      expect((await deliver(envelope("transaction.past_due", { ...stranger, status: "past_due" }))).status).toBe(200);
      const recorded = await db()
        .select()
        .from(webhook_events)
        .where(eq(webhook_events.event_type, "transaction.payment_failed"));
      expect(recorded.length).toBeGreaterThan(0);
      expect(await licenseOf(stranger.subscription_id!)).toBeUndefined();
    });
  });

  describe("Update payment method", () => {
    const post = (fields: Record<string, string>, cookie = state.userCookie) =>
      call(() => paymentMethodRoute.action(routeArgs(formRequest("/billing/payment-method", fields, cookie))));
    const realFetch = globalThis.fetch;
    afterEach(() => {
      globalThis.fetch = realFetch;
      setPaymentProvider(state.demo);
    });

    it("demo: start gives the failed renewal's transaction; paying it recovers the subscription", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "yearly");
      const failed = (await state.demo.failRenewal(subscriptionId)) as { transactionId: string };
      const license = await licenseOf(subscriptionId);
      const started = await post({ intent: "start", licenseId: license.id });
      expect(started.status).toBe(200);
      expect(started.data).toMatchObject({ ok: true, transactionId: failed.transactionId, demo: true });
      const paid = await post({ intent: "demo-pay", licenseId: license.id });
      expect(paid.status).toBe(200);
      expect(paid.data).toMatchObject({ recovered: true, toast: { title: PAYMENT_PROBLEM_TEXTS.updated } });
      const after = await licenseOf(subscriptionId);
      expect(after.past_due_since).toBeNull();
      expect(after.end_date.toISOString()).toBe(addMonths(license.end_date, 12).toISOString());
      // Nothing is due any more.
      expect((await post({ intent: "demo-pay", licenseId: license.id })).status).toBe(409);
    });

    it("only the owner, only while a payment is due; bad input is a 4xx", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      const license = await licenseOf(subscriptionId);
      const notDue = await post({ intent: "start", licenseId: license.id });
      expect(notDue.status).toBe(409);
      expect(notDue.data.toast.description).toBe(PAYMENT_PROBLEM_TEXTS.nothingDue);
      await state.demo.failRenewal(subscriptionId);
      expect((await post({ intent: "start", licenseId: license.id }, state.adminCookie)).status).toBe(404);
      expect((await post({ intent: "demo-pay", licenseId: license.id }, state.adminCookie)).status).toBe(404);
      expect((await post({ intent: "start", licenseId: "not-a-uuid" })).status).toBe(404);
      expect((await post({ intent: "steal", licenseId: license.id })).status).toBe(400);
      const signedOut = await post({ intent: "start", licenseId: license.id }, "");
      expect(signedOut.status).toBe(302);
      expect((await licenseOf(subscriptionId)).past_due_since).not.toBeNull();
    });

    it("Paddle: start asks GET /subscriptions/{id}/update-payment-method-transaction and gives the overlay its id", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      await state.demo.failRenewal(subscriptionId);
      const license = await licenseOf(subscriptionId);
      const sent: string[] = [];
      const txn = {
        ...transaction({ userId: state.user.id, subscriptionId, amountCents: 0, start: new Date(), end: null }),
        status: "ready",
      };
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        sent.push(`${request.method} ${request.url}`);
        return new Response(JSON.stringify({ data: txn, meta: { request_id: "r" } }), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        });
      }) as typeof fetch;
      setPaymentProvider(
        createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "x" }),
      );
      const started = await post({ intent: "start", licenseId: license.id });
      expect(started.status).toBe(200);
      expect(started.data).toMatchObject({ transactionId: txn.id, demo: false });
      expect(sent).toEqual([
        `GET https://sandbox-api.paddle.com/subscriptions/${subscriptionId}/update-payment-method-transaction`,
      ]);
      // The demo's own payment does not exist with Paddle.
      expect((await post({ intent: "demo-pay", licenseId: license.id })).status).toBe(404);
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
