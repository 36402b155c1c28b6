import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, demo_billing, job_keys, licenses } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { adminApp } from "../../support/admin-app";
import { createUser, testEngines } from "../../support/test-app";

const [ADMIN] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

describe.each(testEngines())("administration on %s", (engine) => {
  const { startApp, stopApp, db, postUser, userLicenses } = adminApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  describe("revoke", () => {
    it("needs a reason, kept in the audit entry; a second revoke is refused", async () => {
      const target = await createUser(db(), `revoke-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "monthly",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      for (const reason of [undefined, "   "]) {
        const refused = await postUser(target.id, {
          intent: "revoke",
          licenseId: license!.id,
          ...(reason ? { reason } : {}),
        });
        expect(refused.status).toBe(400);
        expect(refused.data.fieldErrors.reason).toEqual(["Enter the reason for revoking this license."]);
      }
      expect((await userLicenses(target.id))[0]!.status).toBe("active");
      const result = await postUser(target.id, { intent: "revoke", licenseId: license!.id, reason: " Chargeback " });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("License revoked");
      expect((await userLicenses(target.id))[0]!.status).toBe("revoked");
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entry).toMatchObject({ actor_email: ADMIN.email, action: "license.revoke", target_type: "license" });
      expect(entry!.details).toMatchObject({
        reason: "Chargeback",
        short_id: license!.short_id,
        user_id: target.id,
        license_state: "Active",
        desktop_code: "VALID",
      });
      const again = await postUser(target.id, { intent: "revoke", licenseId: license!.id, reason: "again" });
      expect(again.status).toBe(409);
      const unknown = { intent: "revoke", licenseId: "00000000-0000-4000-8000-000000000000", reason: "x" };
      expect((await postUser(target.id, unknown)).status).toBe(404);
    });

    it("refuses a license of another user than the page's", async () => {
      const owner = await createUser(db(), `revoke-owner-${engine}@example.com`);
      const other = await createUser(db(), `revoke-other-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: owner.id,
          email: owner.email,
          license_key: "k",
          license_type: "tester",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      expect((await postUser(other.id, { intent: "revoke", licenseId: license!.id, reason: "x" })).status).toBe(404);
      expect((await userLicenses(owner.id))[0]!.status).toBe("active");
    });
  });

  it("revoking a renewing license also stops its subscription's renewal", async () => {
    const [renewing] = await db()
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, "sub_demo_seed_renewing"));
    expect(renewing!.auto_renew).toBe(true);
    // E-mails queued by earlier tests go first: the count below is this revoke's.
    await drainJobs();
    expect(
      (await postUser(renewing!.user_id, { intent: "revoke", licenseId: renewing!.id, reason: "fraud" })).status,
    ).toBe(200);
    // The stop-renewal and the customer's "license revoked" e-mail.
    expect(await drainJobs()).toBe(2);
    const [after] = await db().select().from(licenses).where(eq(licenses.id, renewing!.id));
    expect(after).toMatchObject({ status: "revoked", auto_renew: false, cancellation_requested: true });
    const [sub] = await db().select().from(demo_billing).where(eq(demo_billing.id, "sub_demo_seed_renewing"));
    expect((sub!.data as { scheduled_change: { action: string } | null }).scheduled_change?.action).toBe("cancel");
  });

  describe("reset offline data", () => {
    it("clears the Windows user and computer names, regenerates the key, and is audited", async () => {
      const target = await createUser(db(), `offline-${engine}@example.com`);
      const start = new Date();
      const end = new Date(Date.now() + 30 * DAY);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "bound-key",
          license_type: "monthly",
          start_date: start,
          end_date: end,
          windows_username: "ACME\\ann",
          computer_name: "WRONG-PC",
        })
        .returning();
      const result = await postUser(target.id, { intent: "reset-offline", licenseId: license!.id });
      expect(result.status).toBe(200);
      expect(result.data.toast.title).toBe("Offline data reset");
      const [after] = await userLicenses(target.id);
      expect(after).toMatchObject({ windows_username: null, computer_name: null, status: "active" });
      expect(after!.license_key).not.toBe("bound-key");
      expect(licenseKeys().decode(after!.license_key)).toMatchObject({
        email: target.email,
        end_date: end.toISOString(),
      });
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entry).toMatchObject({ action: "license.offline_reset", actor_email: ADMIN.email });
      expect(entry!.details).toMatchObject({
        computer_name: "WRONG-PC",
        windows_username: "ACME\\ann",
        user_id: target.id,
      });
      // Nothing left to reset.
      const again = await postUser(target.id, { intent: "reset-offline", licenseId: license!.id });
      expect(again.status).toBe(409);
      expect(again.data.toast.description).toBe("This license has no offline data to reset.");
    });

    it("refuses a revoked license and another user's license", async () => {
      const target = await createUser(db(), `offline-revoked-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "monthly",
          status: "revoked",
          end_date: new Date(Date.now() + DAY),
          computer_name: "PC",
        })
        .returning();
      expect((await postUser(target.id, { intent: "reset-offline", licenseId: license!.id })).status).toBe(409);
      const other = await createUser(db(), `offline-other-${engine}@example.com`);
      expect((await postUser(other.id, { intent: "reset-offline", licenseId: license!.id })).status).toBe(404);
      expect((await userLicenses(target.id))[0]!.computer_name).toBe("PC");
    });
  });

  describe("resend the license e-mail", () => {
    it("queues the license-delivered e-mail again, each time, and records it", async () => {
      const target = await createUser(db(), `resend-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: `keys-${engine}@example.com`,
          license_key: "k",
          license_type: "yearly",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const queued = async () =>
        (await db().select().from(job_keys)).filter((k) =>
          k.key.startsWith(`customer-mail:license-delivered:${license!.id}:admin-resend:`),
        ).length;
      for (const times of [1, 2]) {
        const result = await postUser(target.id, { intent: "resend-license", licenseId: license!.id });
        expect(result.status).toBe(200);
        expect(result.data.toast).toMatchObject({
          title: "License e-mail queued",
          description: `The license e-mail to keys-${engine}@example.com is on its way.`,
        });
        expect(await queued()).toBe(times);
      }
      const entries = await db().select().from(audit_log).where(eq(audit_log.target_id, license!.id));
      expect(entries.map((e) => e.action)).toEqual(["license.resend", "license.resend"]);
      expect(entries[0]!.details).toMatchObject({ user_id: target.id, short_id: license!.short_id });
    });

    it("refuses a revoked license and another user's, queueing nothing", async () => {
      const target = await createUser(db(), `resend-revoked-${engine}@example.com`);
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: target.id,
          email: target.email,
          license_key: "k",
          license_type: "yearly",
          status: "revoked",
          end_date: new Date(Date.now() + DAY),
        })
        .returning();
      const revoked = await postUser(target.id, { intent: "resend-license", licenseId: license!.id });
      expect(revoked.status).toBe(409);
      expect(revoked.data.toast.description).toBe("Only an active license's e-mail can be resent.");
      const other = await createUser(db(), `resend-other-${engine}@example.com`);
      expect((await postUser(other.id, { intent: "resend-license", licenseId: license!.id })).status).toBe(404);
      const keys = (await db().select().from(job_keys)).filter((k) => k.key.includes(license!.id));
      expect(keys).toEqual([]);
    });
  });
});
