import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { summarizeLicense } from "~/domain/license-card";
import { licenseFacts } from "~/domain/license-status";
import { getOverview } from "~/server/admin/overview.server";
import { userTimeline } from "~/server/admin/user-timeline.server";
import { audit_log, outbound_events, payments } from "~/server/db/schema";
import { validateLicense } from "~/server/license-api/validate-license.server";
import { adjustment, envelope } from "../../support/paddle-fixtures";
import { customerMailApp } from "../../support/customer-mail-app";
import { testEngines } from "../../support/test-app";

/**
 * Chargebacks (decision 0056), replayed as Paddle sends them: `adjustment.created` with the dispute
 * actions Paddle creates by itself. A chargeback revokes the license in its own words everywhere; a
 * warning is only recorded; a reversal restores the license.
 */
describe.each(testEngines())("chargebacks on %s", (engine) => {
  const { startApp, stopApp, newCustomer, state, db, deliver, reload, sent, purchase, expectWellFormed } =
    customerMailApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newCustomer);

  const dispute = (
    txn: { id: string; subscription_id: string | null },
    action: "chargeback" | "chargeback_warning" | "chargeback_reverse",
  ) =>
    adjustment({
      action,
      transactionId: txn.id,
      subscriptionId: txn.subscription_id,
      amountCents: 900,
      status: "approved",
    });
  const audits = async (licenseId: string) =>
    (await db().select().from(audit_log).where(eq(audit_log.target_id, licenseId))).map((a) => a.action);
  const events = async (licenseId: string) =>
    (await db().select().from(outbound_events)).filter(
      (e) => (e.data as { license?: { id?: string } }).license?.id === licenseId,
    );

  it("a chargeback revokes the license: card, desktop API, e-mail, vendor event, audit and timeline say why", async () => {
    const { txn, license } = await purchase();
    await sent();
    const chargeback = dispute(txn, "chargeback");
    await deliver(envelope("adjustment.created", chargeback));
    const row = await reload(license.id);
    expect(row.status).toBe("revoked");
    expect(row.charged_back_at).not.toBeNull();

    const card = summarizeLicense(licenseFacts(row), new Date());
    expect(card.badge.label).toBe("Charged back");
    expect(card.line).toMatch(/^Revoked on .+: a payment for it was disputed with the bank \(a chargeback\)\.$/);

    const api = await validateLicense({ key: license.license_key });
    expect(api).toMatchObject({ valid: false, code: "REVOKED" });
    expect(api.license).toMatchObject({ revoked_reason: "chargeback" });
    expect(api.license).not.toHaveProperty("license_key");

    const [paid] = await db().select().from(payments).where(eq(payments.id, txn.id));
    expect(paid).toMatchObject({
      dispute_status: "charged_back",
      dispute_adjustment_id: chargeback.id,
      dispute_cents: 900,
    });

    const mails = await sent();
    expect(mails).toHaveLength(1);
    expectWellFormed(mails[0], license, "/licenses");
    expect(mails[0]!.text).toContain("disputed with your bank");

    const revoked = (await events(license.id)).filter((e) => e.type === "license.revoked");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.data).toMatchObject({ reason: "chargeback", license: { status: "revoked" } });

    expect(await audits(license.id)).toEqual(["license.charged_back"]);
    const timeline = await userTimeline(state.user.id, 1);
    expect(timeline.entries.find((e) => e.title === "Revoked a license for a chargeback")?.detail).toContain(
      "The license was revoked: the payment was charged back.",
    );

    const overview = await getOverview();
    expect(overview.disputes.chargedBack).toBeGreaterThanOrEqual(1);

    // Redelivered: nothing new (no second e-mail, event or audit entry).
    await deliver(envelope("adjustment.created", chargeback));
    expect(await sent()).toHaveLength(0);
    expect(await audits(license.id)).toEqual(["license.charged_back"]);
  });

  it("a warning is recorded and the license stays valid; a reversal after a chargeback restores it", async () => {
    const { txn, license } = await purchase();
    const t0 = Date.now();
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback_warning"), new Date(t0)));
    let row = await reload(license.id);
    expect(row).toMatchObject({ status: "active", charged_back_at: null });
    expect((await validateLicense({ key: license.license_key })).code).toBe("VALID");
    expect(await audits(license.id)).toEqual(["license.chargeback_warning"]);
    const before = await getOverview();
    expect(before.disputes.warnings).toBeGreaterThanOrEqual(1);

    await deliver(envelope("adjustment.created", dispute(txn, "chargeback"), new Date(t0 + 1000)));
    expect((await reload(license.id)).status).toBe("revoked");
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback_reverse"), new Date(t0 + 2000)));
    row = await reload(license.id);
    expect(row).toMatchObject({ status: "active", charged_back_at: null });
    expect((await validateLicense({ key: license.license_key })).code).toBe("VALID");
    expect(await audits(license.id)).toEqual([
      "license.chargeback_warning",
      "license.charged_back",
      "license.chargeback_reversed",
    ]);
    expect((await events(license.id)).map((e) => e.type)).toContain("license.reinstated");
  });

  it("a chargeback delivered after its reversal (out of order) leaves the license working", async () => {
    const { txn, license } = await purchase();
    const t0 = Date.now();
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback_reverse"), new Date(t0 + 1000)));
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback"), new Date(t0)));
    expect(await reload(license.id)).toMatchObject({ status: "active", charged_back_at: null });
    const [paid] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.id, txn.id), eq(payments.license_id, license.id)));
    expect(paid!.dispute_status).toBe("reversed");
  });

  it("a license an admin revoked stays the admin's: a chargeback only records itself, a reversal does not restore it", async () => {
    const { txn, license } = await purchase();
    const { revokeLicense } = await import("~/server/admin/manage-licenses.server");
    await revokeLicense({ admin: { id: null, email: "admin@example.com" }, licenseId: license.id, reason: "fraud" });
    const t0 = Date.now();
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback"), new Date(t0)));
    await deliver(envelope("adjustment.created", dispute(txn, "chargeback_reverse"), new Date(t0 + 1000)));
    const row = await reload(license.id);
    expect(row).toMatchObject({ status: "revoked", charged_back_at: null });
    expect(summarizeLicense(licenseFacts(row), new Date()).badge.label).toBe("Revoked");
  });
});
