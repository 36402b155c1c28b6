import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { signatureHeader } from "~/server/billing/webhook-signature.server";
import { audit_log, checkouts, licenses, payments, webhook_events } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { action as webhookAction } from "~/routes/api.webhooks.paddle";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { adjustment, days, envelope, signed, subscription, transaction } from "../support/paddle-fixtures";
import { stubPaymentProvider } from "../support/stub-provider";
import { createUser, startTestApp, testEngines, type TestApp } from "../support/test-app";
import { testContext } from "../support/route-call";

const SECRET = "whsec_test_secret_0123456789";

describe.each(testEngines())("payment webhooks on %s", (engine) => {
  let app: TestApp;
  let user: { id: string; email: string };
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET });
    setPaymentProvider(undefined);
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    // Follow-ups queued by earlier tests run now (against the demo provider): each test sees its own.
    await drainJobs();
    user = await createUser(app.database.db, `buyer-${engine}-${++n}@example.com`);
  });

  const db = () => app.database.db;
  /** Delivers an event signed with `signWith` at `signedAt`; the handler checks it against SECRET. */
  const deliver = (event: unknown, signWith = SECRET, signedAt = new Date()) =>
    receiveWebhook({ ...signed(signWith, event, signedAt), secret: SECRET });
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0];
  const count = async (table: typeof licenses | typeof webhook_events | typeof payments) =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(table)) as { n: number }[]
    )[0]!.n;

  /** The checkout row the server records when it creates a checkout with the provider. */
  const recordCheckout = (values: Partial<typeof checkouts.$inferInsert> & { transaction_id: string }) =>
    db()
      .insert(checkouts)
      .values({ user_id: user.id, kind: "plan", plan_type: "monthly", amount_cents: 0, status: "open", ...values })
      .returning()
      .then((rows) => rows[0]!);
  const auditActions = async () =>
    (await db().select({ action: audit_log.action, target: audit_log.target_id }).from(audit_log)).map((r) => r.action);

  /**
   * A purchase: the checkout's transaction.completed for a new subscription. A trial goes through
   * the trial checkout the server created for this first-time buyer (unless `checkout: false`).
   */
  async function purchase(options: { trial?: boolean; planType?: string; start?: Date; checkout?: boolean } = {}) {
    const start = options.start ?? new Date();
    const trial = options.trial ?? false;
    const txn = transaction({
      userId: user.id,
      planType: options.planType ?? "monthly",
      priceId: trial ? "pri_demo_monthly_trial" : undefined,
      amountCents: trial ? 0 : 900,
      start,
      end: trial ? days(7, start) : days(30, start),
      trial,
    });
    if (trial && options.checkout !== false)
      await recordCheckout({ transaction_id: txn.id, trial: true, price_id: "pri_demo_monthly_trial" });
    const result = await deliver(envelope("transaction.completed", txn));
    expect(result.status).toBe(200);
    return { txn, license: (await licenseOf(txn.subscription_id!))! };
  }

  describe("transaction.completed of a new subscription", () => {
    it("creates the license with the period's dates, purchase facts and a key for this user", async () => {
      const start = new Date("2026-11-01T10:00:00.000Z");
      const { txn, license } = await purchase({ planType: "yearly", start });
      expect(license).toMatchObject({
        user_id: user.id,
        email: user.email,
        license_type: "yearly",
        status: "active",
        is_trial: false,
        trial_starts_at: null,
        auto_renew: true,
        cancellation_requested: false,
        paddle_subscription_id: txn.subscription_id,
        refunded: false,
      });
      expect(license.start_date.toISOString()).toBe(start.toISOString());
      expect(license.end_date.toISOString()).toBe(days(30, start).toISOString());
      expect(license.purchase_date!.toISOString()).toBe(start.toISOString());
      expect(license.refund_eligible_until!.toISOString()).toBe(days(14, start).toISOString());
      expect(licenseKeys().decode(license.license_key)).toEqual({
        email: user.email,
        windows_username: null,
        computer_name: null,
        start_date: start.toISOString(),
        end_date: days(30, start).toISOString(),
      });
      const [payment] = await db().select().from(payments).where(eq(payments.id, txn.id));
      expect(payment).toMatchObject({
        license_id: license.id,
        kind: "purchase",
        amount_cents: 900,
        item_id: txn.details.line_items[0]!.id,
      });
    });

    it("a trialing purchase sets is_trial and the trial dates", async () => {
      const start = new Date();
      const { license } = await purchase({ trial: true, start });
      expect(license.is_trial).toBe(true);
      expect(license.trial_starts_at!.toISOString()).toBe(start.toISOString());
      expect(license.trial_ends_at!.toISOString()).toBe(days(7, start).toISOString());
      expect(license.end_date.toISOString()).toBe(days(7, start).toISOString());
    });

    it("the same event delivered 10 times at once makes one license, one payment and one stored event", async () => {
      const txn = transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(30) });
      const event = envelope("transaction.completed", txn);
      const before = { events: await count(webhook_events), payments: await count(payments) };
      const results = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(results.filter((r) => r.body.message === "Already received")).toHaveLength(9);
      const rows = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, txn.subscription_id!));
      expect(rows).toHaveLength(1);
      expect(await count(webhook_events)).toBe(before.events + 1);
      expect(await count(payments)).toBe(before.payments + 1);
    });

    it("two different events for one new subscription at once still make one license", async () => {
      const txn = transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(30) });
      const again = { ...txn, id: `${txn.id}b` };
      await Promise.all([
        deliver(envelope("transaction.completed", txn)),
        deliver(envelope("transaction.completed", again)),
      ]);
      expect(
        await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, txn.subscription_id!)),
      ).toHaveLength(1);
    });

    it("a payment that names no known user is stored and changes no license", async () => {
      const before = await count(licenses);
      const orphan = transaction({
        userId: "00000000-0000-4000-8000-000000000000",
        amountCents: 900,
        start: new Date(),
        end: days(30),
      });
      expect((await deliver(envelope("transaction.completed", orphan))).status).toBe(200);
      const noUser = transaction({
        userId: user.id,
        amountCents: 900,
        start: new Date(),
        end: days(30),
        customData: {},
      });
      expect((await deliver(envelope("transaction.completed", noUser))).status).toBe(200);
      expect(await count(licenses)).toBe(before);
    });
  });

  describe("signatures", () => {
    it("a wrong secret, a stale or missing signature, or an altered body → 401 and nothing written", async () => {
      const before = { licenses: await count(licenses), events: await count(webhook_events) };
      const event = envelope(
        "transaction.completed",
        transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(30) }),
      );
      expect((await deliver(event, "another-secret-0123456789")).status).toBe(401);
      expect((await deliver(event, SECRET, new Date(Date.now() - 60_000))).status).toBe(401);
      const { rawBody, signature } = signed(SECRET, event);
      expect((await receiveWebhook({ rawBody, signature: null, secret: SECRET })).status).toBe(401);
      expect(
        (
          await receiveWebhook({
            rawBody: rawBody.replace('"900"', '"1"'),
            signature,
            secret: SECRET,
          })
        ).status,
      ).toBe(401);
      expect(await count(licenses)).toBe(before.licenses);
      expect(await count(webhook_events)).toBe(before.events);
    });

    it("a verified but malformed event → 400 and nothing written; an unused type → 200, not stored", async () => {
      const before = await count(webhook_events);
      const bad = envelope("transaction.completed", {
        ...transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(30) }),
        details: null,
      });
      const result = await deliver(bad);
      expect(result.status).toBe(400);
      expect(result.body.message).toContain("details");
      const notJson = "{not json";
      expect(
        (
          await receiveWebhook({
            rawBody: notJson,
            signature: signatureHeader(SECRET, notJson),
            secret: SECRET,
          })
        ).status,
      ).toBe(400);
      expect((await deliver(envelope("customer.updated", { id: "ctm_01" }))).status).toBe(200);
      expect(await count(webhook_events)).toBe(before);
    });

    it("an event that fails to apply answers 500 and is not recorded, so the redelivery applies it", async () => {
      const before = await count(webhook_events);
      // An end before the start breaks the licenses table's date check inside the transaction.
      const broken = transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(-1) });
      const event = envelope("transaction.completed", broken);
      expect((await deliver(event)).status).toBe(500);
      expect(await count(webhook_events)).toBe(before);
      expect(await licenseOf(broken.subscription_id!)).toBeUndefined();
    });

    it("the HTTP route refuses a body over 1 MB even without a Content-Length", async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 20) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const request = new Request("http://localhost/api/webhooks/paddle", {
        method: "POST",
        body,
        duplex: "half",
      } as RequestInit);
      const response = (await webhookAction({ request, params: {}, context: testContext() } as never)) as Response;
      expect(response.status).toBe(413);
    });

    it("the HTTP route verifies the header and answers with the handler's status", async () => {
      const event = envelope(
        "transaction.completed",
        transaction({ userId: user.id, amountCents: 900, start: new Date(), end: days(30) }),
      );
      const { rawBody, signature } = signed(SECRET, event);
      const post = (sig: string) =>
        webhookAction({
          request: new Request("http://localhost/api/webhooks/paddle", {
            method: "POST",
            body: rawBody,
            headers: { "Paddle-Signature": sig, "Content-Type": "application/json" },
          }),
          params: {},
          context: testContext(),
        } as never) as Promise<Response>;
      const bad = await post(signature.replace(/h1=[0-9a-f]/, "h1=x"));
      expect(bad.status).toBe(401);
      const good = await post(signature);
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({ ok: true, message: "Applied transaction.completed" });
    });
  });

  describe("renewals", () => {
    it("a renewal moves end_date to the new period's end and regenerates the key; an older period never moves it back", async () => {
      const { txn, license } = await purchase();
      const renewal = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.end_date,
        end: days(30, license.end_date),
        origin: "subscription_recurring",
      });
      expect((await deliver(envelope("transaction.completed", renewal))).status).toBe(200);
      const renewed = (await licenseOf(txn.subscription_id!))!;
      expect(renewed.end_date.toISOString()).toBe(days(30, license.end_date).toISOString());
      expect(renewed.license_key).not.toBe(license.license_key);
      expect(licenseKeys().decode(renewed.license_key).end_date).toBe(renewed.end_date.toISOString());
      // The purchase window is not reopened by a renewal.
      expect(renewed.refund_eligible_until!.toISOString()).toBe(license.refund_eligible_until!.toISOString());
      const stale = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.start_date,
        end: license.end_date,
        origin: "subscription_recurring",
      });
      await deliver(envelope("transaction.completed", stale));
      expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(renewed.end_date.toISOString());
      const kinds = await db()
        .select({ kind: payments.kind })
        .from(payments)
        .where(eq(payments.license_id, license.id));
      expect(kinds.map((k) => k.kind).sort()).toEqual(["purchase", "renewal", "renewal"]);
    });

    it("the first paid period after a trial ends the trial and opens the refund window", async () => {
      const { txn, license } = await purchase({ trial: true });
      const paidAt = license.end_date;
      const first = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: paidAt,
        end: days(30, paidAt),
        origin: "subscription_recurring",
      });
      await deliver(envelope("transaction.completed", first));
      const converted = (await licenseOf(txn.subscription_id!))!;
      expect(converted.is_trial).toBe(false);
      expect(converted.purchase_date!.toISOString()).toBe(paidAt.toISOString());
      expect(converted.refund_eligible_until!.toISOString()).toBe(days(14, paidAt).toISOString());
      expect(converted.end_date.toISOString()).toBe(days(30, paidAt).toISOString());
    });

    it("an extension payment adds its months to the end date, and later renewals keep them", async () => {
      const { txn, license } = await purchase();
      const ext = transaction({
        userId: user.id,
        subscriptionId: null,
        amountCents: 900 * 2 + 9900,
        start: new Date(),
        end: null,
        origin: "api",
        customData: { kind: "extension", user_id: user.id, license_id: license.id, months: 2, years: 1 },
      });
      await recordCheckout({
        transaction_id: ext.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 14,
        amount_cents: 900 * 2 + 9900,
      });
      await deliver(envelope("transaction.completed", ext));
      const extended = (await licenseOf(txn.subscription_id!))!;
      expect(extended.extended_months).toBe(14);
      const expected = new Date(license.end_date);
      expected.setUTCMonth(expected.getUTCMonth() + 14);
      expect(extended.end_date.toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
      const renewal = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.end_date,
        end: days(30, license.end_date),
        origin: "subscription_recurring",
      });
      await deliver(envelope("transaction.completed", renewal));
      const after = (await licenseOf(txn.subscription_id!))!;
      expect(after.end_date.getTime()).toBeGreaterThan(extended.end_date.getTime());
    });
  });

  describe("what a checkout's custom data cannot do", () => {
    it("an extension is applied only from a one-time transaction that paid its price", async () => {
      const { license, txn } = await purchase();
      const base = { userId: user.id, subscriptionId: null, start: new Date(), end: null, origin: "api" as const };
      const extension = { kind: "extension", user_id: user.id, license_id: license.id, months: 12, years: 5 };
      // Paid less than 12 × $9 + 5 × $99, or huge numbers, or on a subscription: not an extension.
      await deliver(envelope("transaction.completed", transaction({ ...base, amountCents: 0, customData: extension })));
      await deliver(
        envelope(
          "transaction.completed",
          transaction({ ...base, amountCents: 900_000, customData: { ...extension, months: 1e9 } }),
        ),
      );
      const sub = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.end_date,
        end: days(30, license.end_date),
        origin: "subscription_recurring",
        customData: extension,
      });
      expect((await deliver(envelope("transaction.completed", sub))).status).toBe(200);
      const after = (await licenseOf(txn.subscription_id!))!;
      expect(after.extended_months).toBe(0);
      expect(after.end_date.toISOString()).toBe(days(30, license.end_date).toISOString());
    });

    it("the price paid decides the plan, not the plan_type in custom data", async () => {
      const txn = transaction({
        userId: user.id,
        planType: "yearly",
        priceId: "pri_demo_monthly",
        amountCents: 900,
        start: new Date(),
        end: days(30),
      });
      await deliver(envelope("transaction.completed", txn));
      expect((await licenseOf(txn.subscription_id!))!.license_type).toBe("monthly");
    });

    it("a renewal charged for a revoked license leaves it revoked and asks the provider again to stop", async () => {
      const cancelled: string[] = [];
      setPaymentProvider(
        stubPaymentProvider({ cancelAtPeriodEnd: async (id) => void cancelled.push(id) }, { webhookSecret: SECRET }),
      );
      try {
        const { txn, license } = await purchase();
        await db().update(licenses).set({ status: "revoked" }).where(eq(licenses.id, license.id));
        const renewal = transaction({
          userId: user.id,
          subscriptionId: txn.subscription_id,
          amountCents: 900,
          start: license.end_date,
          end: days(30, license.end_date),
          origin: "subscription_recurring",
        });
        expect((await deliver(envelope("transaction.completed", renewal))).status).toBe(200);
        const after = (await licenseOf(txn.subscription_id!))!;
        expect(after.status).toBe("revoked");
        expect(after.end_date.toISOString()).toBe(license.end_date.toISOString());
        await drainJobs();
        expect(cancelled).toEqual([txn.subscription_id]);
      } finally {
        setPaymentProvider(undefined);
      }
    });
  });

  describe("the trial is the server's decision, made when it created the checkout", () => {
    it("a trial price without a checkout the site created becomes a regular license, flagged in the audit log", async () => {
      const { license } = await purchase({ trial: true, checkout: false });
      expect(license).toMatchObject({ is_trial: false, trial_starts_at: null, trial_ends_at: null, status: "active" });
      const [flag] = await db().select().from(audit_log).where(eq(audit_log.target_id, license.id));
      expect(flag).toMatchObject({
        action: "trial_refused",
        target_type: "license",
        actor_id: null,
        actor_email: "payment webhook",
      });
    });

    it("a trial price for a user who already had a license (the checkout was a regular one) gets no trial", async () => {
      await purchase();
      const txn = transaction({
        userId: user.id,
        priceId: "pri_demo_monthly_trial",
        amountCents: 0,
        start: new Date(),
        end: days(7),
        trial: true,
      });
      await recordCheckout({ transaction_id: txn.id, trial: false, price_id: "pri_demo_monthly", amount_cents: 900 });
      await deliver(envelope("transaction.completed", txn));
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
      expect(await auditActions()).toContain("trial_refused");
    });

    it("a superseded trial checkout (another plan's trial was opened after it) grants no trial when paid", async () => {
      const txn = transaction({
        userId: user.id,
        priceId: "pri_demo_monthly_trial",
        amountCents: 0,
        start: new Date(),
        end: days(7),
        trial: true,
      });
      await recordCheckout({ transaction_id: txn.id, trial: true, status: "superseded" });
      await deliver(envelope("transaction.completed", txn));
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
    });

    it("a checkout recorded for another user grants that trial to nobody else", async () => {
      const other = await createUser(db(), `other-${engine}-${++n}@example.com`);
      const txn = transaction({
        userId: user.id,
        priceId: "pri_demo_monthly_trial",
        amountCents: 0,
        start: new Date(),
        end: days(7),
        trial: true,
      });
      await recordCheckout({ transaction_id: txn.id, trial: true, user_id: other.id });
      await deliver(envelope("transaction.completed", txn));
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
    });

    it("the trial checkout is marked completed when paid", async () => {
      const { txn } = await purchase({ trial: true });
      const [row] = await db().select().from(checkouts).where(eq(checkouts.transaction_id, txn.id));
      expect(row!.status).toBe("completed");
    });
  });

  describe("extensions: only the server's own checkout, from the later of the end date and now", () => {
    const extension = (licenseId: string, amountCents: number) =>
      transaction({
        userId: user.id,
        subscriptionId: null,
        amountCents,
        start: new Date(),
        end: null,
        origin: "api",
        customData: { kind: "extension", user_id: user.id, license_id: licenseId, months: 1, years: 0 },
      });

    it("an expired license extended by a month ends a month from the payment, in the future", async () => {
      const { txn, license } = await purchase({ start: days(-400) });
      expect(license.end_date.getTime()).toBeLessThan(Date.now());
      const ext = extension(license.id, 900);
      await recordCheckout({
        transaction_id: ext.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 1,
        amount_cents: 900,
      });
      await deliver(envelope("transaction.completed", ext));
      const after = (await licenseOf(txn.subscription_id!))!;
      expect(after.end_date.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
      expect(after.end_date.getTime()).toBeLessThan(Date.now() + 32 * 86_400_000);
    });

    it("extending a trial makes it a paid license", async () => {
      const { txn, license } = await purchase({ trial: true });
      const ext = extension(license.id, 900);
      await recordCheckout({
        transaction_id: ext.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 1,
        amount_cents: 900,
      });
      await deliver(envelope("transaction.completed", ext));
      const after = (await licenseOf(txn.subscription_id!))!;
      expect(after.is_trial).toBe(false);
      expect(after.end_date.toISOString()).toBe(
        new Date(
          Date.UTC(
            license.end_date.getUTCFullYear(),
            license.end_date.getUTCMonth() + 1,
            license.end_date.getUTCDate(),
            license.end_date.getUTCHours(),
            license.end_date.getUTCMinutes(),
            license.end_date.getUTCSeconds(),
            license.end_date.getUTCMilliseconds(),
          ),
        ).toISOString(),
      );
      // A later trialing event does not make it a trial again.
      await deliver(
        envelope(
          "subscription.trialing",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            status: "trialing",
            start: license.start_date,
            end: license.end_date,
            trialDates: { start: license.start_date, end: license.end_date },
          }),
        ),
      );
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
    });

    it("is refused in another currency, below the checkout's amount, for another license, without a checkout, or twice", async () => {
      const { txn, license } = await purchase();
      const other = await purchase();
      const eur = extension(license.id, 900);
      eur.details.totals.currency_code = "EUR";
      eur.currency_code = "EUR";
      await recordCheckout({
        transaction_id: eur.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 1,
        amount_cents: 900,
      });
      const cheap = extension(license.id, 100);
      await recordCheckout({
        transaction_id: cheap.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 1,
        amount_cents: 900,
      });
      const elsewhere = extension(license.id, 900);
      await recordCheckout({
        transaction_id: elsewhere.id,
        kind: "extension",
        plan_type: null,
        license_id: other.license.id,
        months: 1,
        amount_cents: 900,
        user_id: (await createUser(db(), `x-${engine}-${++n}@example.com`)).id,
      });
      const unrecorded = extension(license.id, 900);
      for (const ext of [eur, cheap, elsewhere, unrecorded])
        expect((await deliver(envelope("transaction.completed", ext))).status).toBe(200);
      expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(license.end_date.toISOString());
      expect((await licenseOf(other.txn.subscription_id!))!.end_date.toISOString()).toBe(
        other.license.end_date.toISOString(),
      );
      expect((await auditActions()).filter((a) => a === "extension_refused").length).toBeGreaterThanOrEqual(4);
      const ok = extension(license.id, 900);
      await recordCheckout({
        transaction_id: ok.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 1,
        amount_cents: 900,
      });
      await deliver(envelope("transaction.completed", ok));
      const once = (await licenseOf(txn.subscription_id!))!;
      expect(once.extended_months).toBe(1);
      // The same transaction delivered again as a new event id: applied once.
      await deliver(envelope("transaction.completed", ok));
      expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(once.end_date.toISOString());
    });
  });

  describe("out-of-order subscription events", () => {
    it("a subscription.canceled that arrives before the purchase leaves the new license not auto-renewing", async () => {
      const start = new Date();
      const txn = transaction({ userId: user.id, amountCents: 900, start, end: days(30, start) });
      const t0 = new Date(Date.now() - 1000);
      await deliver(
        envelope(
          "subscription.canceled",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            status: "canceled",
            start,
            end: days(30, start),
          }),
          t0,
        ),
      );
      await deliver(envelope("transaction.completed", txn));
      expect(await licenseOf(txn.subscription_id!)).toMatchObject({
        auto_renew: false,
        cancellation_requested: false,
        status: "active",
      });
    });

    it("a scheduled cancellation that arrives before the purchase is kept", async () => {
      const start = new Date();
      const txn = transaction({ userId: user.id, amountCents: 900, start, end: days(30, start) });
      await deliver(
        envelope(
          "subscription.updated",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            start,
            end: days(30, start),
            scheduledCancel: true,
          }),
          new Date(Date.now() - 1000),
        ),
      );
      await deliver(envelope("transaction.completed", txn));
      expect(await licenseOf(txn.subscription_id!)).toMatchObject({ auto_renew: false, cancellation_requested: true });
    });

    it("a renewal charged while a refund is pending leaves the license as it is and asks the provider to stop", async () => {
      const cancelled: string[] = [];
      setPaymentProvider(
        stubPaymentProvider({ cancelAtPeriodEnd: async (id) => void cancelled.push(id) }, { webhookSecret: SECRET }),
      );
      try {
        const { txn, license } = await purchase();
        await db()
          .update(licenses)
          .set({ status: "refund_requested", auto_renew: false })
          .where(eq(licenses.id, license.id));
        const renewal = transaction({
          userId: user.id,
          subscriptionId: txn.subscription_id,
          amountCents: 900,
          start: license.end_date,
          end: days(30, license.end_date),
          origin: "subscription_recurring",
        });
        await deliver(envelope("transaction.completed", renewal));
        expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(license.end_date.toISOString());
        await drainJobs();
        expect(cancelled).toEqual([txn.subscription_id]);
      } finally {
        setPaymentProvider(undefined);
      }
    });
  });

  describe("subscription events", () => {
    it("a late subscription.trialing after the first payment is undone by the active state", async () => {
      const { txn, license } = await purchase({ trial: true });
      const paid = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.end_date,
        end: days(30, license.end_date),
        origin: "subscription_recurring",
      });
      await deliver(envelope("transaction.completed", paid));
      const base = {
        subscriptionId: txn.subscription_id!,
        userId: user.id,
        start: license.start_date,
        end: license.end_date,
      };
      const t0 = new Date();
      await deliver(
        envelope(
          "subscription.trialing",
          subscription({
            ...base,
            status: "trialing",
            trialDates: { start: license.start_date, end: license.end_date },
          }),
          t0,
        ),
      );
      // A subscription event never makes a paid license a trial again.
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
      await deliver(
        envelope("subscription.activated", subscription({ ...base, status: "active" }), new Date(t0.getTime() + 1000)),
      );
      expect((await licenseOf(txn.subscription_id!))!.is_trial).toBe(false);
    });

    it("a scheduled cancellation clears auto_renew; removing it restores it; an older event is ignored", async () => {
      const { txn, license } = await purchase();
      const base = {
        subscriptionId: txn.subscription_id!,
        userId: user.id,
        start: license.start_date,
        end: license.end_date,
      };
      const t0 = new Date();
      await deliver(envelope("subscription.updated", subscription({ ...base, scheduledCancel: true }), t0));
      let row = (await licenseOf(txn.subscription_id!))!;
      expect(row).toMatchObject({ auto_renew: false, cancellation_requested: true });
      expect(row.cancellation_requested_at!.toISOString()).toBe(t0.toISOString());
      // Delivered late: an event from before the cancellation changes nothing.
      await deliver(envelope("subscription.updated", subscription(base), new Date(t0.getTime() - 60_000)));
      row = (await licenseOf(txn.subscription_id!))!;
      expect(row).toMatchObject({ auto_renew: false, cancellation_requested: true });
      await deliver(envelope("subscription.updated", subscription(base), new Date(t0.getTime() + 1000)));
      row = (await licenseOf(txn.subscription_id!))!;
      expect(row).toMatchObject({ auto_renew: true, cancellation_requested: false, cancellation_requested_at: null });
    });

    it("subscription.canceled ends renewal; the license keeps its end date", async () => {
      const { txn, license } = await purchase();
      await deliver(
        envelope(
          "subscription.canceled",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            status: "canceled",
            start: license.start_date,
            end: license.end_date,
          }),
        ),
      );
      const row = (await licenseOf(txn.subscription_id!))!;
      expect(row).toMatchObject({ auto_renew: false, cancellation_requested: false, status: "active" });
      expect(row.end_date.toISOString()).toBe(license.end_date.toISOString());
    });

    it("subscription.trialing keeps the trial fields in step with the subscription's trial dates", async () => {
      const { txn, license } = await purchase({ trial: true });
      const trialEnd = days(10);
      await deliver(
        envelope(
          "subscription.trialing",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            status: "trialing",
            start: license.start_date,
            end: trialEnd,
            trialDates: { start: license.start_date, end: trialEnd },
          }),
        ),
      );
      const row = (await licenseOf(txn.subscription_id!))!;
      expect(row.is_trial).toBe(true);
      expect(row.trial_ends_at!.toISOString()).toBe(trialEnd.toISOString());
    });

    it("an event for a subscription without a license yet is recorded and changes nothing", async () => {
      const before = await count(licenses);
      const result = await deliver(
        envelope(
          "subscription.created",
          subscription({ subscriptionId: "sub_01unknown", userId: user.id, start: new Date(), end: days(30) }),
        ),
      );
      expect(result.status).toBe(200);
      expect(await count(licenses)).toBe(before);
    });
  });

  describe("refund adjustments", () => {
    it("pending → refund_requested; approved → refunded with the amount in cents and the date", async () => {
      const { txn, license } = await purchase();
      const adj = { transactionId: txn.id, subscriptionId: txn.subscription_id, amountCents: 855 };
      const pending = adjustment({ ...adj, status: "pending_approval" });
      await deliver(envelope("adjustment.created", pending));
      expect((await licenseOf(txn.subscription_id!))!.status).toBe("refund_requested");
      const approvedAt = new Date();
      await deliver(envelope("adjustment.updated", { ...pending, status: "approved" }, approvedAt));
      const row = (await licenseOf(txn.subscription_id!))!;
      expect(row).toMatchObject({ status: "refunded", refunded: true, refund_amount: 855, auto_renew: false });
      expect(row.refunded_at!.toISOString()).toBe(approvedAt.toISOString());
      expect(row.id).toBe(license.id);
    });

    it("a refund approved without the site's request (Paddle's dashboard) also stops the subscription's renewal", async () => {
      const cancelled: string[] = [];
      setPaymentProvider(
        stubPaymentProvider({ cancelAtPeriodEnd: async (id) => void cancelled.push(id) }, { webhookSecret: SECRET }),
      );
      try {
        const { txn } = await purchase();
        const approved = adjustment({
          transactionId: txn.id,
          subscriptionId: txn.subscription_id,
          amountCents: 900,
          status: "approved",
        });
        expect((await deliver(envelope("adjustment.updated", approved))).status).toBe(200);
        await drainJobs();
        expect(cancelled).toEqual([txn.subscription_id]);
        expect((await licenseOf(txn.subscription_id!))!).toMatchObject({ status: "refunded", auto_renew: false });
        // Redelivered: nothing again.
        await deliver(envelope("adjustment.updated", approved));
        expect(await drainJobs()).toBe(0);
        expect(cancelled).toHaveLength(1);
      } finally {
        setPaymentProvider(undefined);
      }
    });

    it("rejected → the license is active again; a late pending event does not undo a newer outcome", async () => {
      const { txn } = await purchase();
      const pending = adjustment({
        transactionId: txn.id,
        subscriptionId: txn.subscription_id,
        amountCents: 855,
        status: "pending_approval",
      });
      const t0 = new Date();
      await deliver(envelope("adjustment.created", pending, t0));
      await deliver(envelope("adjustment.updated", { ...pending, status: "rejected" }, new Date(t0.getTime() + 1000)));
      expect((await licenseOf(txn.subscription_id!))!.status).toBe("active");
      // The same adjustment's creation, redelivered later with its original time, is older: ignored.
      await deliver(envelope("adjustment.created", pending, new Date(t0.getTime() - 1000)));
      expect((await licenseOf(txn.subscription_id!))!.status).toBe("active");
    });

    it("an approval delivered before the pending event leaves the license refunded", async () => {
      const { txn } = await purchase();
      const pending = adjustment({
        transactionId: txn.id,
        subscriptionId: txn.subscription_id,
        amountCents: 855,
        status: "pending_approval",
      });
      const t0 = new Date();
      await deliver(envelope("adjustment.updated", { ...pending, status: "approved" }, t0));
      await deliver(envelope("adjustment.created", pending, new Date(t0.getTime() - 5000)));
      expect((await licenseOf(txn.subscription_id!))!).toMatchObject({ status: "refunded", refund_amount: 855 });
    });
  });
});
