import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import * as confirmEmail from "~/routes/confirm-email";
import * as register from "~/routes/register";
import { accounts, profiles, user_roles, users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { call, formRequest } from "../../support/route-call";
import { linkIn, testEngines } from "../../support/test-app";
import { accountsApp, args, newUser } from "../../support/accounts-app";

describe.each(testEngines())("accounts on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, ip } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);

  describe("registration", () => {
    it("creates the account, its profile and its user role together, and e-mails a confirmation link", async () => {
      const result = await call(() => register.action(args(formRequest("/register", newUser), ip())));
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/confirm-email?email=grace%40example.com");
      const [user] = await state.app.database.db.select().from(users).where(eq(users.email, "grace@example.com"));
      expect(user?.emailVerified).toBe(false);
      const [prof] = await state.app.database.db.select().from(profiles).where(eq(profiles.id, user!.id));
      expect(prof).toMatchObject({ full_name: "Grace Hopper", company_name: null });
      const [role] = await state.app.database.db.select().from(user_roles).where(eq(user_roles.user_id, user!.id));
      expect(role?.role).toBe("user");
      await flushMail();
      expect(state.app.mails).toHaveLength(1);
      expect(state.app.mails[0]!.to).toBe("grace@example.com");
      expect(state.app.mails[0]!.subject).toContain("Confirm");
      expect(state.app.mails[0]!.html).toContain("ForgeKit");
      expect(linkIn(state.app.mails[0])).toContain("/email-confirmation?token=");
    });

    it("keeps where the visitor was going: the confirmation link leads back there; an off-site target is dropped", async () => {
      const fields = { ...newUser, email: "plan-buyer@example.com", redirectTo: "/pricing?plan=yearly" };
      const result = await call(() => register.action(args(formRequest("/register", fields), ip())));
      expect(result.headers.get("Location")).toBe(
        "/confirm-email?email=plan-buyer%40example.com&redirectTo=%2Fpricing%3Fplan%3Dyearly",
      );
      await flushMail();
      expect(new URL(linkIn(state.app.mails[0])).searchParams.get("redirectTo")).toBe("/pricing?plan=yearly");

      state.app.mails.length = 0;
      const offSite = { ...newUser, email: "off-site@example.com", redirectTo: "https://evil.example/" };
      const refused = await call(() => register.action(args(formRequest("/register", offSite), ip())));
      expect(refused.headers.get("Location")).toBe("/confirm-email?email=off-site%40example.com");
      await flushMail();
      expect(new URL(linkIn(state.app.mails[0])).searchParams.get("redirectTo")).toBeNull();
    });

    it("answers a confirmed address that already has an account exactly as a new one, and e-mails its owner", async () => {
      const result = await call(() =>
        register.action(
          args(
            formRequest("/register", { ...newUser, email: "demo@forgekit.example", full_name: "Someone Else" }),
            ip(),
          ),
        ),
      );
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/confirm-email?email=demo%40forgekit.example");
      const [{ count }] = (await state.app.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.email, "demo@forgekit.example"))) as [{ count: number }];
      expect(count).toBe(1);
      await flushMail();
      expect(state.app.mails).toHaveLength(1);
      expect(state.app.mails[0]!.subject).toContain("tried to register");
    });

    it("is all or nothing: a failure after the account row leaves no account behind", async () => {
      // A profile row already holding the id the account would get is impossible to arrange,
      // so break the role insert instead: a check constraint makes it fail inside the transaction.
      await state.app.database.db.execute(
        sql`alter table user_roles add constraint test_block check (role <> 'user') not valid`,
      );
      try {
        const result = await call(() =>
          register.action(args(formRequest("/register", { ...newUser, email: "atomic@example.com" }), ip())),
        );
        expect(result.status).toBe(500);
        expect(result.data.toast).toMatchObject({ title: T.errorTitle, description: T.registerUnexpected });
      } finally {
        await state.app.database.db.execute(sql`alter table user_roles drop constraint test_block`);
      }
      expect(
        await state.app.database.db.select().from(users).where(eq(users.email, "atomic@example.com")),
      ).toHaveLength(0);
      expect(
        await state.app.database.db
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
      expect(await state.app.database.db.select().from(users).where(eq(users.email, "v@example.com"))).toHaveLength(0);
    });

    it("keeps the optional company name", async () => {
      await call(() =>
        register.action(
          args(formRequest("/register", { ...newUser, email: "co@example.com", company_name: "Acme" }), ip()),
        ),
      );
      const [row] = await state.app.database.db
        .select({ company: profiles.company_name })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.id))
        .where(eq(users.email, "co@example.com"));
      expect(row?.company).toBe("Acme");
    });
  });

  describe("confirmation", () => {
    it("resend sends a new link to an unconfirmed account and answers the same for unknown addresses", async () => {
      await call(() =>
        register.action(args(formRequest("/register", { ...newUser, email: "resend@example.com" }), ip())),
      );
      await flushMail();
      state.app.mails.length = 0;
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
      expect(state.app.mails.map((m) => m.to)).toEqual(["resend@example.com"]);
    });
  });
});
