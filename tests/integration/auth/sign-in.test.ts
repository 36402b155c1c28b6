import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formErrorTitle, toastToShow } from "~/domain/action-result";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import * as confirmEmail from "~/routes/confirm-email";
import * as forgotPassword from "~/routes/forgot-password";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as register from "~/routes/register";
import { getCurrentSession } from "~/server/auth/session.server";
import { rate_limits, sessions } from "~/server/db/schema";
import { call, formRequest, getRequest } from "../../support/route-call";
import { testEngines } from "../../support/test-app";
import { accountsApp, args, newUser } from "../../support/accounts-app";

describe.each(testEngines())("accounts on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, ip, signIn } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);

  describe("sign-in", () => {
    it("signs in a confirmed user, with the sign-in toast, to / or back to the page that sent them", async () => {
      const home = await signIn("demo@forgekit.example", "user-demo-1");
      expect(home.status).toBe(302);
      expect(home.headers.get("Location")).toBe("/");
      expect(home.cookie).toContain("fk.session_token=");
      const back = await call(() =>
        login.action(
          args(
            formRequest("/login", { email: "demo@forgekit.example", password: "user-demo-1", redirectTo: "/profile" }),
            ip(),
          ),
        ),
      );
      expect(back.headers.get("Location")).toBe("/profile");
      const offsite = await call(() =>
        login.action(
          args(
            formRequest("/login", {
              email: "demo@forgekit.example",
              password: "user-demo-1",
              redirectTo: "//evil.example",
            }),
            ip(),
          ),
        ),
      );
      expect(offsite.headers.get("Location")).toBe("/");
    });

    it("refuses a wrong password with Login Failed and the server's reason, said once: in the form", async () => {
      const result = await signIn("demo@forgekit.example", "wrong-password");
      expect(result.status).toBe(401);
      expect(result.data.toast.title).toBe(T.loginFailedTitle);
      expect(result.data.toast.description).toMatch(/invalid email or password/i);
      // The form says it with the product's title; the page shows no toast too (decision 0060).
      const message = result.data.fieldErrors.form[0];
      expect(message).toMatch(/invalid email or password/i);
      expect(formErrorTitle(result.data, message)).toBe(T.loginFailedTitle);
      expect(toastToShow(result.data)).toBeNull();
    });

    it("tells an unconfirmed user so, and offers to resend", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "unconfirmed@example.com" }), ip())),
      );
      const result = await signIn("unconfirmed@example.com", newUser.password);
      expect(result.status).toBe(403);
      expect(result.data.fieldErrors.form).toEqual([T.unverified]);
      expect(result.data.unverifiedEmail).toBe("unconfirmed@example.com");
    });

    it("requires e-mail and password", async () => {
      const result = await call(() => login.action(args(formRequest("/login", { email: "", password: "" }), ip())));
      expect(result.status).toBe(400);
      expect(result.data.fieldErrors.email).toContain(T.emailRequired);
      expect(result.data.fieldErrors.password).toContain(T.passwordRequired);
    });

    it("the session is in the database: signing out ends it server-side", async () => {
      const { cookie } = await signIn("demo@forgekit.example", "user-demo-1");
      expect((await getCurrentSession(getRequest("/", cookie))).user).not.toBeNull();
      const out = await call(() => logout.action(args(formRequest("/logout", {}, cookie))));
      expect(out.status).toBe(302);
      expect(out.headers.get("Location")).toBe("/");
      // The old cookie no longer works, even if a client kept it.
      expect((await getCurrentSession(getRequest("/", cookie))).user).toBeNull();
    });

    it("another site cannot sign the user out (the resource route checks Origin itself)", async () => {
      const { cookie } = await signIn("demo@forgekit.example", "user-demo-1");
      for (const origin of ["http://evil.example", "null", "not a url"]) {
        const request = formRequest("/logout", {}, cookie);
        request.headers.set("Origin", origin);
        const out = await call(() => logout.action(args(request)));
        expect(out.status).toBe(403);
      }
      expect((await getCurrentSession(getRequest("/", cookie))).user).not.toBeNull();
    });

    it("an expired or deleted session is simply signed out", async () => {
      const { cookie } = await signIn("demo@forgekit.example", "user-demo-1");
      await state.app.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      expect((await getCurrentSession(getRequest("/", cookie))).user).toBeNull();
      const again = await signIn("demo@forgekit.example", "user-demo-1");
      await state.app.database.db.delete(sessions);
      expect((await getCurrentSession(getRequest("/", again.cookie))).user).toBeNull();
      expect((await getCurrentSession(getRequest("/", "fk.session_token=garbage"))).user).toBeNull();
    });
  });

  describe("rate limits", () => {
    beforeEach(async () => {
      await state.app.database.db.delete(rate_limits);
    });

    it("after five wrong passwords for one address, the client that failed gets 429; other clients do not (decision 0014)", async () => {
      const client = "192.0.2.98";
      const attempt = (from: string) =>
        call(() =>
          login.action(
            args(formRequest("/login", { email: "limit@example.com", password: "wrong-pass", redirectTo: "/" }), from),
          ),
        );
      for (let i = 0; i < 5; i++) expect((await attempt(client)).status).toBe(401);
      const sixth = await attempt(client);
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(sixth.data.fieldErrors.form[0]).toMatch(/too many attempts/i);
      expect((await signIn("limit@example.com", "wrong-pass")).status).toBe(401);
    });

    it("the 11th attempt a minute from one client IP gets 429, whatever the address", async () => {
      const client = "192.0.2.99";
      for (let i = 0; i < 10; i++) {
        const r = await call(() =>
          forgotPassword.action(args(formRequest("/forgot-password", { email: `f${i}@example.com` }), client)),
        );
        expect(r.status).toBe(200);
      }
      const r = await call(() =>
        forgotPassword.action(args(formRequest("/forgot-password", { email: "f10@example.com" }), client)),
      );
      expect(r.status).toBe(429);
    });

    it("registration and resend are limited too", async () => {
      const client = "192.0.2.100";
      for (let i = 0; i < 10; i++) {
        await call(() => register.action(args(formRequest("/register", { ...newUser, email: "" }), client)));
      }
      // Invalid forms do not count; valid ones do.
      for (let i = 0; i < 10; i++) {
        await call(() =>
          register.action(args(formRequest("/register", { ...newUser, email: `r${i}@example.com` }), client)),
        );
      }
      expect(
        (
          await call(() =>
            register.action(args(formRequest("/register", { ...newUser, email: "r10@example.com" }), client)),
          )
        ).status,
      ).toBe(429);
      for (let i = 0; i < 10; i++) {
        await call(() =>
          confirmEmail.action(args(formRequest("/confirm-email", { email: "x@example.com" }), `192.0.2.${110 + i}`)),
        );
      }
      expect(
        (
          await call(() =>
            confirmEmail.action(args(formRequest("/confirm-email", { email: "x@example.com" }), "192.0.2.200")),
          )
        ).status,
      ).toBe(429);
    });
  });
});
