import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { cancelRenewal } from "~/server/licenses/renewal.server";
import { queueCustomerMail } from "~/server/mail/customer-mail.server";
import { envelope, subscription } from "../../support/paddle-fixtures";
import { createUser, testEngines } from "../../support/test-app";
import { customerMailApp } from "../../support/customer-mail-app";

describe.each(testEngines())("customer e-mails on %s", (engine) => {
  const { startApp, stopApp, newCustomer, state, db, deliver, sent, purchase, expectWellFormed } =
    customerMailApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newCustomer);

  describe("subscription cancelled", () => {
    it("a cancellation scheduled at the provider says when the license ends", async () => {
      const { license, txn } = await purchase();
      await sent();
      const cancelled = envelope(
        "subscription.updated",
        subscription({
          subscriptionId: txn.subscription_id!,
          userId: state.user.id,
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
      await cancelRenewal({ userId: state.user.id, licenseId: license.id });
      await deliver(
        envelope(
          "subscription.updated",
          subscription({
            subscriptionId: txn.subscription_id!,
            userId: state.user.id,
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
      const admin = await createUser(db(), `revoker-${engine}-${state.n}@example.com`, { role: "admin" });
      await revokeLicense({ admin, licenseId: license.id });
      const mails = await sent();
      expect(mails).toHaveLength(1);
      expectWellFormed(mails[0], license, "/licenses");
      expect(mails[0]!.subject).toBe(`Your ForgeKit license ${license.short_id} was revoked`);
      expect(mails[0]!.text).toContain(state.app.env.SUPPORT_EMAIL);
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
});
