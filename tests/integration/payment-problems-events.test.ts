import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatDate } from "~/domain/format-date";
import { PAST_DUE_GRACE_DAYS } from "~/domain/past-due";
import { webhook_events } from "~/server/db/schema";
import { describeLicense } from "~/server/license-api/validate-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { envelope, transaction } from "../support/paddle-fixtures";
import { drainJobs } from "~/server/jobs/jobs.server";
import { testEngines } from "../support/test-app";

const DAY = 86_400_000;
import { paymentProblemsSuite } from "../support/payment-problems-suite";

describe.each(testEngines())("payment problems on %s", (engine) => {
  const { state, db, licenseOf, deliver, boughtMonthAgo } = paymentProblemsSuite(engine);

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
});
