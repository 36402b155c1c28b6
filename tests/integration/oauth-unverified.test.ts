import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS } from "~/domain/account-texts";
import * as login from "~/routes/login";
import { accounts, sessions, users } from "~/server/db/schema";
import type { ProviderIdentity } from "../support/oauth-providers";
import { oauthSuite } from "../support/oauth-suite";
import { call, cookieFrom, formRequest, getRequest, routeArgs } from "../support/route-call";
import { createUser, testEngines } from "../support/test-app";

/**
 * A GitHub / Google sign-in creates, signs in to or connects an account only with an address the
 * provider reports verified (issue 22): otherwise anyone could add a victim's address to their
 * provider account, get an account of that address, and keep it once the owner takes it over.
 */
describe.each(testEngines())("provider sign-in with an unverified address on %s", (engine) => {
  const { db, roundTrip, person } = oauthSuite(engine, { firstName: "Mallory", idBase: 3000 });
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
