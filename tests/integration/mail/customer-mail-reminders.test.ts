import { eq } from "drizzle-orm";
import { formatDate } from "~/domain/format-date";
import { RENEWAL_TEXTS } from "~/domain/license-texts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { licenses, payments, users } from "~/server/db/schema";
import { drainJobs, getJobQueue } from "~/server/jobs/jobs.server";
import { queueCustomerMail } from "~/server/mail/customer-mail.server";
import { setMailer, type MailMessage } from "~/server/mail/mailer.server";
import { scheduleReminderScans } from "~/server/mail/reminders.server";
import { days } from "../../support/paddle-fixtures";
import { testEngines } from "../../support/test-app";
import { customerMailApp } from "../../support/customer-mail-app";

describe.each(testEngines())("customer e-mails on %s", (engine) => {
  const { startApp, stopApp, newCustomer, state, db, remindersFor, about, sent, purchase, expectWellFormed } =
    customerMailApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newCustomer);

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
      expect(mails[0]!.text).toContain(`choose "Cancel trial" before ${formatDate(days(2))}`);
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
      // The e-mail names the licenses page's own button (RENEWAL_TEXTS.cancelButton), quoted.
      expect(mails[0]!.text).toContain(`choose "Cancel auto-renewal" before ${formatDate(license.end_date)}`);
      expect(mails[0]!.text).toContain(`"${RENEWAL_TEXTS.cancelButton}"`);
      expect(mails[0]!.text).not.toContain("Cancel Subscription");
      expect(about(state.app.mails, monthly.license)).toHaveLength(0);
    });

    it("renewal coming after a switch to a longer plan: the new plan's price, not the old plan's last charge", async () => {
      const { license } = await purchase({ planType: "6_months", amountCents: 4950, start: days(-178) });
      // Switched to yearly (decision 0061): the prorated difference was charged, the license is yearly now.
      const [paid] = await db().select().from(payments).where(eq(payments.license_id, license.id));
      await db()
        .insert(payments)
        .values({ ...paid!, id: `${paid!.id}_switch`, kind: "plan_change", amount_cents: 2120, billed_at: days(-30) });
      await db().update(licenses).set({ license_type: "yearly" }).where(eq(licenses.id, license.id));
      await sent();
      expect(await remindersFor(license, new Date())).toEqual(["renewal-coming"]);
      const mails = about(await sent(), license);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain("Amount: $90.00");
      expect(mails[0]!.text).not.toContain("$49.50");
      expect(mails[0]!.text).not.toContain("$21.20");
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
      await db().update(users).set({ reminder_emails: false }).where(eq(users.id, state.user.id));
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      expect(await remindersFor(license, new Date())).toEqual([]);
      const mails = about(await sent(), license);
      expect(mails.map((m) => m.subject)).toEqual([`Your ForgeKit license ${license.short_id}`]);
    });

    it("turning reminders off after one was queued stops it at sending time", async () => {
      const { license } = await purchase({ planType: "yearly", amountCents: 9000, start: days(-360) });
      await sent();
      expect(await remindersFor(license, new Date())).toEqual(["renewal-coming"]);
      await db().update(users).set({ reminder_emails: false }).where(eq(users.id, state.user.id));
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
        setMailer({ send: async (message) => void state.app.mails.push(message) });
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
