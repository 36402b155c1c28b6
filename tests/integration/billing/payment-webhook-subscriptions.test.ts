import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { licenses } from "~/server/db/schema";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { adjustment, days, envelope, subscription } from "../../support/paddle-fixtures";
import { stubPaymentProvider } from "../../support/stub-provider";
import { testEngines } from "../../support/test-app";
import { SECRET, paymentWebhookApp } from "../../support/payment-webhook-app";

describe.each(testEngines())("payment webhooks: subscription events and refunds on %s", (engine) => {
  const { startApp, stopApp, newBuyer, user, deliver, licenseOf, count, purchase, renewalOf } =
    paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

  describe("subscription events", () => {
    it("a late subscription.trialing after the first payment is undone by the active state", async () => {
      const { txn, license } = await purchase({ trial: true });
      const paid = renewalOf(txn, license.end_date);
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
