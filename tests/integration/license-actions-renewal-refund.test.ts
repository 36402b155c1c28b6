import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as extendRoute from "~/routes/extend-license";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { audit_log, demo_billing, payments } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { call, formRequest, routeArgs } from "../support/route-call";
import { testEngines } from "../support/test-app";

const [, USER] = DEMO_ACCOUNTS;
import { licenseActionsSuite } from "../support/license-actions-suite";

describe.each(testEngines())("license self-service actions on %s", (engine) => {
  const { state, db, seeded, reload, post, renewing, tester, failingProvider } = licenseActionsSuite(engine);

  describe("auto-renewal", () => {
    it("cancel → the provider schedules it → Subscription Cancelled; re-enable → Auto-Renewal Enabled", async () => {
      const license = await renewing();
      const cancelled = await post({ intent: "cancel-renewal", licenseId: license.id });
      expect(cancelled.status).toBe(200);
      expect(cancelled.data.toast).toMatchObject({
        title: "Subscription Cancelled",
        description: expect.stringContaining("will be cancelled at the end of the current billing period"),
      });
      expect(await reload(license.id)).toMatchObject({
        auto_renew: false,
        cancellation_requested: true,
        status: "active",
      });
      const [sub] = await db().select().from(demo_billing).where(eq(demo_billing.id, license.paddle_subscription_id!));
      expect((sub!.data as { scheduled_change: { action: string } }).scheduled_change.action).toBe("cancel");
      expect((await post({ intent: "cancel-renewal", licenseId: license.id })).status).toBe(409);

      const reenabled = await post({ intent: "reenable-renewal", licenseId: license.id });
      expect(reenabled.status).toBe(200);
      expect(reenabled.data.toast.title).toBe("Auto-Renewal Enabled");
      expect(await reload(license.id)).toMatchObject({
        auto_renew: true,
        cancellation_requested: false,
        cancellation_requested_at: null,
      });
      expect((await post({ intent: "reenable-renewal", licenseId: license.id })).status).toBe(409);
    });

    it("a license without a subscription id: No subscription ID found for this license", async () => {
      const result = await post({ intent: "cancel-renewal", licenseId: (await tester()).id });
      expect(result.status).toBe(409);
      expect(result.data.toast.description).toBe("No subscription ID found for this license");
    });

    it("when the provider fails, the page's text with a 502, and the license is unchanged", async () => {
      setPaymentProvider(failingProvider());
      const license = await renewing();
      const cancel = await post({ intent: "cancel-renewal", licenseId: license.id });
      expect(cancel.status).toBe(502);
      expect(cancel.data.toast.description).toBe("Failed to cancel subscription");
      expect(await reload(license.id)).toMatchObject({ auto_renew: true, cancellation_requested: false });
      const cancelling = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
      const reenable = await post({ intent: "reenable-renewal", licenseId: cancelling.id });
      expect(reenable.status).toBe(502);
      expect(reenable.data.toast.description).toBe("Failed to re-enable renewal");
      expect((await reload(cancelling.id)).cancellation_requested).toBe(true);
    });

    it("another user's license answers 404 and changes nothing", async () => {
      const license = await renewing();
      expect((await post({ intent: "cancel-renewal", licenseId: license.id }, state.otherCookie)).status).toBe(404);
      expect((await post({ intent: "cancel-renewal", licenseId: "not-a-uuid" })).status).toBe(404);
      expect((await reload(license.id)).auto_renew).toBe(true);
    });
  });

  describe("refund", () => {
    it("Request Refund: the provider refunds 95% of the plan price, the license is refund_requested, renewal stops, the audit log has it", async () => {
      // E-mails queued by earlier tests (a cancellation's) go first: the count below is this test's.
      await drainJobs();
      const license = await renewing();
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(200);
      expect(result.data.toast).toMatchObject({
        title: "Refund Requested",
        description: expect.stringContaining("$8.55"),
      });
      expect(await drainJobs()).toBe(1);
      expect(await reload(license.id)).toMatchObject({
        status: "refund_requested",
        auto_renew: false,
        cancellation_requested: true,
      });
      const adjustments = await db()
        .select()
        .from(demo_billing)
        .where(
          and(eq(demo_billing.kind, "adjustment"), eq(demo_billing.subscription_id, license.paddle_subscription_id!)),
        );
      expect(adjustments.map((a) => (a.data as { totals: { total: string } }).totals.total)).toEqual(["855"]);
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license.id));
      expect(entry).toMatchObject({
        actor_id: state.userId,
        actor_email: USER.email,
        action: "refund.request",
        target_type: "license",
      });
      // The state the license was in, in the customer's words (issue 24): the audit CSV carries it.
      expect(entry!.details).toMatchObject({
        amount_cents: 855,
        license_state: "Active",
        license_status_line: expect.stringMatching(/^Active, renews on .+ for \$9\.00$/),
        desktop_code: "VALID",
      });
      expect((await post({ intent: "request-refund", licenseId: license.id })).status).toBe(409);
    });

    it("after an extension, the refund covers the plan's purchase and the extension, one adjustment each (issue 24)", async () => {
      const license = await renewing();
      await call(() =>
        extendRoute.action(
          routeArgs(
            formRequest("/extend-license", { licenseId: license.id, months: "1", years: "0" }, state.userCookie),
          ),
        ),
      );
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(200);
      expect(result.data.toast.description).toContain("$17.10");
      const paid = await db().select().from(payments).where(eq(payments.license_id, license.id));
      const refunded = (await db().select().from(demo_billing).where(eq(demo_billing.kind, "adjustment")))
        .map((a) => a.data as { transaction_id: string; totals: { total: string } })
        .filter((a) => paid.some((p) => p.id === a.transaction_id));
      expect(refunded.map((a) => a.transaction_id).sort()).toEqual(paid.map((p) => p.id).sort());
      expect(refunded.map((a) => a.totals.total)).toEqual(["855", "855"]);
    }, 15_000);

    it("refuses a license outside its refund window, a trial, a tester, and another user's license", async () => {
      for (const [license, why] of [
        [await seeded((l) => l.license_type === "yearly" && l.status === "active"), "The refund window ended on "],
        [await seeded((l) => l.is_trial), "A trial is free"],
        [await tester(), "Tester licenses are free"],
      ] as const) {
        const result = await post({ intent: "request-refund", licenseId: license.id });
        expect(result.status).toBe(409);
        // It says why (issue 24), not only that it cannot.
        expect(JSON.stringify(result.data)).toContain(why);
        expect((await reload(license.id)).status).toBe(license.status);
      }
      expect(
        (await post({ intent: "request-refund", licenseId: (await renewing()).id }, state.otherCookie)).status,
      ).toBe(404);
      expect((await reload((await renewing()).id)).status).toBe("active");
    });

    it("when the provider refuses: Failed to process refund, nothing recorded", async () => {
      setPaymentProvider(failingProvider());
      const license = await renewing();
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(502);
      // The customer sees the failure, in words (issue 24): "Failed to process refund: …".
      expect(result.data.toast.description).toMatch(/^Failed to process refund: the payment provider did not accept/);
      expect((await reload(license.id)).status).toBe("active");
      expect(await db().select().from(audit_log).where(eq(audit_log.target_id, license.id))).toHaveLength(0);
    });
  });
});
