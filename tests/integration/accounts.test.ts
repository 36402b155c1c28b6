import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import * as confirmEmail from "~/routes/confirm-email";
import * as forgotPassword from "~/routes/forgot-password";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as profile from "~/routes/profile";
import * as register from "~/routes/register";
import * as resetPassword from "~/routes/reset-password";
import { getCurrentSession } from "~/server/auth/session.server";
import { getAuth } from "~/server/auth/auth.server";
import { accounts, profiles, rate_limits, sessions, user_roles, users, verifications } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { seedDemoData } from "~/server/seed.server";
import { call, cookieFrom, formRequest, getRequest, testContext } from "../support/route-call";
import { linkIn, startTestApp, testEngines, type TestApp } from "../support/test-app";

// Route args as React Router passes them (the generated per-route types differ only in name).
const args = (request: Request, ip?: string): any => ({ request, context: testContext(ip), params: {} });

const newUser = {
  full_name: "Grace Hopper",
  email: "grace@example.com",
  password: "cobol1959",
  company_name: "",
  terms: "on",
};

describe.each(testEngines())("accounts on %s", (engine) => {
  let app: TestApp;
  let ipCounter = 0;
  // Each test gets its own client address so the rate limits of one do not touch another.
  const ip = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await seedDemoData(app.database.db);
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await flushMail();
    app.mails.length = 0;
  });

  async function confirm(email: string) {
    await app.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  }

  async function signIn(email: string, password: string) {
    const result = await call(() =>
      login.action(args(formRequest("/login", { email, password, redirectTo: "/" }), ip())),
    );
    return { ...result, cookie: cookieFrom(result.headers) };
  }

  describe("registration", () => {
    it("creates the account, its profile and its user role together, and e-mails a confirmation link", async () => {
      const result = await call(() => register.action(args(formRequest("/register", newUser), ip())));
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/confirm-email?email=grace%40example.com");
      const [user] = await app.database.db.select().from(users).where(eq(users.email, "grace@example.com"));
      expect(user?.emailVerified).toBe(false);
      const [prof] = await app.database.db.select().from(profiles).where(eq(profiles.id, user!.id));
      expect(prof).toMatchObject({ full_name: "Grace Hopper", company_name: null });
      const [role] = await app.database.db.select().from(user_roles).where(eq(user_roles.user_id, user!.id));
      expect(role?.role).toBe("user");
      await flushMail();
      expect(app.mails).toHaveLength(1);
      expect(app.mails[0]!.to).toBe("grace@example.com");
      expect(app.mails[0]!.subject).toContain("Confirm");
      expect(app.mails[0]!.html).toContain("ForgeKit");
      expect(linkIn(app.mails[0])).toContain("/api/auth/verify-email?token=");
    });

    it("keeps where the visitor was going: the confirmation link leads back there; an off-site target is dropped", async () => {
      const fields = { ...newUser, email: "plan-buyer@example.com", redirectTo: "/pricing?plan=yearly" };
      const result = await call(() => register.action(args(formRequest("/register", fields), ip())));
      expect(result.headers.get("Location")).toBe(
        "/confirm-email?email=plan-buyer%40example.com&redirectTo=%2Fpricing%3Fplan%3Dyearly",
      );
      await flushMail();
      expect(new URL(linkIn(app.mails[0])).searchParams.get("callbackURL")).toBe("/pricing?plan=yearly");

      app.mails.length = 0;
      const offSite = { ...newUser, email: "off-site@example.com", redirectTo: "https://evil.example/" };
      const refused = await call(() => register.action(args(formRequest("/register", offSite), ip())));
      expect(refused.headers.get("Location")).toBe("/confirm-email?email=off-site%40example.com");
      await flushMail();
      expect(new URL(linkIn(app.mails[0])).searchParams.get("callbackURL")).toBe("/");
    });

    it("answers an address that already has an account exactly as a new one, and e-mails its owner", async () => {
      const result = await call(() =>
        register.action(args(formRequest("/register", { ...newUser, full_name: "Someone Else" }), ip())),
      );
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/confirm-email?email=grace%40example.com");
      const [{ count }] = (await app.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.email, "grace@example.com"))) as [{ count: number }];
      expect(count).toBe(1);
      await flushMail();
      expect(app.mails).toHaveLength(1);
      expect(app.mails[0]!.subject).toContain("tried to register");
    });

    it("is all or nothing: a failure after the account row leaves no account behind", async () => {
      // A profile row already holding the id the account would get is impossible to arrange,
      // so break the role insert instead: a check constraint makes it fail inside the transaction.
      await app.database.db.execute(
        sql`alter table user_roles add constraint test_block check (role <> 'user') not valid`,
      );
      try {
        const result = await call(() =>
          register.action(args(formRequest("/register", { ...newUser, email: "atomic@example.com" }), ip())),
        );
        expect(result.status).toBe(500);
        expect(result.data.toast).toMatchObject({ title: T.errorTitle, description: T.registerUnexpected });
      } finally {
        await app.database.db.execute(sql`alter table user_roles drop constraint test_block`);
      }
      expect(await app.database.db.select().from(users).where(eq(users.email, "atomic@example.com"))).toHaveLength(0);
      expect(
        await app.database.db
          .select()
          .from(accounts)
          .innerJoin(users, eq(users.id, accounts.userId))
          .where(eq(users.email, "atomic@example.com")),
      ).toHaveLength(0);
    });

    it.each([
      ["full name", { full_name: " " }, "full_name", T.fullNameRequired],
      ["e-mail", { email: "" }, "email", T.emailRequired],
      ["malformed e-mail", { email: "not-an-address" }, "email", T.emailInvalid],
      ["password", { password: "12345" }, "password", T.passwordTooShort],
      ["overlong password", { password: "x".repeat(129) }, "password", T.passwordTooLong],
      ["terms box", { terms: "" }, "terms", T.termsRequired],
    ])("refuses a missing or bad %s with its text", async (_name, change, field, message) => {
      const result = await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "v@example.com", ...change }), ip())),
      );
      expect(result.status).toBe(400);
      expect(result.data.fieldErrors[field]).toContain(message);
      expect(await app.database.db.select().from(users).where(eq(users.email, "v@example.com"))).toHaveLength(0);
    });

    it("keeps the optional company name", async () => {
      await call(() =>
        register.action(
          args(formRequest("/register", { ...newUser, email: "co@example.com", company_name: "Acme" }), ip()),
        ),
      );
      const [row] = await app.database.db
        .select({ company: profiles.company_name })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.id))
        .where(eq(users.email, "co@example.com"));
      expect(row?.company).toBe("Acme");
    });
  });

  describe("confirmation", () => {
    it("the e-mailed link confirms the address and signs the user in, back at the site root", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "link@example.com" }), ip())),
      );
      await flushMail();
      const url = new URL(linkIn(app.mails.at(-1)));
      const response = await getAuth().handler(new Request(url));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const cookie = cookieFrom(response.headers);
      const session = await getCurrentSession(getRequest("/", cookie));
      expect(session.user?.email).toBe("link@example.com");
      expect(session.user?.emailVerified).toBe(true);
    });

    it("resend sends a new link to an unconfirmed account and answers the same for unknown addresses", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "resend@example.com" }), ip())),
      );
      await flushMail();
      app.mails.length = 0;
      const known = await call(() =>
        confirmEmail.action(args(formRequest("/confirm-email", { email: "resend@example.com" }), ip())),
      );
      const unknown = await call(() =>
        confirmEmail.action(args(formRequest("/confirm-email", { email: "nobody@example.com" }), ip())),
      );
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(known.data).toEqual(unknown.data);
      await flushMail();
      expect(app.mails.map((m) => m.to)).toEqual(["resend@example.com"]);
    });
  });

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

    it("refuses a wrong password with Login Failed and the server's reason", async () => {
      const result = await signIn("demo@forgekit.example", "wrong-password");
      expect(result.status).toBe(401);
      expect(result.data.toast.title).toBe(T.loginFailedTitle);
      expect(result.data.toast.description).toMatch(/invalid email or password/i);
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
      await app.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      expect((await getCurrentSession(getRequest("/", cookie))).user).toBeNull();
      const again = await signIn("demo@forgekit.example", "user-demo-1");
      await app.database.db.delete(sessions);
      expect((await getCurrentSession(getRequest("/", again.cookie))).user).toBeNull();
      expect((await getCurrentSession(getRequest("/", "fk.session_token=garbage"))).user).toBeNull();
    });
  });

  describe("rate limits", () => {
    beforeEach(async () => {
      await app.database.db.delete(rate_limits);
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

  describe("password reset", () => {
    beforeEach(async () => {
      await app.database.db.delete(rate_limits);
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
      expect(app.mails.map((m) => m.to)).toEqual(["demo@forgekit.example"]);
      expect(app.mails[0]!.text).toContain("expires in 24 hours");
    });

    it("resets with the link, ends every other session, and the link works once", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "reset@example.com" }), ip())),
      );
      await confirm("reset@example.com");
      const other = await signIn("reset@example.com", newUser.password);
      await flushMail();
      app.mails.length = 0;
      await requestReset("reset@example.com");
      await flushMail();
      const link = new URL(linkIn(app.mails[0]));
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
      expect(mismatch.data.toast).toMatchObject({ title: T.passwordMismatchTitle, description: T.passwordMismatch });
      const short = await call(() =>
        resetPassword.action(args(formRequest("/reset-password", { token, password: "12345", confirm: "12345" }))),
      );
      expect(short.data.toast).toMatchObject({ title: T.passwordTooShortTitle, description: T.passwordTooShort });

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
      const token = new URL(linkIn(app.mails[0])).searchParams.get("token")!;
      const [row] = await app.database.db
        .select()
        .from(verifications)
        .where(eq(verifications.identifier, `reset-password:${token}`));
      expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      await app.database.db
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

      app.mails.length = 0;
      const saved = await call(() =>
        profile.action(
          args(
            formRequest(
              "/profile",
              { full_name: "Dana D. Developer", company_name: "Northwind", email: "dana.new@example.com" },
              cookie,
            ),
          ),
        ),
      );
      expect(saved.status).toBe(200);
      expect(saved.data.toast.title).toBe(T.profileUpdated);
      expect(saved.data.pendingEmail).toBe("dana.new@example.com");
      const [row] = await app.database.db
        .select({ email: users.email, name: profiles.full_name })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .where(sql`${users.email} like 'dana%' or ${users.email} = 'demo@forgekit.example'`);
      expect(row).toEqual({ email: "demo@forgekit.example", name: "Dana D. Developer" });
      await flushMail();
      const mail = app.mails.find((m) => m.to === "dana.new@example.com");
      expect(mail?.subject).toContain("new");
      const response = await getAuth().handler(new Request(linkIn(mail)));
      expect(response.status).toBe(302);
      const [after] = await app.database.db
        .select({ email: users.email })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .where(eq(profiles.full_name, "Dana D. Developer"));
      expect(after?.email).toBe("dana.new@example.com");
    });
  });
});
