import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenses } from "~/server/db/schema";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { days, envelope, subscription, transaction } from "../support/paddle-fixtures";
import { stubPaymentProvider } from "../support/stub-provider";
import { createUser, testEngines } from "../support/test-app";
import { SECRET, webhookSuite } from "../support/webhook-suite";

describe.each(testEngines())("payment webhooks: extensions and out-of-order events on %s", (engine) => {
  const { db, user, nextNumber, deliver, licenseOf, recordCheckout, auditActions, purchase } = webhookSuite(engine);

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
        user_id: (await createUser(db(), `x-${engine}-${nextNumber()}@example.com`)).id,
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
});
