import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORT_TEXTS } from "~/domain/admin-support";
import { getAuth } from "~/server/auth/auth.server";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { licenses, twoFactors, user_email_history, user_events, users } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { flushMail } from "~/server/mail/outbox.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { stubPaymentProvider } from "../../support/stub-provider";
import { startSupportApp, type SupportApp } from "../../support/support-app";
import { linkIn, testEngines } from "../../support/test-app";

/**
 * The support back office's actions on a customer (decision 0038), through the user page's action as
 * an admin: the provider called with the right arguments, the state changed, the customer
 * e-mailed, the audit entry and the timeline written; every bad input a 4xx with nothing changed.
 */
describe.each(testEngines())("support actions on %s", (engine) => {
  let s: SupportApp;
  beforeAll(async () => {
    s = await startSupportApp(engine);
  });
  afterAll(async () => s?.app.close());
  const db = () => s.app.database.db;
  const mailsTo = (to: string) => s.app.mails.filter((m) => m.to === to);
  const events = (userId: string, kind: string) =>
    db()
      .select()
      .from(user_events)
      .where(eq(user_events.user_id, userId))
      .then((r) => r.filter((e) => e.kind === kind));

  it("cancels a renewal through the provider, audited with the reason, the customer e-mailed", async () => {
    const { user, license } = await s.customer("renewing");
    const calls: string[] = [];
    setPaymentProvider(stubPaymentProvider({ cancelAtPeriodEnd: async (id) => void calls.push(id) }));
    const before = await s.auditCount();
    const empty = await s.act(user.id, { intent: "support-cancel-renewal", licenseId: license!.id, reason: "  " });
    expect(empty.status).toBe(400);
    expect(empty.data.fieldErrors.reason).toEqual([SUPPORT_TEXTS.reasonRequired]);
    expect(calls).toEqual([]);
    const done = await s.act(user.id, {
      intent: "support-cancel-renewal",
      licenseId: license!.id,
      reason: "Ticket 41",
    });
    expect(done.status).toBe(200);
    expect(calls).toEqual([license!.paddle_subscription_id]);
    const [after] = await db().select().from(licenses).where(eq(licenses.id, license!.id));
    expect(after).toMatchObject({ auto_renew: false, cancellation_requested: true });
    expect(await s.auditCount()).toBe(before + 1);
    const [audit] = await s.audits("user.renewal_cancel");
    expect(audit!.details).toMatchObject({ user_id: user.id, reason: "Ticket 41", short_id: license!.short_id });
    await drainJobs();
    expect(mailsTo(user.email).some((m) => /cancel/i.test(m.subject))).toBe(true);
    expect(await events(user.id, "renewal.cancelled")).toHaveLength(1);
    // Twice: refused as the customer's own second cancel is, nothing new written.
    const again = await s.act(user.id, { intent: "support-cancel-renewal", licenseId: license!.id, reason: "again" });
    expect(again.status).toBe(409);
    expect(await s.auditCount()).toBe(before + 1);
  });

  it("re-enables it; a provider failure is a 502 with nothing changed", async () => {
    const { user, license } = await s.customer("renewing");
    setPaymentProvider(
      stubPaymentProvider({ removeScheduledCancel: async () => Promise.reject(new ProviderError("down")) }),
    );
    const before = await s.auditCount();
    const failed = await s.act(user.id, {
      intent: "support-reenable-renewal",
      licenseId: license!.id,
      reason: "Asked",
    });
    expect(failed.status).toBe(502);
    expect((await s.customer("renewing")).license).toMatchObject({ cancellation_requested: true });
    expect(await s.auditCount()).toBe(before);
    const calls: string[] = [];
    setPaymentProvider(stubPaymentProvider({ removeScheduledCancel: async (id) => void calls.push(id) }));
    const done = await s.act(user.id, { intent: "support-reenable-renewal", licenseId: license!.id, reason: "Asked" });
    expect(done.status).toBe(200);
    expect(calls).toEqual([license!.paddle_subscription_id]);
    expect((await s.customer("renewing")).license).toMatchObject({ auto_renew: true, cancellation_requested: false });
    expect(await s.audits("user.renewal_reenable")).toHaveLength(1);
    await flushMail();
    expect(mailsTo(user.email).some((m) => m.subject.endsWith("automatic renewal is on again"))).toBe(true);
    // Another customer's license from this page: not found.
    const other = await s.customer("pastDue");
    const foreign = await s.act(user.id, {
      intent: "support-cancel-renewal",
      licenseId: other.license!.id,
      reason: "x",
    });
    expect(foreign.status).toBe(404);
  });

  it("changes an unconfirmed account's address at once (typo), confirmation to the new one, notice to the old", async () => {
    const { user } = await s.customer("typo");
    const bad = [
      [{ email: "not-an-address", reason: "typo" }, 400, "email"],
      [{ email: DEMO_ACCOUNTS[1].email.toUpperCase(), reason: "typo" }, 409, "email"],
      [{ email: user.email, reason: "typo" }, 400, "email"],
      [{ email: "tia.typo@gmail.example", reason: "" }, 400, "reason"],
    ] as const;
    const before = await s.auditCount();
    for (const [fields, status, field] of bad) {
      const result = await s.act(user.id, { intent: "support-change-email", ...fields });
      expect(result.status).toBe(status);
      expect(result.data.fieldErrors[field]).toHaveLength(1);
    }
    expect(
      result409Message(
        await s.act(user.id, { intent: "support-change-email", email: DEMO_ACCOUNTS[1].email, reason: "t" }),
      ),
    ).toBe(SUPPORT_TEXTS.emailInUse);
    expect(await s.auditCount()).toBe(before);
    const done = await s.act(user.id, {
      intent: "support-change-email",
      email: "Tia.Typo@gmail.example",
      reason: "Typo",
    });
    expect(done.status).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after!.email).toBe("tia.typo@gmail.example");
    expect(
      (await db().select().from(user_email_history).where(eq(user_email_history.user_id, user.id)))[0]!.email,
    ).toBe(user.email);
    expect((await s.audits("user.email_change"))[0]!.details).toMatchObject({
      old_email: user.email,
      new_email: "tia.typo@gmail.example",
      reason: "Typo",
      immediate: true,
    });
    await flushMail();
    expect(mailsTo("tia.typo@gmail.example").map((m) => m.subject)).toContain("Confirm your ForgeKit account");
    expect(mailsTo(user.email).some((m) => m.subject.endsWith("your e-mail address is being changed"))).toBe(true);
    expect(await events(user.id, "account.email_changed")).toHaveLength(1);
    expect((await events(user.id, "mail.sent")).length).toBeGreaterThan(0);
  });

  it("a confirmed account keeps its address until the link is followed; licenses keep theirs", async () => {
    const { user, license } = await s.customer("pastDue");
    const done = await s.act(user.id, { intent: "support-change-email", email: "pat@new.example", reason: "New job" });
    expect(done.status).toBe(200);
    expect((await s.customer("pastDue")).user.email).toBe(user.email);
    await flushMail();
    const confirm = mailsTo("pat@new.example").at(-1)!;
    expect(confirm.subject).toBe("Confirm your new ForgeKit e-mail address");
    expect(mailsTo(user.email).some((m) => m.subject.endsWith("your e-mail address is being changed"))).toBe(true);
    const followed = await getAuth().handler(new Request(linkIn(confirm)));
    expect(followed.status).toBeLessThan(400);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after!.email).toBe("pat@new.example");
    // The customer's own rule: keys were issued to the license's address, which stays.
    const [kept] = await db().select().from(licenses).where(eq(licenses.id, license!.id));
    expect(kept!.email).toBe(user.email);
  });

  it("resends the confirmation of an unconfirmed account only", async () => {
    const typo = await s.customer("typo");
    const sent = await s.act(typo.user.id, { intent: "support-resend-confirmation" });
    expect(sent.status).toBe(200);
    await flushMail();
    expect(
      mailsTo(typo.user.email).filter((m) => m.subject === "Confirm your ForgeKit account").length,
    ).toBeGreaterThan(1);
    expect(await s.audits("user.confirmation_resend")).toHaveLength(1);
    const confirmed = await s.customer("renewing");
    expect((await s.act(confirmed.user.id, { intent: "support-resend-confirmation" })).status).toBe(409);
  });

  it("resets two-factor with a reason, once, never an admin's", async () => {
    const { user } = await s.customer("locked");
    expect((await s.act(user.id, { intent: "support-reset-two-factor", reason: "" })).status).toBe(400);
    expect((await s.customer("locked")).user.twoFactorEnabled).toBe(true);
    const done = await s.act(user.id, { intent: "support-reset-two-factor", reason: "ID checked by video call" });
    expect(done.status).toBe(200);
    expect((await s.customer("locked")).user.twoFactorEnabled).toBe(false);
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, user.id))).toHaveLength(0);
    expect((await s.audits("user.two_factor_reset"))[0]!.details).toMatchObject({ reason: "ID checked by video call" });
    await flushMail();
    expect(mailsTo(user.email).some((m) => m.subject.endsWith("two-factor authentication was reset"))).toBe(true);
    expect((await s.act(user.id, { intent: "support-reset-two-factor", reason: "again" })).status).toBe(409);
    const [admin] = await db().select().from(users).where(eq(users.email, DEMO_ACCOUNTS[0].email));
    const refused = await s.act(admin!.id, { intent: "support-reset-two-factor", reason: "no" });
    expect(refused.status).toBe(409);
    expect(refused.data.toast.description).toBe(SUPPORT_TEXTS.twoFactorAdmin);
  });
});

function result409Message(result: { status: number; data: { toast: { description: string } } }): string {
  expect(result.status).toBe(409);
  return result.data.toast.description;
}
