import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import * as forgotPassword from "~/routes/forgot-password";
import * as emailChange from "~/routes/email-change";
import * as profile from "~/routes/profile";
import * as register from "~/routes/register";
import * as resetPassword from "~/routes/reset-password";
import { getCurrentSession } from "~/server/auth/session.server";
import { profiles, rate_limits, users, verifications } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { call, formRequest, getRequest } from "../../support/route-call";
import { linkIn, testEngines } from "../../support/test-app";
import { accountsApp, args, newUser } from "../../support/accounts-app";

describe.each(testEngines())("accounts on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, ip, confirm, signIn } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);

  describe("password reset", () => {
    beforeEach(async () => {
      await state.app.database.db.delete(rate_limits);
    });

    async function requestReset(email: string) {
      return call(() => forgotPassword.action(args(formRequest("/forgot-password", { email }), ip())));
    }

    it("answers the same for known and unknown addresses, and mails only the account's owner", async () => {
      const known = await requestReset("demo@forgekit.example");
      const unknown = await requestReset("ghost@example.com");
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect({ ...known.data, sentTo: null }).toEqual({ ...unknown.data, sentTo: null });
      await flushMail();
      expect(state.app.mails.map((m) => m.to)).toEqual(["demo@forgekit.example"]);
      expect(state.app.mails[0]!.text).toContain("expires in 24 hours");
    });

    it("resets with the link, ends every other session, and the link works once", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "reset@example.com" }), ip())),
      );
      await confirm("reset@example.com");
      const other = await signIn("reset@example.com", newUser.password);
      await flushMail();
      state.app.mails.length = 0;
      await requestReset("reset@example.com");
      await flushMail();
      const link = new URL(linkIn(state.app.mails[0]));
      expect(link.pathname).toBe("/reset-password");
      const token = link.searchParams.get("token")!;

      const verified = await call(() =>
        resetPassword.action(args(formRequest("/reset-password", { intent: "verify", token }))),
      );
      expect(verified.data.verified).toBe(true);

      const mismatch = await call(() =>
        resetPassword.action(
          args(formRequest("/reset-password", { token, password: "newpass1", confirm: "newpass2" })),
        ),
      );
      expect(mismatch.status).toBe(400);
      // Said beside the confirmation field, not as a toast (decision 0057).
      expect(mismatch.data).toMatchObject({
        toast: null,
        problem: { field: "confirm", title: T.passwordMismatchTitle, message: T.passwordMismatch },
      });
      const short = await call(() =>
        resetPassword.action(args(formRequest("/reset-password", { token, password: "12345", confirm: "12345" }))),
      );
      expect(short.status).toBe(400);
      expect(short.data).toMatchObject({
        toast: null,
        problem: { field: "password", title: T.passwordTooShortTitle, message: T.passwordTooShort },
      });

      const done = await call(() =>
        resetPassword.action(
          args(formRequest("/reset-password", { token, password: "brand-new-1", confirm: "brand-new-1" })),
        ),
      );
      expect(done.status).toBe(302);
      expect(done.headers.get("Location")).toBe("/login");
      expect((await getCurrentSession(getRequest("/", other.cookie))).user).toBeNull();
      expect((await signIn("reset@example.com", newUser.password)).status).toBe(401);
      expect((await signIn("reset@example.com", "brand-new-1")).status).toBe(302);

      const reused = await call(() =>
        resetPassword.action(args(formRequest("/reset-password", { intent: "verify", token }))),
      );
      expect(reused.data.verified).toBe(false);
      const reusedSubmit = await call(() =>
        resetPassword.action(
          args(formRequest("/reset-password", { token, password: "another-1", confirm: "another-1" })),
        ),
      );
      expect(reusedSubmit.status).toBe(302);
      expect(reusedSubmit.headers.get("Location")).toBe("/forgot-password");
    });

    it("a link older than 24 hours is refused", async () => {
      await requestReset("demo@forgekit.example");
      await flushMail();
      const token = new URL(linkIn(state.app.mails[0])).searchParams.get("token")!;
      const [row] = await state.app.database.db
        .select()
        .from(verifications)
        .where(eq(verifications.identifier, `reset-password:${token}`));
      expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      await state.app.database.db
        .update(verifications)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(verifications.identifier, `reset-password:${token}`));
      const verified = await call(() =>
        resetPassword.action(args(formRequest("/reset-password", { intent: "verify", token }))),
      );
      expect(verified.data.verified).toBe(false);
    });
  });

  describe("profile", () => {
    it("is for signed-in users only, in the loader and in the action", async () => {
      const loader = await call(() => profile.loader(args(getRequest("/profile"))));
      expect(loader.status).toBe(302);
      expect(loader.headers.get("Location")).toBe("/login?redirectTo=%2Fprofile");
      const action = await call(() =>
        profile.action(args(formRequest("/profile", { full_name: "X", email: "x@example.com" }))),
      );
      expect(action.status).toBe(302);
    });

    it("saves names at once; a new e-mail only after its confirmation link is followed", async () => {
      const { cookie } = await signIn("demo@forgekit.example", "user-demo-1");
      const missing = await call(() =>
        profile.action(args(formRequest("/profile", { full_name: "", email: "" }, cookie))),
      );
      expect(missing.status).toBe(400);
      expect(missing.data.fieldErrors.full_name).toContain(T.fullNameRequired);
      expect(missing.data.fieldErrors.email).toContain(T.emailRequired);

      state.app.mails.length = 0;
      const saved = await call(() =>
        profile.action(
          args(
            formRequest(
              "/profile",
              {
                full_name: "Dana D. Developer",
                company_name: "Northwind",
                email: "dana.new@example.com",
                currentPassword: "user-demo-1",
              },
              cookie,
            ),
          ),
        ),
      );
      expect(saved.status).toBe(200);
      expect(saved.data.toast.title).toBe(T.profileUpdated);
      expect(saved.data.pendingEmail).toBe("dana.new@example.com");
      const [row] = await state.app.database.db
        .select({ email: users.email, name: profiles.full_name })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .where(sql`${users.email} like 'dana%' or ${users.email} = 'demo@forgekit.example'`);
      expect(row).toEqual({ email: "demo@forgekit.example", name: "Dana D. Developer" });
      await flushMail();
      const mail = state.app.mails.find((m) => m.to === "dana.new@example.com");
      expect(mail?.subject).toContain("new");
      const token = new URL(linkIn(mail)).searchParams.get("token")!;
      const response = await call(() => emailChange.action(args(formRequest("/email-change", { token }))));
      expect(response.data.view).toEqual({ kind: "confirmed", newEmail: "dana.new@example.com" });
      const [after] = await state.app.database.db
        .select({ email: users.email })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .where(eq(profiles.full_name, "Dana D. Developer"));
      expect(after?.email).toBe("dana.new@example.com");
    });
  });
});
