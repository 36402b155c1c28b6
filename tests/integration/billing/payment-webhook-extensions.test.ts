import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { licenses } from "~/server/db/schema";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { days, envelope, subscription, transaction } from "../../support/paddle-fixtures";
import { stubPaymentProvider } from "../../support/stub-provider";
import { createUser, testEngines } from "../../support/test-app";
import { SECRET, paymentWebhookApp } from "../../support/payment-webhook-app";

describe.each(testEngines())("payment webhooks: extensions and out-of-order events on %s", (engine) => {
  const {
    startApp,
    stopApp,
    newBuyer,
    db,
    user,
    nextNumber,
    deliver,
    licenseOf,
    auditActions,
    purchase,
    renewalOf,
    recordExtensionCheckout,
    extensionOf,
  } = paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

  describe("extensions: only the server's own checkout, from the later of the end date and now", () => {
    it("an expired license extended by a month ends a month from the payment, in the future", async () => {
      const { txn, license } = await purchase({ start: days(-400) });
      expect(license.end_date.getTime()).toBeLessThan(Date.now());
      const ext = extensionOf(license.id, 900);
      await recordExtensionCheckout(ext.id, license.id);
      await deliver(envelope("transaction.completed", ext));
      const after = (await licenseOf(txn.subscription_id!))!;
      expect(after.end_date.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
      expect(after.end_date.getTime()).toBeLessThan(Date.now() + 32 * 86_400_000);
    });

    it("extending a trial makes it a paid license", async () => {
      const { txn, license } = await purchase({ trial: true });
      const ext = extensionOf(license.id, 900);
      await recordExtensionCheckout(ext.id, license.id);
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
      const eur = extensionOf(license.id, 900);
      eur.details.totals.currency_code = "EUR";
      eur.currency_code = "EUR";
      await recordExtensionCheckout(eur.id, license.id);
      const cheap = extensionOf(license.id, 100);
      await recordExtensionCheckout(cheap.id, license.id);
      const elsewhere = extensionOf(license.id, 900);
      await recordExtensionCheckout(elsewhere.id, other.license.id, {
        user_id: (await createUser(db(), `x-${engine}-${nextNumber()}@example.com`)).id,
      });
      const unrecorded = extensionOf(license.id, 900);
      for (const ext of [eur, cheap, elsewhere, unrecorded])
        expect((await deliver(envelope("transaction.completed", ext))).status).toBe(200);
      expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(license.end_date.toISOString());
      expect((await licenseOf(other.txn.subscription_id!))!.end_date.toISOString()).toBe(
        other.license.end_date.toISOString(),
      );
      expect((await auditActions()).filter((a) => a === "extension_refused").length).toBeGreaterThanOrEqual(4);
      const ok = extensionOf(license.id, 900);
      await recordExtensionCheckout(ok.id, license.id);
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
        const renewal = renewalOf(txn, license.end_date);
        await deliver(envelope("transaction.completed", renewal));
        expect((await licenseOf(txn.subscription_id!))!.end_date.toISOString()).toBe(license.end_date.toISOString());
        await drainJobs();
        expect(cancelled).toEqual([txn.subscription_id]);
      } finally {
        setPaymentProvider(undefined);
      }
    });
  });
});
