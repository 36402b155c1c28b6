import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { PaymentProvider } from "~/server/billing/payment-provider.server";
import { licenses } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { accountSteps, MEMBER_PASSWORD as PASSWORD, wrongCode } from "../../support/account-steps";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

/** Recovery codes people can keep, the two-factor e-mails, and what deletion cancels (decision 0026). */
describe.each(testEngines())("recovery codes and two-factor notices on %s", (engine) => {
  let app: TestApp;
  const db = () => app.database.db;
  const { codeOf, member, post, loadProfile, passwordStep, codeStep, enrol } = accountSteps(() => app, engine);
  const sent = async () => {
    await flushMail();
    return app.mails.splice(0);
  };

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await sent();
  });

  it("codes are made without look-alikes; lowercase, dashless and spaced codes sign in; the profile counts what is left", async () => {
    const user = await member("lower");
    const { recoveryCodes, cookie, secret } = await enrol(user.cookie);
    expect(recoveryCodes.every((code) => /^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/.test(code))).toBe(true);
    expect((await loadProfile(cookie)).data.account.recoveryCodesLeft).toBe(10);
    const [first, second, third] = recoveryCodes as [string, string, string];

    for (const typed of [first.toLowerCase(), second.replace("-", "").toLowerCase(), third.replace("-", " ")]) {
      const step = await passwordStep(user.email, PASSWORD);
      const done = await codeStep(step.cookie, typed);
      expect(done.status, typed).toBe(302);
      expect(done.headers.get("Location")).toBe("/licenses");
    }
    expect((await loadProfile(cookie)).data.account.recoveryCodesLeft).toBe(7);

    // A used code, typed in lower case: the message is about recovery codes, not the app's code.
    const again = await passwordStep(user.email, PASSWORD);
    const used = await codeStep(again.cookie, first.toLowerCase());
    expect(used.status).toBe(401);
    expect(used.data.fieldErrors.code).toEqual([A.recoveryCodeWrong]);
    expect(A.recoveryCodeWrong).not.toMatch(/current code from your app/);
    // A wrong app code still gets the app's message.
    const wrongApp = await codeStep(again.cookie, await wrongCode(secret));
    expect(wrongApp.status).toBe(401);
    expect(wrongApp.data.fieldErrors.code).toEqual([A.codeWrong]);
  });

  it("each recovery code's sign-in e-mails the owner when, from where, and how many are left", async () => {
    const user = await member("used-mail");
    const { recoveryCodes } = await enrol(user.cookie);
    await sent();
    const step = await passwordStep(user.email, PASSWORD, "198.51.100.201");
    expect((await codeStep(step.cookie, recoveryCodes[4]!.toLowerCase(), "198.51.100.202")).status).toBe(302);
    const mails = await sent();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[user.email, "ForgeKit: a recovery code was used to log in"]]);
    expect(mails[0]!.text).toContain("Hello Mia Member,");
    expect(mails[0]!.text).toContain("from the address 198.51.100.202");
    expect(mails[0]!.text).toContain("9 recovery codes are left");
    expect(mails[0]!.text).toMatch(/\/profile#two-factor/);
  });

  it("'Generate new codes' needs the password; the old codes stop working at once and the new ones sign in", async () => {
    const user = await member("regen");
    const { recoveryCodes: old, cookie } = await enrol(user.cookie);
    await sent();

    const wrong = await post(cookie, { intent: "recovery-codes-regenerate", password: "not-the-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.data.fieldErrors.password).toEqual([A.passwordWrong]);
    expect(wrong.data.toast.title).toBe(A.recoveryCodesFailed);
    const empty = await post(cookie, { intent: "recovery-codes-regenerate", password: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.fieldErrors.password).toHaveLength(1);
    expect(await sent()).toEqual([]);

    const made = await post(cookie, { intent: "recovery-codes-regenerate", password: PASSWORD });
    expect(made.status).toBe(200);
    expect(made.data.toast.title).toBe(A.recoveryCodesMade);
    const fresh = made.data.recoveryCodes.codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => old.includes(code))).toBe(false);
    expect(Date.parse(made.data.recoveryCodes.madeAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await loadProfile(cookie)).data.account.recoveryCodesLeft).toBe(10);
    const mails = await sent();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[user.email, "ForgeKit: new recovery codes were made"]]);
    expect(mails[0]!.text).toContain("Your previous recovery codes no longer work.");

    const step = await passwordStep(user.email, PASSWORD);
    const refused = await codeStep(step.cookie, old[0]!);
    expect(refused.status).toBe(401);
    expect(refused.data.fieldErrors.code).toEqual([A.recoveryCodeWrong]);
    expect((await codeStep(step.cookie, fresh[0]!.toLowerCase())).status).toBe(302);
  });

  it("without two-factor there is nothing to regenerate (409) and the profile shows no count", async () => {
    const user = await member("no-tfa");
    expect((await loadProfile(user.cookie)).data.account.recoveryCodesLeft).toBeNull();
    const refused = await post(user.cookie, { intent: "recovery-codes-regenerate", password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.data.fieldErrors.form).toEqual([A.twoFactorIsOff]);
  });

  it("turning two-factor on and off e-mails the owner each time", async () => {
    const user = await member("toggle-mail");
    const { secret, cookie } = await enrol(user.cookie);
    const on = await sent();
    expect(on.map((m) => [m.to, m.subject])).toEqual([[user.email, "ForgeKit: two-factor authentication is on"]]);
    expect(on[0]!.text).toContain("Logging in now asks for the code from your authenticator app");
    expect(on[0]!.html).toContain("two-factor authentication is on");

    const refused = await post(cookie, {
      intent: "two-factor-disable",
      password: "wrong-one",
      code: await codeOf(secret),
    });
    expect(refused.status).toBe(403);
    expect(await sent()).toEqual([]);
    const off = await post(cookie, { intent: "two-factor-disable", password: PASSWORD, code: await codeOf(secret) });
    expect(off.status).toBe(200);
    const offMails = await sent();
    expect(offMails.map((m) => [m.to, m.subject])).toEqual([
      [user.email, "ForgeKit: two-factor authentication is off"],
    ]);
    expect(offMails[0]!.text).toContain("Logging in now asks only for your password");
  });

  it("deletion lists the renewing subscriptions it will cancel, and its e-mail names them", async () => {
    const user = await member("delete-subs");
    const later = (days: number) => new Date(Date.now() + days * 86_400_000);
    const base = { user_id: user.id, email: user.email, license_key: "k", status: "active" as const };
    const [yearly, monthly] = await db()
      .insert(licenses)
      .values([
        {
          ...base,
          license_type: "yearly",
          end_date: later(200),
          auto_renew: true,
          paddle_subscription_id: `sub_y_${engine}`,
        },
        {
          ...base,
          license_type: "monthly",
          end_date: later(20),
          auto_renew: true,
          paddle_subscription_id: `sub_m_${engine}`,
        },
        // Not renewing: not listed, not cancelled again.
        {
          ...base,
          license_type: "monthly",
          end_date: later(10),
          auto_renew: false,
          paddle_subscription_id: `sub_o_${engine}`,
        },
      ])
      .returning();
    const listed = (await loadProfile(user.cookie)).data.account.subscriptionsToCancel;
    expect(listed).toEqual([
      { planName: "Monthly", shortId: monthly!.short_id, renewsOn: monthly!.end_date.toISOString() },
      { planName: "Yearly", shortId: yearly!.short_id, renewsOn: yearly!.end_date.toISOString() },
    ]);
    const other = await member("no-subs");
    expect((await loadProfile(other.cookie)).data.account.subscriptionsToCancel).toEqual([]);

    const cancelled: string[] = [];
    setPaymentProvider({
      name: "demo",
      webhookSecret: undefined,
      cancelAtPeriodEnd: async (id: string) => void cancelled.push(id),
    } as unknown as PaymentProvider);
    try {
      const deleted = await post(user.cookie, { intent: "account-delete", password: PASSWORD, confirm: "DELETE" });
      expect(deleted.status).toBe(302);
    } finally {
      setPaymentProvider(undefined);
    }
    expect(cancelled).toEqual([`sub_m_${engine}`, `sub_y_${engine}`]);
    const mails = await sent();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[user.email, "ForgeKit: your account was deleted"]]);
    expect(mails[0]!.text).toContain(
      `We cancelled your 2 subscriptions: Monthly (${monthly!.short_id}), Yearly (${yearly!.short_id}).`,
    );
    const [kept] = await db().select().from(licenses).where(eq(licenses.id, yearly!.id));
    expect(kept).toMatchObject({ auto_renew: false, cancellation_requested: true });
  });
});
