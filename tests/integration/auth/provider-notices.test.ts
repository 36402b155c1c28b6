import { hashPassword } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatDate } from "~/domain/format-date";
import * as forgotPassword from "~/routes/forgot-password";
import * as login from "~/routes/login";
import { accounts } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { startLocalProviders, type LocalProviders, type ProviderIdentity } from "../../support/oauth-providers";
import { oauthRoundTrip } from "../../support/oauth-round-trip";
import { call, cookieFrom, formRequest, routeArgs } from "../../support/route-call";
import { createUser, linkIn, startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * Connecting GitHub / Google to an account e-mails its owner, and the password-reset
 * e-mail names the providers connected to the account, so a provider connected by someone else
 * does not go unnoticed.
 */
describe.each(testEngines())("e-mails about connected providers on %s", (engine) => {
  let app: TestApp;
  let providers: LocalProviders;
  let n = 0;
  const db = () => app.database.db;

  beforeAll(async () => {
    providers = await startLocalProviders();
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", ...providers.env });
  });
  afterAll(async () => {
    await app?.close();
    await providers?.stop();
  });
  beforeEach(async () => {
    await flushMail();
    app.mails.length = 0;
  });

  const identity = (email: string): ProviderIdentity => ({
    id: String(5000 + ++n),
    name: "Olga Owner",
    email,
    emailVerified: true,
  });

  /** A confirmed account with a password, signed in: its cookie. */
  async function ownerSignedIn(email: string) {
    const owner = await createUser(db(), email, { fullName: "Olga Owner" });
    await db()
      .insert(accounts)
      .values({
        accountId: owner.id,
        providerId: "credential",
        userId: owner.id,
        password: await hashPassword("pass-123"),
      });
    const signedIn = await call(() =>
      login.action(routeArgs(formRequest("/login", { email, password: "pass-123", redirectTo: "/" }))),
    );
    return { owner, cookie: cookieFrom(signedIn.headers) };
  }

  async function mailsTo(email: string) {
    await flushMail();
    return app.mails.filter((m) => m.to === email);
  }

  async function requestReset(email: string) {
    const answer = await call(() => forgotPassword.action(routeArgs(formRequest("/forgot-password", { email }))));
    expect(answer.status).toBe(200);
    const [mail] = (await mailsTo(email)).filter((m) => m.subject === "Reset your ForgeKit password");
    expect(mail).toBeDefined();
    return mail!;
  }

  it("connecting GitHub, then Google, e-mails the owner each time, naming the provider and when", async () => {
    const email = `connect-${engine}@example.com`;
    const { owner, cookie } = await ownerSignedIn(email);

    const gitHubUser = identity(email);
    const github = await oauthRoundTrip(providers, "github", gitHubUser, cookie);
    expect(github.location).toBe("/profile?linked=1#connected-accounts");
    const [row] = await db()
      .select({ createdAt: accounts.createdAt })
      .from(accounts)
      .where(and(eq(accounts.userId, owner.id), eq(accounts.providerId, "github")));
    const notices = await mailsTo(email);
    expect(notices.map((m) => m.subject)).toEqual(["ForgeKit: GitHub was connected to your account"]);
    const [notice] = notices;
    const when = `${formatDate(row!.createdAt)} at ${row!.createdAt.toISOString().slice(11, 16)} UTC`;
    expect(notice!.html).toContain(`GitHub was connected to your ForgeKit account on ${when}.`);
    expect(notice!.text).toContain("Hello Olga Owner,");
    expect(notice!.text).toContain(`GitHub was connected to your ForgeKit account on ${when}.`);
    expect(notice!.text).toContain(
      `If it was not you, someone else can log in to your account: write to us at ${app.env.SUPPORT_EMAIL} at once ` +
        `so we disconnect GitHub, and reset your password at ${app.env.PUBLIC_URL}/forgot-password.`,
    );

    app.mails.length = 0;
    await oauthRoundTrip(providers, "google", identity(email), cookie);
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(["ForgeKit: Google was connected to your account"]);

    // Signing in again with a connected provider connects nothing new: no e-mail.
    app.mails.length = 0;
    const again = await oauthRoundTrip(providers, "github", gitHubUser);
    expect(again.location).toBe("/licenses");
    expect(await mailsTo(email)).toEqual([]);
  });

  it("an account made by a GitHub sign-in gets no connection notice (nothing was added to an existing account)", async () => {
    const email = `new-by-github-${engine}@example.com`;
    const result = await oauthRoundTrip(providers, "github", identity(email));
    expect(result.location).toBe("/licenses");
    expect(await mailsTo(email)).toEqual([]);
  });

  it("the password-reset e-mail names the providers that can also sign in, and nothing when there are none", async () => {
    const email = `reset-${engine}@example.com`;
    const { cookie } = await ownerSignedIn(email);

    const plain = await requestReset(email);
    expect(plain.text).not.toContain("can also log in");
    expect(plain.text).toContain("expires in 24 hours");

    await oauthRoundTrip(providers, "github", identity(email), cookie);
    app.mails.length = 0;
    const withGitHub = await requestReset(email);
    expect(withGitHub.text).toContain("You can also log in to this account with GitHub.");
    expect(withGitHub.html).toContain("You can also log in to this account with GitHub.");
    expect(linkIn(withGitHub)).toContain("/reset-password?token=");

    await oauthRoundTrip(providers, "google", identity(email), cookie);
    app.mails.length = 0;
    expect((await requestReset(email)).text).toContain("You can also log in to this account with GitHub and Google.");
  });
});
