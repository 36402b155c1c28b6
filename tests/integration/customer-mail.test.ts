import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatDate } from "~/domain/format-date";
import { summarizeLicense } from "~/domain/license-card";
import { licenseFacts } from "~/domain/license-status";
import { addTesterLicense, revokeLicense } from "~/server/admin/manage-licenses.server";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { PaymentProvider } from "~/server/billing/payment-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, users, type License } from "~/server/db/schema";
import { drainJobs, getJobQueue } from "~/server/jobs/jobs.server";
import { cancelRenewal } from "~/server/licenses/renewal.server";
import { queueCustomerMail } from "~/server/mail/customer-mail.server";
import { setMailer, type MailMessage } from "~/server/mail/mailer.server";
import { scanReminders, scheduleReminderScans } from "~/server/mail/reminders.server";
import { adjustment, days, envelope, signed, subscription, transaction } from "../support/paddle-fixtures";
import { createUser, startTestApp, testEngines, type TestApp } from "../support/test-app";

const SECRET = "whsec_customer_mail_0123456789";
const SITE = "https://forgekit.test";

describe.each(testEngines())("customer e-mails on %s", (engine) => {
  let app: TestApp;
  let user: { id: string; email: string };
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET, PUBLIC_URL: SITE });
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    setPaymentProvider(quietProvider);
    await drainJobs();
    app.mails.length = 0;
    user = await createUser(app.database.db, `mail-${engine}-${++n}@example.com`, { fullName: "Ada Buyer" });
  });

  const db = () => app.database.db;
  const deliver = async (event: unknown) => {
    const result = await receiveWebhook({ ...signed(SECRET, event), secret: SECRET });
    expect(result.status).toBe(200);
  };
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  /** The reminders a scan at `now` queued for this license (other tests' licenses are scanned too). */
  const remindersFor = async (license: License, now: Date) =>
    (await scanReminders(now)).filter((r) => r.licenseId === license.id).map((r) => r.kind);
  /** The e-mails sent about this license since the last call to sent(). */
  const about = (mails: MailMessage[], license: License) => mails.filter((m) => m.subject.includes(license.short_id));
  /** Runs the queue and returns the e-mails it sent since the last call. */
  const sent = async () => {
    await drainJobs();
    return app.mails.splice(0);
  };

  async function purchase(
    options: { planType?: "monthly" | "6_months" | "yearly"; amountCents?: number; start?: Date; trial?: boolean } = {},
  ) {
    const start = options.start ?? new Date();
    const trial = options.trial ?? false;
    const planType = options.planType ?? "monthly";
    const length = { monthly: 30, "6_months": 182, yearly: 365 }[planType];
    const txn = transaction({
      userId: user.id,
      planType,
      priceId: trial ? "pri_demo_monthly_trial" : undefined,
      amountCents: trial ? 0 : (options.amountCents ?? 900),
      start,
      end: trial ? days(7, start) : days(length, start),
      trial,
    });
    if (trial) {
      await db().insert(checkouts).values({
        user_id: user.id,
        kind: "plan",
        plan_type: planType,
        amount_cents: 0,
        status: "open",
        transaction_id: txn.id,
        trial: true,
        price_id: "pri_demo_monthly_trial",
      });
    }
    const event = envelope("transaction.completed", txn);
    await deliver(event);
    return { txn, event, license: await licenseOf(txn.subscription_id!) };
  }

  /** What every customer e-mail has: product, short id, the page's absolute link, both parts, no secret. */
  function expectWellFormed(mail: MailMessage | undefined, license: License, path: string) {
    expect(mail).toBeDefined();
    const { subject, html, text, to } = mail!;
    expect(to).toBe(user.email);
    expect(subject).toContain("ForgeKit");
    expect(subject).toContain(license.short_id);
    for (const part of [html, text]) {
      expect(part).toContain("ForgeKit");
      expect(part).toContain(license.short_id);
      expect(part).not.toMatch(/password|token=|secret/i);
      for (const secret of [SECRET, app.env.BETTER_AUTH_SECRET, app.env.LICENSE_SECRET].filter(Boolean))
        expect(part).not.toContain(secret);
    }
    expect(html).toMatch(/^<!DOCTYPE html/i);
    expect(html).toContain(`href="${SITE}${path}"`);
    expect(text).toContain(`${SITE}${path}`);
    expect(text).not.toMatch(/<[a-z]+[\s>]/i);
  }

  describe("license delivered", () => {
    it("a purchase sends the plan, dates, the key, how to activate and the billing link, once", async () => {
      const start = new Date("2026-11-01T10:00:00.000Z");
      const { license, event, txn } = await purchase({ planType: "yearly", amountCents: 9000, start });
      const mails = await sent();
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expectWellFormed(mail, license, "/licenses");
      expect(mail.subject).toBe(`Your ForgeKit license ${license.short_id}`);
      expect(mail.text).toContain("Plan: Yearly");
      expect(mail.text).toContain("Starts: Nov 1, 2026");
      expect(mail.text).toContain("Renews: Nov 1, 2027");
      expect(mail.text).toContain("Paid: $90.00");
      expect(mail.text).toContain(license.license_key);
      expect(mail.html).toContain(license.license_key);
      expect(license.license_key).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
      expect(mail.text).toContain(`${SITE}/download`);
      expect(mail.text).toContain(`${SITE}/billing`);
      expect(mail.text).toContain("Hello Ada Buyer,");

      // The same event again, and the same transaction under a new event id: nothing more is sent.
      await deliver(event);
      await deliver(envelope("transaction.completed", txn));
      expect(await sent()).toHaveLength(0);
    });

    it("a trial purchase says when the trial ends", async () => {
      const start = new Date("2026-11-20T08:00:00.000Z");
      const { license } = await purchase({ trial: true, start });
      const [mail] = await sent();
      expectWellFormed(mail, license, "/licenses");
      expect(mail!.text).toContain("Plan: Monthly (7-day free trial)");
      expect(mail!.text).toContain("Trial ends: Nov 27, 2026");
      expect(mail!.text).not.toContain("Paid:");
    });

    it("says, as the license card does, when it renews and for how much, and a trial's first charge", async () => {
      const start = new Date();
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start });
      const [mail] = await sent();
      expect(mail!.text).toContain(`Renews: ${formatDate(license.end_date)} for $90.00`);
      const { license: trial } = await purchase({ trial: true, start });
      const [trialMail] = await sent();
      expect(trialMail!.text).toContain(`Trial ends: ${formatDate(trial.trial_ends_at!)}`);
      expect(trialMail!.text).toContain(
        `First charge: $9.00 on ${formatDate(trial.trial_ends_at!)}, unless you cancel before`,
      );
    });

    it("a tester license from an admin sends its key, without a billing link", async () => {
      const admin = await createUser(db(), `admin-${engine}-${n}@example.com`, { role: "admin" });
      const { id } = await addTesterLicense({ admin, userId: user.id, days: 30 });
      const license = await reload(id);
      const [mail, ...rest] = await sent();
      expect(rest).toHaveLength(0);
      expectWellFormed(mail, license, "/licenses");
      expect(mail!.text).toContain("tester license");
      expect(mail!.text).toContain("Plan: Tester");
      expect(mail!.text).toContain(license.license_key);
      expect(mail!.text).not.toContain("/billing");
    });
  });

  describe("renewed and extended", () => {
    it("a renewal sends the new end date and the new key, once however often it is delivered", async () => {
      const { license, txn } = await purchase();
      await sent();
      const renewal = transaction({
        userId: user.id,
        subscriptionId: txn.subscription_id,
        amountCents: 900,
        start: license.end_date,
        end: days(30, license.end_date),
        origin: "subscription_recurring",
      });
      const event = envelope("transaction.completed", renewal);
      await deliver(event);
      await deliver(event);
      await deliver(envelope("transaction.completed", renewal));
      const renewed = await reload(license.id);
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], renewed, "/licenses");
      expect(mails[0]!.subject).toBe(`Your ForgeKit license ${license.short_id} was renewed`);
      expect(mails[0]!.text).toContain(renewed.license_key);
      expect(renewed.license_key).not.toBe(license.license_key);
      expect(mails[0]!.text).toMatch(/Valid until: [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      // Its status as the license card words it (the one license state).
      expect(mails[0]!.text).toContain(`Status: ${summarizeLicense(licenseFacts(renewed), new Date()).line}`);
      expect(mails[0]!.text).toContain(`${SITE}/billing`);
    });

    it("an extension sends the months added and the new key", async () => {
      const { license } = await purchase();
      await sent();
      const ext = transaction({
        userId: user.id,
        subscriptionId: null,
        amountCents: 900 * 2,
        start: new Date(),
        end: null,
        origin: "api",
        customData: { kind: "extension", user_id: user.id, license_id: license.id, months: 2, years: 0 },
      });
      await db().insert(checkouts).values({
        user_id: user.id,
        kind: "extension",
        plan_type: null,
        license_id: license.id,
        months: 2,
        amount_cents: 1800,
        status: "open",
        transaction_id: ext.id,
      });
      await deliver(envelope("transaction.completed", ext));
      const extended = await reload(license.id);
      const [mail, ...rest] = await sent();
      expect(rest).toHaveLength(0);
      expectWellFormed(mail, extended, "/licenses");
      expect(mail!.subject).toContain("was extended");
      expect(mail!.text).toContain("Added: 2 months");
      expect(mail!.text).toContain(extended.license_key);
    });
  });

  describe("refund processed", () => {
    it("an approved refund sends the amount and links to the billing history, once", async () => {
      const { license, txn } = await purchase();
      await sent();
      const approved = envelope(
        "adjustment.updated",
        adjustment({
          transactionId: txn.id,
          subscriptionId: txn.subscription_id,
          amountCents: 855,
          status: "approved",
        }),
      );
      await deliver(approved);
      await deliver(approved);
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/billing");
      expect(mails[0]!.text).toContain("refund of $8.55");
      // The refund's own stop-renewal is not a customer's cancellation: no "cancelled" e-mail.
      expect(mails.map((m) => m.subject).join()).not.toContain("cancelled");
    });
  });

  describe("subscription cancelled", () => {
    it("a cancellation scheduled at the provider says when the license ends", async () => {
      const { license, txn } = await purchase();
      await sent();
      const cancelled = envelope(
        "subscription.updated",
        subscription({
          subscriptionId: txn.subscription_id!,
          userId: user.id,
          start: license.start_date,
          end: license.end_date,
          scheduledCancel: true,
        }),
      );
      await deliver(cancelled);
      await deliver(cancelled);
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.subject).toContain("subscription was cancelled");
      const endsOn = license.end_date.toUTCString().slice(8, 11);
      expect(mails[0]!.text).toContain(`until it ends on ${endsOn}`);
    });

    it("the customer's own cancel sends it once, and the provider's echo sends nothing more", async () => {
      const { license, txn } = await purchase();
      await sent();
      await cancelRenewal({ userId: user.id, licenseId: license.id });
      await deliver(
        envelope(
          "subscription.updated",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: user.id,
            start: license.start_date,
            end: license.end_date,
            scheduledCancel: true,
          }),
          new Date(Date.now() + 1000),
        ),
      );
      const mails = await sent();
      expect(mails.map((m) => m.subject)).toEqual([`Your ForgeKit subscription was cancelled (${license.short_id})`]);
    });
  });

  describe("license revoked", () => {
    it("an admin's revoke sends a notice with the support address", async () => {
      const { license } = await purchase();
      await sent();
      const admin = await createUser(db(), `revoker-${engine}-${n}@example.com`, { role: "admin" });
      await revokeLicense({ admin, licenseId: license.id });
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.subject).toBe(`Your ForgeKit license ${license.short_id} was revoked`);
      expect(mails[0]!.text).toContain(app.env.SUPPORT_EMAIL);
      expect(mails[0]!.text).not.toContain(license.license_key);
    });
  });

  describe("payment failed (queued by whoever sees the failure)", () => {
    it("links to the payment method update and says what happens next, once per transaction", async () => {
      const { license } = await purchase();
      await sent();
      const queue = () =>
        db().transaction((tx) =>
          queueCustomerMail(tx, {
            kind: "payment-failed",
            licenseId: license.id,
            key: "txn_failed_1",
            details: { amountCents: 900, currency: "USD", graceUntil: "2026-12-10T00:00:00.000Z" },
          }),
        );
      expect(await queue()).not.toBeNull();
      expect(await queue()).toBeNull();
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.text).toContain("Update payment method");
      expect(mails[0]!.text).toContain("payment of $9.00");
      expect(mails[0]!.text).toContain("keeps working until Dec 10, 2026");
    });

    it("an unknown kind is refused before anything is queued", async () => {
      const { license } = await purchase();
      await expect(
        db().transaction((tx) => queueCustomerMail(tx, { kind: "spam" as "renewed", licenseId: license.id, key: "x" })),
      ).rejects.toThrow(/Unknown customer e-mail kind/);
    });
  });

  describe("reminders", () => {
    it("trial ends soon: 3 days before, with the price to be charged and how to cancel, once", async () => {
      const start = new Date();
      const { license } = await purchase({ trial: true, start });
      await sent();
      const trialEnd = license.trial_ends_at!;
      expect(await remindersFor(license, days(-4, trialEnd))).toEqual([]);
      expect(await remindersFor(license, days(-2.5, trialEnd))).toEqual(["trial-ends-soon"]);
      expect(await remindersFor(license, days(-2, trialEnd))).toEqual([]);
      // The send job checks the reminder is still due at the real now: the trial ends in 7 days.
      await db()
        .update(licenses)
        .set({ trial_ends_at: days(2), end_date: days(2) })
        .where(eq(licenses.id, license.id));
      expect(await remindersFor(license, new Date())).toEqual(["trial-ends-soon"]);
      const mails = about(await sent(), license);
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.subject).toContain("trial ends soon");
      expect(mails[0]!.text).toContain("you will be charged $9.00");
      expect(mails[0]!.text).toContain("Cancel Subscription");
    });

    it("renewal coming: 7 days before a yearly plan renews, with the amount; none for monthly plans", async () => {
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      expect(license.end_date.getTime()).toBeLessThan(days(7).getTime());
      const monthly = await purchase({ planType: "monthly", start: days(-26) });
      await sent();
      expect(await remindersFor(license, new Date())).toEqual(["renewal-coming"]);
      expect(await remindersFor(monthly.license, new Date())).toEqual([]);
      expect(await remindersFor(license, new Date())).toEqual([]);
      const mails = about(await sent(), license);
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.subject).toContain("renews soon");
      expect(mails[0]!.text).toContain("Amount: $90.00");
      expect(mails[0]!.text).toContain("Cancel Subscription");
      expect(about(app.mails, monthly.license)).toHaveLength(0);
    });

    it("no reminder for a cancelled subscription", async () => {
      const { license } = await purchase({ planType: "6_months", amountCents: 4950, start: days(-179) });
      await db()
        .update(licenses)
        .set({ auto_renew: false, cancellation_requested: true })
        .where(eq(licenses.id, license.id));
      await sent();
      expect(await remindersFor(license, new Date())).toEqual([]);
    });

    it("a customer who turned reminders off gets none, but still gets transactional e-mails", async () => {
      await db().update(users).set({ reminder_emails: false }).where(eq(users.id, user.id));
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      expect(await remindersFor(license, new Date())).toEqual([]);
      const mails = about(await sent(), license);
      expect(mails.map((m) => m.subject)).toEqual([`Your ForgeKit license ${license.short_id}`]);
    });

    it("turning reminders off after one was queued stops it at sending time", async () => {
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      await sent();
      expect(await remindersFor(license, new Date())).toEqual(["renewal-coming"]);
      await db().update(users).set({ reminder_emails: false }).where(eq(users.id, user.id));
      expect(about(await sent(), license)).toHaveLength(0);
    });

    it("the hourly scan runs as a job and queues the next hour's run", async () => {
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      await sent();
      const now = new Date();
      await scheduleReminderScans(now);
      await scheduleReminderScans(now);
      const mails = about(await sent(), license);
      expect(mails.map((m) => m.subject)).toEqual([`Your ForgeKit subscription renews soon (${license.short_id})`]);
      const { rows } = await getJobQueue().executeSql(
        `SELECT singleton_key, state::text AS state, start_after FROM pgboss.job WHERE name = 'reminder-scan' ORDER BY start_after`,
      );
      const hour = new Date(now);
      hour.setUTCMinutes(0, 0, 0);
      const next = new Date(hour.getTime() + 3600_000);
      const keys = rows.map((r) => r.singleton_key);
      expect(keys).toContain(`reminder-scan:${hour.toISOString()}`);
      expect(rows.find((r) => r.singleton_key === `reminder-scan:${next.toISOString()}`)?.state).toBe("created");
      // One run per hour, whoever schedules it.
      expect(keys.filter((k) => k === `reminder-scan:${hour.toISOString()}`)).toHaveLength(1);
    });
  });

  describe("delivery", () => {
    it("a mail server failure is retried, and the e-mail goes once it recovers", async () => {
      let down = true;
      const received: MailMessage[] = [];
      setMailer({
        send: async (message) => {
          if (down) throw new Error("SMTP 421 try again later");
          received.push(message);
        },
      });
      try {
        const { license } = await purchase();
        await drainJobs();
        expect(received).toHaveLength(0);
        expect((await getJobQueue().status()).queued).toBeGreaterThan(0);
        down = false;
        await drainJobs({ skipDelays: true });
        expect(received.map((m) => m.subject)).toEqual([`Your ForgeKit license ${license.short_id}`]);
      } finally {
        setMailer({ send: async (message) => void app.mails.push(message) });
      }
    });

    it("nothing is sent when the change that queued it rolls back", async () => {
      const { license } = await purchase();
      await sent();
      await expect(
        db().transaction(async (tx) => {
          await queueCustomerMail(tx, { kind: "license-revoked", licenseId: license.id, key: "rolled-back" });
          throw new Error("the revoke failed");
        }),
      ).rejects.toThrow("the revoke failed");
      expect(await sent()).toHaveLength(0);
    });
  });
});

/** The provider as the site's actions see it: every call agrees. */
const quietProvider: PaymentProvider = {
  name: "demo",
  webhookSecret: SECRET,
  cancelAtPeriodEnd: async () => {},
  removeScheduledCancel: async () => {},
  refund: async () => ({ adjustmentId: "adj_test" }),
  createPlanCheckout: async () => ({ transactionId: "txn_test" }),
  createExtensionCharge: async () => ({ transactionId: "txn_test_ext" }),
  paymentMethodUpdate: async () => ({ transactionId: "txn_test_update" }),
  invoiceUrl: async () => null,
};
