import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit_log, checkouts, licenses, payments } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { days, envelope, transaction } from "../../support/paddle-fixtures";
import { stubPaymentProvider } from "../../support/stub-provider";
import { createUser, testEngines } from "../../support/test-app";
import { SECRET, paymentWebhookApp } from "../../support/payment-webhook-app";

describe.each(testEngines())("payment webhooks: renewals, custom data and trials on %s", (engine) => {
  const {
    startApp,
    stopApp,
    newBuyer,
    db,
    user,
    nextNumber,
    deliver,
    licenseOf,
    recordCheckout,
    auditActions,
    purchase,
    renewalOf,
    recordExtensionCheckout,
    extensionOf,
  } = paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

  describe("renewals", () => {
    it("a renewal moves end_date to the new period's end and regenerates the key; an older period never moves it back", async () => {
      const { txn, license } = await purchase();
      const renewal = renewalOf(txn, license.end_date);
      expect((await deliver(envelope("transaction.completed", renewal))).status).toBe(200);
      const renewed = (await licenseOf(txn.subscription_id!))!;
      expect(renewed.end_date.toISOString()).toBe(days(30, license.end_date).toISOString());
      expect(renewed.license_key).not.toBe(license.license_key);
      expect(licenseKeys().decode(renewed.license_key).end_date).toBe(renewed.end_date.toISOString());
      // The purchase window is not reopened by a renewal.
      expect(renewed.refund_eligible_until!.toISOString()).toBe(license.refund_eligible_until!.toISOString());
      const stale = renewalOf(txn, license.start_date, license.end_date);
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
      const first = renewalOf(txn, paidAt);
      await deliver(envelope("transaction.completed", first));
      const converted = (await licenseOf(txn.subscription_id!))!;
      expect(converted.is_trial).toBe(false);
      expect(converted.purchase_date!.toISOString()).toBe(paidAt.toISOString());
      expect(converted.refund_eligible_until!.toISOString()).toBe(days(14, paidAt).toISOString());
      expect(converted.end_date.toISOString()).toBe(days(30, paidAt).toISOString());
    });

    it("the stored card follows the newest event: an older one processed later never replaces it", async () => {
      const { txn, license } = await purchase();
      const paidWith = (t: ReturnType<typeof renewalOf>, type: string, last4: string) => {
        t.payments[0]!.method_details = { type: "card", card: { type, last4 } } as never;
        return t;
      };
      const card = async () => {
        const row = (await licenseOf(txn.subscription_id!))!;
        return `${row.payment_card_brand} ${row.payment_card_last4}`;
      };
      const newer = paidWith(renewalOf(txn, license.end_date), "mastercard", "5555");
      const older = paidWith(renewalOf(txn, license.start_date, license.end_date), "visa", "1111");
      await deliver(envelope("transaction.completed", newer, days(-1)));
      expect(await card()).toBe("mastercard 5555");
      // The customer's earlier card, in an event from two days ago that arrives last.
      await deliver(envelope("transaction.payment_failed", older, days(-2)));
      expect(await card()).toBe("mastercard 5555");
      const latest = paidWith(renewalOf(txn, days(30, license.end_date)), "amex", "0005");
      await deliver(envelope("transaction.completed", latest));
      expect(await card()).toBe("amex 0005");
    });

    it("an extension payment adds its months to the end date, and later renewals keep them", async () => {
      const { txn, license } = await purchase();
      const ext = extensionOf(license.id, 900 * 2 + 9900, { months: 2, years: 1 });
      await recordExtensionCheckout(ext.id, license.id, { months: 14, amount_cents: 900 * 2 + 9900 });
      await deliver(envelope("transaction.completed", ext));
      const extended = (await licenseOf(txn.subscription_id!))!;
      expect(extended.extended_months).toBe(14);
      const expected = new Date(license.end_date);
      expected.setUTCMonth(expected.getUTCMonth() + 14);
      expect(extended.end_date.toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
      const renewal = renewalOf(txn, license.end_date);
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
        const renewal = renewalOf(txn, license.end_date);
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
      const other = await createUser(db(), `other-${engine}-${nextNumber()}@example.com`);
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
});
