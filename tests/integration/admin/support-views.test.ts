import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOASTS } from "~/domain/admin";
import { JOB_TEXTS } from "~/domain/admin-jobs";
import { summarizeLicense } from "~/domain/license-card";
import { LICENSE_STATE_NAMES, type LicenseStateName } from "~/domain/license-state";
import { supportView } from "~/domain/license-support";
import * as jobsRoute from "~/routes/admin/jobs";
import { withMatchedLicenses } from "~/server/admin/search-license-states.server";
import { getUserDetails } from "~/server/admin/user-details.server";
import { PAYMENT_LINK_REFUSED } from "~/server/admin/send-payment-link.server";
import { searchUsers } from "~/server/admin/search-users.server";
import { licenses, user_events, users, webhook_events } from "~/server/db/schema";
import { drainJobs, getJobQueue, JOBS_SCHEMA } from "~/server/jobs/jobs.server";
import { validateLicense } from "~/server/license-api/validate-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { throughAdminGuard } from "../../support/admin-route";
import { call, getRequest } from "../../support/route-call";
import { startSupportApp, type SupportApp } from "../../support/support-app";
import { testEngines } from "../../support/test-app";

/** Every state a license can be in, its badge and the desktop API's code: one row each, all seeded. */
const STATE_TABLE: Record<LicenseStateName, { badge: string; code: string }> = {
  "charged-back": { badge: "Charged back", code: "REVOKED" },
  revoked: { badge: "Revoked", code: "REVOKED" },
  refunded: { badge: "Refunded", code: "REFUNDED" },
  "refund-requested": { badge: "Refund requested", code: "REFUND_REQUESTED" },
  "trial-expired": { badge: "Trial Expired", code: "TRIAL_EXPIRED" },
  "trial-converting": { badge: "Trial", code: "VALID" },
  "trial-active": { badge: "Trial", code: "VALID" },
  expired: { badge: "Expired", code: "EXPIRED" },
  "payment-failed": { badge: "Payment failed", code: "VALID" },
  renewing: { badge: "Active", code: "VALID" },
  "renewal-cancelled": { badge: "Active", code: "VALID" },
  "active-until": { badge: "Active", code: "VALID" },
};

/**
 * One state everywhere (decision 0030) and what support reads (decision 0038): every seeded license, for its
 * owner (the card), for the admin (the user page and a search by its short id) and for the desktop
 * tool; the payments table's statuses; the timeline; the jobs page.
 */
describe.each(testEngines())("support views on %s", (engine) => {
  let s: SupportApp;
  beforeAll(async () => {
    s = await startSupportApp(engine);
  });
  afterAll(async () => s?.app.close());
  const db = () => s.app.database.db;

  it("every seeded state: the customer's badge and line are the admin's and the search's; the code is the table's", async () => {
    const now = new Date();
    const owners = await db().selectDistinct({ id: licenses.user_id }).from(licenses);
    const seen = new Set<string>();
    for (const { id } of owners) {
      const admin = (await getUserDetails(id))!.licenses;
      for (const card of await listUserLicenses(id)) {
        const customer = summarizeLicense(card, now);
        const view = admin.find((l) => l.id === card.id)!;
        const support = supportView(view, now);
        const row = STATE_TABLE[support.state.state];
        expect({ badge: support.state.badge, line: support.state.line }).toEqual({
          badge: customer.badge,
          line: customer.line,
        });
        expect(customer.badge.label).toBe(row.badge);
        expect((await validateLicense({ key: view.license_key })).code).toBe(row.code);
        const found = await withMatchedLicenses(await searchUsers(view.short_id));
        const result = found.users.find((u) => u.id === id)!.license!;
        expect(supportView(result, now).state.line).toBe(customer.line);
        seen.add(support.state.state);
      }
    }
    expect([...seen].sort()).toEqual([...LICENSE_STATE_NAMES].sort());
  });

  it("the past-due customer: grace end, card, and the failed charge in the payments table", async () => {
    const { user } = await s.customer("pastDue");
    const page = await s.view(user.id);
    expect(page.status).toBe(200);
    const [license] = page.data.user.licenses;
    const { state, details } = supportView(license, new Date());
    expect(state.badge.label).toBe("Payment failed");
    const detail = Object.fromEntries(details.map((d) => [d.label, d.value]));
    expect(detail["Grace period ends"]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(detail["Payment method"]).toBe("Visa •••• 4242");
    expect(detail.Subscription).toBe("sub_demo_seed_support_past_due");
    expect(page.data.user.payments.map((p: { status: string }) => p.status).sort()).toEqual(["failed", "paid"]);
    const kinds = page.data.user.timeline.entries.map((e: { title: string }) => e.title);
    expect(kinds).toEqual(expect.arrayContaining(["Renewal payment failed", "Bought a license"]));
  });

  it("the past-due customer's failed payment is explained: decline reason and attempts (from its stored events), grace end, Update payment method", async () => {
    const { user } = await s.customer("pastDue");
    const explained = async () => {
      const [license] = (await getUserDetails(user.id))!.licenses;
      return { license: license!, lines: supportView(license!, new Date()).paymentProblem! };
    };
    const before = await explained();
    expect(before.license.decline_reason).toBeNull();
    expect(before.lines).toContain(
      "Decline reason: not available (the provider's failure event is not stored, or named none).",
    );
    expect(before.lines.join(" ")).toMatch(/retries the charge automatically until [A-Z][a-z]{2} \d{1,2}, \d{4};/);
    expect(before.lines.join(" ")).toContain(
      "it does not announce the dates of its retries. If no payment goes through by then, the license stops",
    );
    expect(before.lines.join(" ")).not.toContain("attempts so far");
    expect(before.lines.join(" ")).toContain(
      `"Update payment method" on the card of license ${before.license.short_id}`,
    );
    await db()
      .insert(webhook_events)
      .values({
        event_id: "evt_support_declined",
        event_type: "transaction.payment_failed",
        occurred_at: new Date(),
        payload: {
          event_type: "transaction.payment_failed",
          data: {
            id: "txn_support_declined",
            subscription_id: "sub_demo_seed_support_past_due",
            // Paddle lists a transaction's attempts newest first; the retry declined too.
            payments: [
              { status: "error", error_code: "insufficient_funds", created_at: "2026-11-20T09:00:00.000Z" },
              { status: "error", error_code: "insufficient_funds", created_at: "2026-11-17T09:00:00.000Z" },
            ],
          },
        },
      });
    const after = await explained();
    expect(after.license.decline_reason).toBe("insufficient funds");
    expect(after.license.failed_attempts).toBe(2);
    expect(after.lines).toContain("Decline reason from the provider: insufficient funds.");
    expect(after.lines).toContain("Declined attempts so far: 2, the last on Nov 20, 2026.");
  });

  it("support e-mails the past-due customer the update-payment link: the failed-payment e-mail again, audited; refused for a paid-up license or another customer's", async () => {
    const { user, license } = await s.customer("pastDue");
    const mailsTo = () => s.app.mails.filter((m) => m.to === user.email && m.subject.startsWith("Payment failed"));
    await drainJobs();
    const before = mailsTo().length;
    const sent = await s.act(user.id, { intent: "send-payment-link", licenseId: license!.id });
    expect(sent.status).toBe(200);
    expect(sent.data.toast).toMatchObject(ADMIN_TOASTS.paymentLinkSent(user.email));
    await drainJobs();
    const mail = mailsTo().at(-1)!;
    expect(mailsTo()).toHaveLength(before + 1);
    expect(mail.text).toContain("Update payment method");
    expect(mail.text).toMatch(/keeps working until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    const [audit] = await s.audits("license.payment_link");
    expect(audit!.details).toMatchObject({ user_id: user.id, short_id: license!.short_id });
    // Asked again, it sends again (each request is its own occasion).
    expect((await s.act(user.id, { intent: "send-payment-link", licenseId: license!.id })).status).toBe(200);
    await drainJobs();
    expect(mailsTo()).toHaveLength(before + 2);

    const paidUp = await s.customer("renewing");
    const refused = await s.act(paidUp.user.id, { intent: "send-payment-link", licenseId: paidUp.license!.id });
    expect(refused.status).toBe(409);
    expect(refused.data.toast.description).toBe(PAYMENT_LINK_REFUSED);
    const notTheirs = await s.act(paidUp.user.id, { intent: "send-payment-link", licenseId: license!.id });
    expect(notTheirs.status).toBe(404);
    expect(await s.audits("license.payment_link")).toHaveLength(2);
  });

  it("the demo customer's payments say refunded, and the timeline pages newest first", async () => {
    const [demo] = await db().select().from(users).where(eq(users.email, "demo@forgekit.example"));
    // Enough sign-ins for a second page (each recorded by the code that makes the session).
    await db()
      .insert(user_events)
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          user_id: demo!.id,
          kind: "account.signed_in",
          details: { ip: `198.51.100.${i}` },
          at: new Date(Date.now() - i * 60_000),
        })),
      );
    const first = (await s.view(demo!.id)).data.user;
    expect(first.payments.map((p: { status: string }) => p.status)).toEqual(
      expect.arrayContaining(["paid", "partially-refunded"]),
    );
    const at = first.timeline.entries.map((e: { at: string }) => e.at);
    expect([...at].sort().reverse()).toEqual(at);
    expect(first.timeline.entries.map((e: { title: string }) => e.title)).toEqual(
      expect.arrayContaining(["Signed in", "Refund requested", "Refund paid out"]),
    );
    const second = (await s.view(demo!.id, "?timeline=2")).data.user.timeline;
    expect(second.page).toBe(2);
    expect(second.entries.length).toBeGreaterThan(0);
    expect(first.timeline.hasNext).toBe(true);
    expect(second.entries.every((e: { at: string }) => e.at <= at.at(-1)!)).toBe(true);
  });

  it("lists failed jobs; Retry and Discard are audited; a job that is not failed is a 404", async () => {
    const insert = async (message: string) =>
      String(
        (
          await getJobQueue().executeSql(
            `INSERT INTO ${JOBS_SCHEMA}.job (name, data, state, output, retry_count, completed_on)
             VALUES ('customer-mail', '{}'::jsonb, 'failed', $1::jsonb, 10, now()) RETURNING id`,
            [JSON.stringify({ message })],
          )
        ).rows[0]!.id,
      );
    const retryId = await insert("SMTP down");
    const discardId = await insert("Mailbox full");
    const listed = await call(() => throughAdminGuard(jobsRoute.loader, getRequest("/admin/jobs", s.adminCookie)));
    const failed = listed.data.jobs.failed as { id: string; error: string; attempts: number; kind: string }[];
    expect(failed.find((j) => j.id === retryId)).toMatchObject({
      kind: "customer-mail",
      error: "SMTP down",
      attempts: 11,
    });
    const act = (intent: string, jobId: string) =>
      call(() => throughAdminGuard(jobsRoute.action, s.post("/admin/jobs", { intent, jobId })));
    expect((await act("job-retry", retryId)).status).toBe(200);
    expect((await act("job-discard", discardId)).status).toBe(200);
    const state = async (id: string) =>
      (await getJobQueue().executeSql(`SELECT state::text AS state FROM ${JOBS_SCHEMA}.job WHERE id = $1`, [id]))
        .rows[0]?.state;
    expect(await state(retryId)).toBe("retry");
    expect(await state(discardId)).toBeUndefined();
    expect((await s.audits("job.retry"))[0]!.details).toMatchObject({ kind: "customer-mail", error: "SMTP down" });
    expect(await s.audits("job.discard")).toHaveLength(1);
    const again = await act("job-retry", retryId);
    expect(again.status).toBe(404);
    expect(again.data.toast.description).toBe(JOB_TEXTS.notFound);
    expect((await act("job-frobnicate", retryId)).status).toBe(400);
    expect((await act("job-retry", "not-a-uuid")).status).toBe(404);
  });
});
