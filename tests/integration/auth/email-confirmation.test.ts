import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { CONFIRMATION_TEXTS as C } from "~/domain/email-change-texts";
import * as emailConfirmation from "~/routes/email-confirmation";
import * as register from "~/routes/register";
import { getCurrentSession } from "~/server/auth/session.server";
import { sessions, users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { call, cookieFrom, formRequest, getRequest } from "../../support/route-call";
import { linkIn, testEngines } from "../../support/test-app";
import { accountsApp, args, newUser } from "../../support/accounts-app";

// Decision 0059: nobody keeps a password on an address they never proved.
describe.each(testEngines())("the confirmation link on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, ip, signIn } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);
  const db = () => state.app.database.db;

  async function registerAs(email: string, password = newUser.password, redirectTo?: string) {
    const fields = { ...newUser, email, password, ...(redirectTo ? { redirectTo } : {}) };
    return call(() => register.action(args(formRequest("/register", fields), ip())));
  }
  async function linkTo(email: string) {
    await flushMail();
    const mail = state.app.mails.filter((m) => m.to === email).at(-1);
    return new URL(linkIn(mail));
  }
  const page = (link: URL) => call(() => emailConfirmation.loader(args(getRequest(link.pathname + link.search))));
  const post = (link: URL, fields: Record<string, string>) =>
    call(() =>
      emailConfirmation.action(
        args(
          formRequest("/email-confirmation", {
            token: link.searchParams.get("token")!,
            redirectTo: link.searchParams.get("redirectTo") ?? "/",
            ...fields,
          }),
          ip(),
        ),
      ),
    );
  const accountOf = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0]!;
  const sessionCount = async (userId: string) =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(sessions)
        .where(eq(sessions.userId, userId))) as [{ n: number }]
    )[0].n;

  it("following the link signs nobody in and confirms nothing by itself", async () => {
    await registerAs("visit@example.com");
    const link = await linkTo("visit@example.com");
    expect(link.pathname).toBe("/email-confirmation");
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.data.view).toMatchObject({ kind: "open", email: "visit@example.com" });
    expect(shown.headers.get("Set-Cookie")).toBeNull();
    const user = await accountOf("visit@example.com");
    expect(user.emailVerified).toBe(false);
    expect(await sessionCount(user.id)).toBe(0);
    // The sign-in keeps the spec's answer for an unconfirmed address.
    const login = await signIn("visit@example.com", newUser.password);
    expect(login.status).toBe(403);
    expect(login.data.fieldErrors.form).toContain(T.unverified);
  });

  it("the link's holder who knows the password confirms and is signed in, back where they were going", async () => {
    await registerAs("holder@example.com", newUser.password, "/pricing?plan=yearly");
    const link = await linkTo("holder@example.com");
    const wrong = await post(link, { intent: "sign-in", password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.data.view.error).toEqual({ form: "sign-in", message: A.passwordWrong, status: 401 });
    expect((await accountOf("holder@example.com")).emailVerified).toBe(false);

    const right = await post(link, { intent: "sign-in", password: newUser.password });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/pricing?plan=yearly");
    const session = await getCurrentSession(getRequest("/", cookieFrom(right.headers)));
    expect(session.user).toMatchObject({ email: "holder@example.com", emailVerified: true });
    // Confirmed: the link now says so and only points to the login.
    expect((await page(link)).data.view).toEqual({ kind: "confirmed", email: "holder@example.com" });
    expect((await post(link, { intent: "set-password", password: "taken-over", confirm: "taken-over" })).status).toBe(
      410,
    );
  });

  it("a password chosen by someone else before the address was proven never works: the owner chooses one", async () => {
    // The attacker registers carol@ with a password of their own.
    await registerAs("carol@example.com", "attacker-pass");
    const link = await linkTo("carol@example.com");
    // Carol follows the link; she does not know that password, so she chooses her own.
    const mismatch = await post(link, { intent: "set-password", password: "carol-pass-1", confirm: "carol-pass-2" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.view.error.message).toBe(T.passwordMismatch);
    const common = await post(link, { intent: "set-password", password: "sunshine1", confirm: "sunshine1" });
    expect(common.status).toBe(400);
    expect(common.data.view.error.message).toBe(T.passwordCommon);
    const set = await post(link, { intent: "set-password", password: "carol-pass-1", confirm: "carol-pass-1" });
    expect(set.status).toBe(302);
    expect((await getCurrentSession(getRequest("/", cookieFrom(set.headers)))).user?.email).toBe("carol@example.com");
    expect((await signIn("carol@example.com", "attacker-pass")).status).toBe(401);
    expect((await signIn("carol@example.com", "carol-pass-1")).status).toBe(302);
    // And with the link alone (Carol never came back), the attacker's sign-in is refused as unconfirmed.
    await registerAs("dora@example.com", "attacker-pass");
    await page(await linkTo("dora@example.com"));
    expect((await signIn("dora@example.com", "attacker-pass")).status).toBe(403);
  });

  it("registering again with an unconfirmed address answers as a fresh registration and sends the owner the link", async () => {
    const fresh = await registerAs("again@example.com", "first-pass");
    await flushMail();
    state.app.mails.length = 0;
    const again = await registerAs("again@example.com", "second-pass");
    const unknown = await registerAs("brand-new@example.com", "second-pass");
    for (const answer of [again, unknown]) {
      expect(answer.status).toBe(fresh.status);
      expect(answer.data).toEqual(fresh.data);
    }
    expect(again.headers.get("Location")).toBe("/confirm-email?email=again%40example.com");
    const link = await linkTo("again@example.com");
    expect(state.app.mails.find((m) => m.to === "again@example.com")!.subject).toBe(
      "Confirm your ForgeKit account and choose your password",
    );
    expect(link.pathname).toBe("/email-confirmation");
    // The password typed the second time is not kept; the owner chooses one from the link.
    expect((await post(link, { intent: "sign-in", password: "second-pass" })).status).toBe(401);
    const set = await post(link, { intent: "set-password", password: "owner-pass", confirm: "owner-pass" });
    expect(set.status).toBe(302);
    expect((await signIn("again@example.com", "first-pass")).status).toBe(401);
  });

  it("a bad or changed token is refused with a next step, never a 500", async () => {
    expect((await page(new URL("http://x/email-confirmation?token=nonsense"))).data.view).toEqual({
      kind: "closed",
      message: C.invalid,
    });
    expect((await page(new URL("http://x/email-confirmation"))).status).toBe(404);
    await registerAs("tamper@example.com");
    const link = await linkTo("tamper@example.com");
    link.searchParams.set("token", `${link.searchParams.get("token")}x`);
    expect((await post(link, { intent: "sign-in", password: newUser.password })).status).toBe(410);
  });
});
