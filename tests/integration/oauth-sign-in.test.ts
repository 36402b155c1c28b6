import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as login from "~/routes/login";
import * as loginOAuth from "~/routes/login.oauth";
import * as profile from "~/routes/profile";
import { accounts, profiles, user_roles, users } from "~/server/db/schema";
import { call, cookieFrom, formRequest, getRequest, routeArgs } from "../support/route-call";
import { oauthSuite } from "../support/oauth-suite";
import { createUser, startTestApp, testEngines } from "../support/test-app";
import { hashPassword } from "better-auth/crypto";

describe.each(testEngines())("sign in with GitHub and Google on %s", (engine) => {
  const { db, roundTrip, person } = oauthSuite(engine, { firstName: "Linus", idBase: 1000 });

  it.each(["github", "google"] as const)(
    "%s: a new user is signed in with a profile named after the provider's name and a verified e-mail",
    async (provider) => {
      const identity = person(`new-${provider}`);
      const result = await roundTrip(provider, identity);
      expect(result.authorize).toContain(provider === "github" ? "/login/oauth/authorize?" : "/authorize?");
      expect(result.location).toBe("/licenses");
      const [user] = await db().select().from(users).where(eq(users.email, identity.email));
      expect(user?.emailVerified).toBe(true);
      const [prof] = await db().select().from(profiles).where(eq(profiles.id, user!.id));
      expect(prof?.full_name).toBe(identity.name);
      const [role] = await db().select().from(user_roles).where(eq(user_roles.user_id, user!.id));
      expect(role?.role).toBe("user");
      const page = await call(() => profile.loader(routeArgs(getRequest("/profile", result.cookie))));
      expect(page.status).toBe(200);
      expect(page.data.account.hasPassword).toBe(false);
      expect(page.data.account.connected.map((c: { provider: string }) => c.provider)).toEqual([provider]);
      // The same person again: the same account.
      const again = await roundTrip(provider, identity);
      expect(again.location).toBe("/licenses");
      expect(await db().select().from(users).where(eq(users.email, identity.email))).toHaveLength(1);
    },
  );

  it("an existing account with the same e-mail is not joined by a sign-in; its owner connects it from the profile", async () => {
    const email = `owner-${engine}@example.com`;
    const owner = await createUser(db(), email, { fullName: "Olga Owner" });
    await db()
      .insert(accounts)
      .values({
        accountId: owner.id,
        providerId: "credential",
        userId: owner.id,
        password: await hashPassword("owner-pass-1"),
      });
    const identity = { ...person("owner"), email };

    const refused = await roundTrip("google", identity);
    expect(refused.location).toMatch(/^\/login\?error=account_not_linked/);
    expect(await db().select().from(accounts).where(eq(accounts.userId, owner.id))).toHaveLength(1);
    const loginPage = await call(() =>
      login.loader(routeArgs(getRequest("/login?error=account_not_linked", refused.cookie))),
    );
    expect(loginPage.data.oauthError).toMatch(/already exists/);

    // Signed in with the password, the owner connects Google.
    const signedIn = await call(() =>
      login.action(routeArgs(formRequest("/login", { email, password: "owner-pass-1", redirectTo: "/" }))),
    );
    const cookie = cookieFrom(signedIn.headers);
    const linked = await roundTrip("google", identity, cookie);
    expect(linked.location).toBe("/profile?linked=1#connected-accounts");
    const rows = await db().select().from(accounts).where(eq(accounts.userId, owner.id));
    expect(rows.map((r) => r.providerId).sort()).toEqual(["credential", "google"]);
    const [user] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(user?.emailVerified).toBe(true);
    // Now Google signs in to that account.
    const viaGoogle = await roundTrip("google", identity);
    expect(viaGoogle.location).toBe("/licenses");

    // With two-factor on, the provider no longer signs in alone (it would skip the code).
    await db().update(users).set({ twoFactorEnabled: true }).where(eq(users.id, owner.id));
    const skipped = await roundTrip("google", identity);
    expect(skipped.location).toMatch(/^\/login\?error=unable_to_create_session/);
    expect(skipped.cookie).not.toMatch(/session_token/);
    const page = await call(() => login.loader(routeArgs(getRequest("/login?error=unable_to_create_session"))));
    expect(page.data.oauthError).toMatch(/two-factor/);
  });

  it("an unknown or unconfigured provider goes back to the login page with a message", async () => {
    const result = await call(() =>
      loginOAuth.action(routeArgs(formRequest("/login/oauth", { provider: "myspace", redirectTo: "/" }))),
    );
    expect(result.status).toBe(303);
    expect(result.headers.get("Location")).toBe("/login");
    const page = await call(() => loginOAuth.loader());
    expect(page.status).toBe(302);
  });

  it("the login page offers only the configured providers", async () => {
    const page = await call(() => login.loader(routeArgs(getRequest("/login"))));
    expect(page.data.providers).toEqual(["github", "google"]);
  });
});

describe("without client ids", () => {
  it("the login page shows no provider buttons", async () => {
    const app = await startTestApp("pglite");
    try {
      const page = await call(() => login.loader(routeArgs(getRequest("/login"))));
      expect(page.data.providers).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
