import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/admin/index";
import * as releasesRoute from "~/routes/admin/releases";
import * as loginTwoFactor from "~/routes/login.two-factor";
import * as profile from "~/routes/profile";
import { TWO_FACTOR_ENROL_PATH } from "~/server/auth/session.server";
import { user_events } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { MEMBER_PASSWORD as PASSWORD, wrongCode } from "../../support/account-steps";
import { call, cookieFrom, formRequest, getRequest, routeArgs } from "../../support/route-call";
import { throughAdminGuard } from "../../support/admin-route";
import { testEngines } from "../../support/test-app";

const [ADMIN] = DEMO_ACCOUNTS;

import { accountSecurityApp } from "../../support/account-security-app";

describe.each(testEngines())("account security on %s", (engine) => {
  const { startApp, stopApp, forgetMails, db, codeOf, member, post, loadProfile, passwordStep, codeStep, enrol } =
    accountSecurityApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);

  describe("two-factor sign-in", () => {
    it("the seeded admin is enrolled: the password leads to the code step, and the code signs in", async () => {
      const first = await passwordStep(ADMIN.email, ADMIN.password);
      expect(first.status).toBe(302);
      expect(first.headers.get("Location")).toBe("/login/two-factor?redirectTo=%2Flicenses");
      expect(first.cookie).not.toMatch(/session_token/);
      const page = await call(() => loginTwoFactor.loader(routeArgs(getRequest("/login/two-factor", first.cookie))));
      expect(page.status).toBe(200);

      const wrong = await codeStep(first.cookie, await wrongCode(ADMIN.twoFactorSecret!));
      expect(wrong.status).toBe(401);
      expect(wrong.data.fieldErrors.code[0]).toMatch(/not correct/);

      const right = await codeStep(first.cookie, await codeOf(ADMIN.twoFactorSecret!));
      expect(right.status).toBe(302);
      expect(right.headers.get("Location")).toBe("/licenses");
      const cookie = cookieFrom(right.headers, first.cookie);
      expect((await call(() => throughAdminGuard(adminRoute.loader, getRequest("/admin", cookie)))).status).toBe(200);
    });

    it("without a pending sign-in the code page sends back to /login; bad input is a 400", async () => {
      const page = await call(() => loginTwoFactor.loader(routeArgs(getRequest("/login/two-factor"))));
      expect(page.headers.get("Location")).toBe("/login");
      const first = await passwordStep(ADMIN.email, ADMIN.password);
      const bad = await codeStep(first.cookie, "12 34");
      expect(bad.status).toBe(400);
      const none = await codeStep("", "123456");
      expect(none.status).toBe(302);
      expect(none.headers.get("Location")).toBe("/login");
    });

    it("wrong codes are held back like wrong passwords (per account and client) and per IP", async () => {
      const user = await member("backoff");
      const { secret } = await enrol(user.cookie);
      const client = "203.0.113.77";
      let statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const first = await passwordStep(user.email, PASSWORD, client);
        statuses.push((await codeStep(first.cookie, await wrongCode(secret), client)).status);
      }
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses[5]).toBe(429);
      // Another client (the owner elsewhere) is not held back.
      const owner = await passwordStep(user.email, PASSWORD, "198.51.100.250");
      expect((await codeStep(owner.cookie, await codeOf(secret), "198.51.100.250")).status).toBe(302);
      statuses = [];
    });

    it("a recovery code signs in once, then is used up", async () => {
      const user = await member("recovery");
      const { recoveryCodes } = await enrol(user.cookie);
      const first = await passwordStep(user.email, PASSWORD);
      expect((await codeStep(first.cookie, recoveryCodes[0]!)).status).toBe(302);
      const again = await passwordStep(user.email, PASSWORD);
      expect((await codeStep(again.cookie, recoveryCodes[0]!)).status).toBe(401);
      expect((await codeStep(again.cookie, recoveryCodes[1]!.replace("-", ""))).status).toBe(302);
    });
  });

  describe("the customer's timeline (user_events, decision 0038)", () => {
    it("a two-factor sign-in is one 'Signed in', turning two-factor on none", async () => {
      const user = await member("timeline");
      const signIns = async () =>
        (await db().select().from(user_events).where(eq(user_events.user_id, user.id))).filter(
          (e) => e.kind === "account.signed_in",
        ).length;
      expect(await signIns()).toBe(1);
      // Enrolment replaces the session (Better Auth rotates it): the customer did not sign in again.
      const { secret } = await enrol(user.cookie);
      expect(await signIns()).toBe(1);
      // The password step's session is dropped for the code step's: one sign-in, recorded once.
      const first = await passwordStep(user.email, PASSWORD);
      expect((await codeStep(first.cookie, await codeOf(secret))).status).toBe(302);
      expect(await signIns()).toBe(2);
      // A password only, the code never given: no sign-in.
      await passwordStep(user.email, PASSWORD);
      expect(await signIns()).toBe(2);
    });
  });

  describe("two-factor on the profile", () => {
    it("turning on needs the password and a current code; turning off needs both again", async () => {
      const user = await member("toggle");
      const wrongPassword = await post(user.cookie, { intent: "two-factor-start", password: "nope-nope" });
      expect(wrongPassword.status).toBe(403);
      expect(wrongPassword.data.fieldErrors.password[0]).toBe("The password is not correct.");

      const started = await post(user.cookie, { intent: "two-factor-start", password: PASSWORD });
      const secret = started.data.enrolment.secret as string;
      const badCode = await post(user.cookie, { intent: "two-factor-confirm", code: await wrongCode(secret) });
      expect(badCode.status).toBe(403);
      expect((await loadProfile(user.cookie)).data.account.twoFactorEnabled).toBe(false);
      const ok = await post(user.cookie, { intent: "two-factor-confirm", code: await codeOf(secret) });
      expect(ok.status).toBe(200);
      const cookie = cookieFrom(ok.headers, user.cookie);
      expect((await loadProfile(cookie)).data.account.twoFactorEnabled).toBe(true);

      expect((await post(cookie, { intent: "two-factor-disable", password: PASSWORD, code: "12" })).status).toBe(400);
      const noCode = await post(cookie, {
        intent: "two-factor-disable",
        password: PASSWORD,
        code: await wrongCode(secret),
      });
      expect(noCode.status).toBe(403);
      const noPassword = await post(cookie, {
        intent: "two-factor-disable",
        password: "wrong-one",
        code: await codeOf(secret),
      });
      expect(noPassword.status).toBe(403);
      expect((await loadProfile(cookie)).data.account.twoFactorEnabled).toBe(true);
      const off = await post(cookie, { intent: "two-factor-disable", password: PASSWORD, code: await codeOf(secret) });
      expect(off.status).toBe(200);
      expect((await loadProfile(cookieFrom(off.headers, cookie))).data.account.twoFactorEnabled).toBe(false);
      expect((await passwordStep(user.email, PASSWORD)).headers.get("Location")).toBe("/licenses");
    });

    it("an admin without two-factor is sent to enrol before /admin opens, and admin actions answer 403", async () => {
      const admin = await member("fresh-admin", "admin");
      const page = await call(() => throughAdminGuard(adminRoute.loader, getRequest("/admin", admin.cookie)));
      expect(page.status).toBe(302);
      expect(page.headers.get("Location")).toBe(TWO_FACTOR_ENROL_PATH);
      const acting = await call(() =>
        throughAdminGuard(
          releasesRoute.action,
          formRequest("/admin/releases", { intent: "delete-release", id: "x" }, admin.cookie),
        ),
      );
      expect(acting.status).toBe(403);
      const overview = await call(() =>
        profile.loader(routeArgs(getRequest("/profile?two-factor=required", admin.cookie))),
      );
      expect(overview.data.account.twoFactorRequired).toBe(true);
      const { cookie, secret } = await enrol(admin.cookie);
      expect((await call(() => throughAdminGuard(adminRoute.loader, getRequest("/admin", cookie)))).status).toBe(200);
      // …and cannot turn it off again.
      const off = await post(cookie, { intent: "two-factor-disable", password: PASSWORD, code: await codeOf(secret) });
      expect(off.status).toBe(403);
    });

    it("signed out, every account action sends to /login and changes nothing", async () => {
      const result = await post("", { intent: "two-factor-start", password: PASSWORD });
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toMatch(/^\/login/);
    });
  });
});
