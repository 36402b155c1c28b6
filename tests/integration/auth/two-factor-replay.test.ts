import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import * as login from "~/routes/login";
import * as loginTwoFactor from "~/routes/login.two-factor";
import * as profile from "~/routes/profile";
import { enrolWithSecret } from "~/server/auth/two-factor.server";
import { accounts, twoFactors } from "~/server/db/schema";
import { call, cookieFrom, formRequest, routeArgs } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";
import { codeAtStep, currentStep } from "../../support/totp";

const SECRET = "REPLAYTESTSECRET234567ABCDEFGHIJ";
const PASSWORD = "replay-pass-1";

/** An authenticator code accepted for a user is refused for that user afterwards. */
describe.each(testEngines())("each two-factor code works once on %s", (engine) => {
  let app: TestApp;
  let n = 0;
  const ip = () => `198.51.100.${(++n % 250) + 1}`;
  const db = () => app.database.db;

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
  });
  afterAll(async () => app?.close());

  async function member(prefix: string, enrolled = true) {
    const email = `${prefix}-${engine}-${++n}@example.com`;
    const user = await createUser(db(), email);
    await db()
      .insert(accounts)
      .values({
        accountId: user.id,
        providerId: "credential",
        userId: user.id,
        password: await hashPassword(PASSWORD),
      });
    if (enrolled) await enrolWithSecret(db(), user.id, SECRET);
    return user;
  }
  async function passwordStep(email: string) {
    const result = await call(() =>
      login.action(routeArgs(formRequest("/login", { email, password: PASSWORD, redirectTo: "/" }), ip())),
    );
    expect(result.headers.get("Location")).toMatch(/^\/login\/two-factor/);
    return cookieFrom(result.headers);
  }
  const codeStep = (cookie: string, code: string) =>
    call(() =>
      loginTwoFactor.action(routeArgs(formRequest("/login/two-factor", { code, redirectTo: "/" }, cookie), ip())),
    );

  it("the second sign-in with the same code is refused, and an older code too; the next code works", async () => {
    const user = await member("replay");
    const [first, second] = [await passwordStep(user.email), await passwordStep(user.email)];
    const now = currentStep();
    const code = await codeAtStep(SECRET, now);
    const ok = await codeStep(first, code);
    expect(ok.status).toBe(302);
    expect(cookieFrom(ok.headers)).toMatch(/session_token/);

    const replay = await codeStep(second, code);
    expect(replay.status).toBe(401);
    expect(replay.data.fieldErrors.code).toEqual([A.codeUsed]);
    expect(cookieFrom(replay.headers)).not.toMatch(/session_token/);
    const older = await codeStep(second, await codeAtStep(SECRET, now - 1));
    expect(older.status).toBe(401);
    expect(older.data.fieldErrors.code).toEqual([A.codeUsed]);

    // The app's next code (accepted one step early) signs in, once.
    const next = await codeStep(second, await codeAtStep(SECRET, now + 1));
    expect(next.status).toBe(302);
    const [row] = await db().select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    expect(row?.lastTotpStep).toBe(now + 1);
  });

  it("the same code sent by eight sign-ins at once signs in exactly one", async () => {
    const user = await member("race");
    const cookies = [];
    for (let i = 0; i < 8; i++) cookies.push(await passwordStep(user.email));
    const code = await codeAtStep(SECRET, currentStep());
    const answers = await Promise.all(cookies.map((cookie) => codeStep(cookie, code)));
    expect(answers.map((a) => a.status).sort()).toEqual([302, 401, 401, 401, 401, 401, 401, 401]);
  });

  it("a code that turned two-factor on, or was used to sign in, does not turn it off", async () => {
    const user = await member("profile", false);
    const cookie = await signIn(user.email);
    const post = (c: string, fields: Record<string, string>) =>
      call(() => profile.action(routeArgs(formRequest("/profile.data", fields, c), ip())));
    const started = await post(cookie, { intent: "two-factor-start", password: PASSWORD });
    const secret = started.data.enrolment.secret as string;
    const now = currentStep();
    const confirmed = await post(cookie, { intent: "two-factor-confirm", code: await codeAtStep(secret, now) });
    expect(confirmed.status).toBe(200);
    const signedIn = cookieFrom(confirmed.headers, cookie);

    const sameCode = { intent: "two-factor-disable", password: PASSWORD, code: await codeAtStep(secret, now) };
    const refused = await post(signedIn, sameCode);
    expect(refused.status).toBe(403);
    expect(refused.data.fieldErrors.code).toEqual([A.codeUsed]);
    // A sign-in with that code is refused too.
    const pending = await passwordStep(user.email);
    expect((await codeStep(pending, await codeAtStep(secret, now))).status).toBe(401);
    // The next code turns it off.
    const off = await post(signedIn, { ...sameCode, code: await codeAtStep(secret, now + 1) });
    expect(off.status).toBe(200);
  });

  async function signIn(email: string) {
    const result = await call(() =>
      login.action(routeArgs(formRequest("/login", { email, password: PASSWORD, redirectTo: "/" }), ip())),
    );
    return cookieFrom(result.headers);
  }
});
