import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signatureHeader } from "~/server/billing/webhook-signature.server";
import { licenses, payments, webhook_events } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { action as webhookAction } from "~/routes/api.webhooks.paddle";
import { days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { testContext } from "../../support/route-call";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { testEngines } from "../../support/test-app";
import { SECRET, paymentWebhookApp } from "../../support/payment-webhook-app";

describe.each(testEngines())("payment webhooks: purchases and signatures on %s", (engine) => {
  const { startApp, stopApp, newBuyer, db, user, deliver, licenseOf, count, purchase } = paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

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
});
