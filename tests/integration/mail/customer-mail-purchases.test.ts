import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatDate } from "~/domain/format-date";
import { summarizeLicense } from "~/domain/license-card";
import { licenseFacts } from "~/domain/license-status";
import { addTesterLicense } from "~/server/admin/manage-licenses.server";
import { checkouts } from "~/server/db/schema";
import { adjustment, days, envelope, transaction } from "../../support/paddle-fixtures";
import { createUser, testEngines } from "../../support/test-app";
import { customerMailApp, SITE } from "../../support/customer-mail-app";

describe.each(testEngines())("customer e-mails on %s", (engine) => {
  const { startApp, stopApp, newCustomer, state, db, deliver, reload, sent, purchase, expectWellFormed } =
    customerMailApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newCustomer);

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
      // The trial's e-mail says how to cancel before the first charge, and that nothing was charged.
      expect(trialMail!.subject).toContain(trial.short_id);
      expect(trialMail!.text).toContain("Your free trial has started");
      expect(trialMail!.text).toContain("Charged today: Nothing");
      expect(trialMail!.text).toContain(`choose "Cancel trial" before ${formatDate(trial.trial_ends_at!)}`);
    });

    it("a tester license from an admin sends its key, without a billing link", async () => {
      const admin = await createUser(db(), `admin-${engine}-${state.n}@example.com`, { role: "admin" });
      const { id } = await addTesterLicense({ admin, userId: state.user.id, days: 30 });
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
        userId: state.user.id,
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
        userId: state.user.id,
        subscriptionId: null,
        amountCents: 900 * 2,
        start: new Date(),
        end: null,
        origin: "api",
        customData: { kind: "extension", user_id: state.user.id, license_id: license.id, months: 2, years: 0 },
      });
      await db().insert(checkouts).values({
        user_id: state.user.id,
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
});
