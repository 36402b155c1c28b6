import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS } from "~/domain/account-texts";
import * as login from "~/routes/login";
import * as loginOAuth from "~/routes/login.oauth";
import * as profile from "~/routes/profile";
import { accounts, profiles, sessions, user_roles, users } from "~/server/db/schema";
import { startLocalProviders, type LocalProviders, type ProviderIdentity } from "../../support/oauth-providers";
import { oauthRoundTrip } from "../../support/oauth-round-trip";
import { call, cookieFrom, formRequest, getRequest, routeArgs } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

describe.each(testEngines())("sign in with GitHub and Google on %s", (engine) => {
  // Local OAuth/OIDC providers and a test app whose client ids point at them.
  const state = {} as { app: TestApp; providers: LocalProviders };
  beforeAll(async () => {
    state.providers = await startLocalProviders();
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", ...state.providers.env });
  });
  afterAll(async () => {
    await state.app?.close();
    await state.providers?.stop();
  });

  const db = () => state.app.database.db;
  /** The browser's round trip through a provider. */
  const roundTrip = (provider: "github" | "google", identity: ProviderIdentity, cookie = "") =>
    oauthRoundTrip(state.providers, provider, identity, cookie);
  let n = 0;
  /** A new person at the provider, an address of their own. */
  const person = (prefix: string, verified = true): ProviderIdentity => ({
    id: String(1000 + ++n),
    name: `Linus ${prefix}`,
    email: `${prefix}-${engine}-${n}@example.com`,
    emailVerified: verified,
  });

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

  /**
   * A GitHub / Google sign-in creates, signs in to or connects an account only with an address the
   * provider reports verified (docs/security.md): otherwise anyone could add a victim's address to their
   * provider account, get an account of that address, and keep it once the owner takes it over.
   */
  describe("with an address the provider has not verified", () => {
    const usersWith = (email: string) =>
      db()
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    const accountsOf = (provider: string, accountId: string) =>
      db()
        .select()
        .from(accounts)
        .where(and(eq(accounts.providerId, provider), eq(accounts.accountId, accountId)));

    /** Refused: back on the login page with the message, and nothing was written. */
    async function expectRefused(
      provider: "github" | "google",
      result: { location: string; cookie: string },
      identity: ProviderIdentity,
    ) {
      expect(result.location).toMatch(/^\/login\?error=provider_email_unverified/);
      expect(result.cookie).not.toMatch(/session_token/);
      expect(await usersWith(identity.email)).toHaveLength(0);
      expect(await accountsOf(provider, identity.id)).toHaveLength(0);
      const page = await call(() => login.loader(routeArgs(getRequest(result.location))));
      expect(page.data.oauthError).toBe(ACCOUNT_TEXTS.oauthEmailUnverified);
    }

    it("GitHub: a primary address GitHub has not verified gets no account and no session", async () => {
      const identity = person("gh-unverified", false);
      const result = await roundTrip("github", identity);
      await expectRefused("github", result, identity);
    });

    it("GitHub: a verified secondary address is never used; without a verified primary, refused", async () => {
      const identity = person("gh-secondary", false);
      const victim = `victim-${identity.email}`;
      identity.githubEmails = [
        { email: victim, primary: false, verified: true },
        { email: identity.email, primary: true, verified: false },
      ];
      await expectRefused("github", await roundTrip("github", identity), identity);
      expect(await usersWith(victim)).toHaveLength(0);
      expect(await accountsOf("github", identity.id)).toHaveLength(0);

      // No primary at all (only a verified secondary): refused too.
      identity.githubEmails = [{ email: victim, primary: false, verified: true }];
      const noPrimary = await roundTrip("github", identity);
      expect(noPrimary.location).toMatch(/^\/login\?error=/);
      expect(noPrimary.cookie).not.toMatch(/session_token/);
      expect(await usersWith(victim)).toHaveLength(0);
      expect(await accountsOf("github", identity.id)).toHaveLength(0);

      // A verified primary: that address, never the secondary one.
      identity.githubEmails = [
        { email: victim, primary: false, verified: true },
        { email: identity.email, primary: true, verified: true },
      ];
      const ok = await roundTrip("github", identity);
      expect(ok.location).toBe("/licenses");
      expect(await usersWith(identity.email)).toHaveLength(1);
      expect(await usersWith(victim)).toHaveLength(0);
    });

    it("Google: email_verified false gets no account and no session", async () => {
      const identity = person("google-unverified", false);
      const result = await roundTrip("google", identity);
      await expectRefused("google", result, identity);
    });

    it.each(["github", "google"] as const)(
      "%s: an account connected earlier is not signed in to once the provider reports the address unverified",
      async (provider) => {
        const identity = person(`${provider}-later`, true);
        expect((await roundTrip(provider, identity)).location).toBe("/licenses");
        const [user] = await usersWith(identity.email);
        const before = await db().select().from(sessions).where(eq(sessions.userId, user!.id));
        const refused = await roundTrip(provider, { ...identity, emailVerified: false });
        expect(refused.location).toMatch(/^\/login\?error=provider_email_unverified/);
        expect(refused.cookie).not.toMatch(/session_token/);
        expect(await db().select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(before.length);
      },
    );

    it.each(["github", "google"] as const)(
      "%s: a provider account with an unverified address cannot be connected to an existing account",
      async (provider) => {
        const email = `owner-${provider}-${engine}@example.com`;
        const owner = await createUser(db(), email, { fullName: "Olga Owner" });
        await db()
          .insert(accounts)
          .values({
            accountId: owner.id,
            providerId: "credential",
            userId: owner.id,
            password: await hashPassword("owner-pass-1"),
          });
        const signedIn = await call(() =>
          login.action(routeArgs(formRequest("/login", { email, password: "owner-pass-1", redirectTo: "/" }))),
        );
        const cookie = cookieFrom(signedIn.headers);
        const identity = { ...person(`connect-${provider}`, false), email };
        const refused = await roundTrip(provider, identity, cookie);
        expect(refused.location).toMatch(/^\/profile\?error=provider_email_unverified/);
        const rows = await db().select().from(accounts).where(eq(accounts.userId, owner.id));
        expect(rows.map((r) => r.providerId)).toEqual(["credential"]);
        // Nor does a sign-in join it (implicit linking stays off, verified or not).
        const signIn = await roundTrip(provider, { ...identity, emailVerified: false });
        expect(signIn.location).toMatch(/^\/login\?error=/);
        expect(await db().select().from(accounts).where(eq(accounts.userId, owner.id))).toHaveLength(1);
      },
    );
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
