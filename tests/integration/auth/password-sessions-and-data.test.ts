import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as profileExport from "~/routes/profile.export";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { accounts, audit_log, licenses, payments, profiles, sessions, users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { MEMBER_PASSWORD as PASSWORD } from "../../support/account-steps";
import { call, cookieFrom, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { stubPaymentProvider } from "../../support/stub-provider";
import { testEngines } from "../../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;

import { accountSecurityApp } from "../../support/account-security-app";

describe.each(testEngines())("account security on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, db, member, post, loadProfile, passwordStep } =
    accountSecurityApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);

  describe("password and sessions", () => {
    it("changing the password needs the current one, ends other sessions and e-mails the owner", async () => {
      const user = await member("pw");
      const other = await signInCookie(user.email, PASSWORD);
      const wrong = await post(user.cookie, {
        intent: "password-change",
        currentPassword: "not-it-1",
        newPassword: "brand-new-1",
        confirm: "brand-new-1",
      });
      expect(wrong.status).toBe(403);
      expect(wrong.data.fieldErrors.currentPassword[0]).toBe("The password is not correct.");
      const mismatch = await post(user.cookie, {
        intent: "password-change",
        currentPassword: PASSWORD,
        newPassword: "brand-new-1",
        confirm: "brand-new-2",
      });
      expect(mismatch.status).toBe(400);
      const ok = await post(user.cookie, {
        intent: "password-change",
        currentPassword: PASSWORD,
        newPassword: "brand-new-1",
        confirm: "brand-new-1",
      });
      expect(ok.status).toBe(200);
      const mine = cookieFrom(ok.headers, user.cookie);
      expect((await loadProfile(mine)).status).toBe(200);
      expect((await loadProfile(other)).status).toBe(302);
      await flushMail();
      expect(state.app.mails.map((m) => [m.to, m.subject])).toEqual([
        [user.email, "ForgeKit: your password was changed"],
      ]);
      expect((await passwordStep(user.email, "brand-new-1")).status).toBe(302);
    });

    it("lists sessions with browser, IP and last activity; signs out one, or everywhere else", async () => {
      const user = await member("sessions");
      const second = await signInCookie(user.email, PASSWORD);
      const third = await signInCookie(user.email, PASSWORD);
      await db()
        .update(sessions)
        .set({ userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/140.0" })
        .where(eq(sessions.userId, user.id));
      const listed = (await loadProfile(user.cookie)).data.account.sessions as {
        id: string;
        current: boolean;
        browser: string;
        ipAddress: string;
      }[];
      expect(listed).toHaveLength(3);
      expect(listed.filter((s) => s.current)).toHaveLength(1);
      expect(listed[0]!.browser).toBe("Firefox on Windows");
      // The address the server determined for each sign-in (signInCookie signs in from 192.0.2.x).
      expect(listed.every((s) => /^192\.0\.2\.\d+$/.test(s.ipAddress))).toBe(true);
      const current = listed.find((s) => s.current)!;
      expect((await post(user.cookie, { intent: "session-revoke", sessionId: current.id })).status).toBe(404);
      const stranger = await member("stranger");
      expect(
        (await post(stranger.cookie, { intent: "session-revoke", sessionId: listed.find((s) => !s.current)!.id }))
          .status,
      ).toBe(404);
      expect((await post(user.cookie, { intent: "session-revoke", sessionId: "not-a-uuid" })).status).toBe(400);

      const one = listed.find((s) => !s.current)!;
      expect((await post(user.cookie, { intent: "session-revoke", sessionId: one.id })).status).toBe(200);
      expect((await loadProfile(user.cookie)).data.account.sessions).toHaveLength(2);
      expect((await post(user.cookie, { intent: "sessions-revoke-others" })).status).toBe(200);
      expect((await loadProfile(user.cookie)).data.account.sessions).toHaveLength(1);
      expect((await loadProfile(second)).status).toBe(302);
      expect((await loadProfile(third)).status).toBe(302);
    });

    it("every account action has its own rate limit", async () => {
      const user = await member("limits");
      const client = "203.0.113.99";
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push((await post(user.cookie, { intent: "two-factor-start", password: "wrong-pass" }, client)).status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
      expect(statuses[10]).toBe(429);
      // A different action is not held back by that one.
      expect((await post(user.cookie, { intent: "sessions-revoke-others" }, client)).status).toBe(200);
    });
  });

  describe("export and deletion", () => {
    it("exports the user's profile, licenses, payments and audit entries as a JSON download, nobody else's", async () => {
      const cookie = await signInCookie(USER.email, USER.password);
      const response = (await profileExport.loader(routeArgs(getRequest("/profile/export", cookie)))) as Response;
      expect(response.headers.get("Content-Type")).toContain("application/json");
      expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="forgekit-account-data-/);
      const body = await response.json();
      expect(body.profile).toMatchObject({ email: USER.email, full_name: USER.fullName });
      const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, USER.email));
      const own = await db().select().from(licenses).where(eq(licenses.user_id, user!.id));
      expect(body.licenses).toHaveLength(own.length);
      const ownPayments = await db().select().from(payments).where(eq(payments.user_id, user!.id));
      expect(body.payments).toHaveLength(ownPayments.length);
      expect(JSON.stringify(body)).not.toContain(ADMIN.email);
      expect(JSON.stringify(body)).not.toMatch(/password|secret|token/i);
      const signedOut = await call(() => profileExport.loader(routeArgs(getRequest("/profile/export"))));
      expect(signedOut.status).toBe(302);
    });

    it("deletion needs the password and DELETE; cancels subscriptions first; keeps licenses and payments detached", async () => {
      const user = await member("delete");
      const [license] = await db()
        .insert(licenses)
        .values({
          user_id: user.id,
          email: user.email,
          license_type: "monthly",
          status: "active",
          license_key: "k",
          end_date: new Date(Date.now() + 20 * 86_400_000),
          auto_renew: true,
          paddle_subscription_id: `sub_delete_${engine}`,
          windows_username: "mia",
          computer_name: "MIA-PC",
        })
        .returning();
      await db()
        .insert(payments)
        .values({
          id: `txn_delete_${engine}`,
          license_id: license!.id,
          user_id: user.id,
          kind: "purchase",
          amount_cents: 900,
          billed_at: new Date(),
        });
      await db().insert(audit_log).values({
        actor_id: user.id,
        actor_email: user.email,
        action: "license.refund_requested",
        target_type: "license",
        target_id: license!.id,
      });
      const cancelled: string[] = [];
      let failing = true;
      setPaymentProvider(
        stubPaymentProvider(
          {
            cancelAtPeriodEnd: async (id: string) => {
              if (failing) throw new Error("provider down");
              cancelled.push(id);
            },
          },
          { name: "demo" },
        ),
      );
      try {
        expect(
          (await post(user.cookie, { intent: "account-delete", password: PASSWORD, confirm: "delete" })).status,
        ).toBe(400);
        expect(
          (await post(user.cookie, { intent: "account-delete", password: "wrong-1", confirm: "DELETE" })).status,
        ).toBe(403);
        const providerDown = await post(user.cookie, {
          intent: "account-delete",
          password: PASSWORD,
          confirm: "DELETE",
        });
        expect(providerDown.status).toBe(503);
        expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);

        failing = false;
        const deleted = await post(user.cookie, { intent: "account-delete", password: PASSWORD, confirm: "DELETE" });
        expect(deleted.status).toBe(302);
        expect(deleted.headers.get("Location")).toBe("/");
        expect(cancelled).toEqual([`sub_delete_${engine}`]);
      } finally {
        setPaymentProvider(undefined);
      }
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(row!.email).toBe(`deleted-${user.id}@deleted.invalid`);
      expect(row!.deletedAt).not.toBeNull();
      const [prof] = await db().select().from(profiles).where(eq(profiles.id, user.id));
      expect(prof).toMatchObject({ full_name: "Deleted user", company_name: null });
      const [kept] = await db().select().from(licenses).where(eq(licenses.id, license!.id));
      expect(kept).toMatchObject({ email: row!.email, windows_username: null, computer_name: null, auto_renew: false });
      expect(await db().select().from(payments).where(eq(payments.user_id, user.id))).toHaveLength(1);
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.actor_id, user.id));
      expect(entry!.actor_email).toBe(row!.email);
      expect(await db().select().from(accounts).where(eq(accounts.userId, user.id))).toHaveLength(0);
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      expect((await loadProfile(user.cookie)).status).toBe(302);
      expect((await passwordStep(user.email, PASSWORD)).status).toBe(401);
      await flushMail();
      expect(state.app.mails.map((m) => [m.to, m.subject])).toContainEqual([
        user.email,
        "ForgeKit: your account was deleted",
      ]);
      const leftovers = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.id, user.id), sql`${users.email} like '%example.com'`));
      expect(leftovers[0]!.n).toBe(0);
    });
  });
});
