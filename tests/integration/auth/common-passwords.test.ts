import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import * as forgotPassword from "~/routes/forgot-password";
import * as register from "~/routes/register";
import * as resetPassword from "~/routes/reset-password";
import { getAuth } from "~/server/auth/auth.server";
import { isCommonPassword } from "~/server/auth/common-passwords.server";
import { users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { accountSecurityApp } from "../../support/account-security-app";
import { MEMBER_PASSWORD } from "../../support/account-steps";
import { args, newUser } from "../../support/accounts-app";
import { call, formRequest } from "../../support/route-call";
import { linkIn, testEngines } from "../../support/test-app";

/**
 * A new password that is one of the most common ones (the list shipped with the app, no
 * network) is refused with its text at registration, reset and change; the spec's 6-character rule
 * and texts stay; Better Auth's own endpoints refuse it too.
 */
describe("the common-password list", () => {
  it("holds the most common passwords in any letter case, and not ordinary long ones", () => {
    for (const common of ["123456", "password", "Password1", "QWERTY123", "letmein", "iloveyou", "dragon"])
      expect(isCommonPassword(common), common).toBe(true);
    for (const fine of ["cobol1959", "brand-new-1", "correct horse battery", "S3cret-pw/42", MEMBER_PASSWORD])
      expect(isCommonPassword(fine), fine).toBe(false);
  });
});

describe.each(testEngines())("common passwords are refused on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, member, post } = accountSecurityApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);
  let n = 0;
  const ip = () => `203.0.113.${++n}`;

  it("at registration: the password field says why and no account is made", async () => {
    const result = await call(() =>
      register.action(
        args(formRequest("/register", { ...newUser, email: "common@example.com", password: "Password123" }), ip()),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.data.fieldErrors.password).toEqual([T.passwordCommon]);
    const short = await call(() =>
      register.action(
        args(formRequest("/register", { ...newUser, email: "common@example.com", password: "1234" }), ip()),
      ),
    );
    expect(short.data.fieldErrors.password).toEqual([T.passwordTooShort]);
    expect(await state.app.database.db.select().from(users).where(eq(users.email, "common@example.com"))).toEqual([]);
  });

  it("at a password change: the new password's field says why, and the old password still works", async () => {
    const user = await member("common-change");
    const refused = await post(user.cookie, {
      intent: "password-change",
      currentPassword: MEMBER_PASSWORD,
      newPassword: "qwerty123",
      confirm: "qwerty123",
    });
    expect(refused.status).toBe(400);
    expect(refused.data.fieldErrors.newPassword).toEqual([T.passwordCommon]);
    const kept = await post(user.cookie, {
      intent: "password-change",
      currentPassword: MEMBER_PASSWORD,
      newPassword: "brand-new-1",
      confirm: "brand-new-1",
    });
    expect(kept.status).toBe(200);
  });

  it("at a reset: the page says why, the link still works, and Better Auth's endpoint refuses it too", async () => {
    const user = await member("common-reset");
    await flushMail();
    state.app.mails.length = 0;
    await call(() => forgotPassword.action(args(formRequest("/forgot-password", { email: user.email }), ip())));
    await flushMail();
    const token = new URL(linkIn(state.app.mails.find((m) => m.to === user.email)!)).searchParams.get("token")!;
    const refused = await call(() =>
      resetPassword.action(args(formRequest("/reset-password", { token, password: "iloveyou", confirm: "iloveyou" }))),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.problem).toEqual({
      field: "password",
      title: T.passwordCommonTitle,
      message: T.passwordCommon,
    });
    const direct = await getAuth()
      .api.resetPassword({ body: { newPassword: "sunshine1", token } })
      .catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(APIError);
    expect((direct as APIError).body).toMatchObject({ code: "PASSWORD_COMMON", message: T.passwordCommon });
    const done = await call(() =>
      resetPassword.action(
        args(formRequest("/reset-password", { token, password: "brand-new-1", confirm: "brand-new-1" })),
      ),
    );
    expect(done.status).toBe(302);
  });
});
