import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { EMAIL_CHANGE_TEXTS as E } from "~/domain/email-change-texts";
import * as emailChange from "~/routes/email-change";
import * as profile from "~/routes/profile";
import { getCurrentSession } from "~/server/auth/session.server";
import { accounts, email_change_links, sessions, users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { call, formRequest, getRequest } from "../../support/route-call";
import { linkIn, testEngines } from "../../support/test-app";
import { accountSteps, MEMBER_PASSWORD } from "../../support/account-steps";
import { accountsApp, args } from "../../support/accounts-app";

// A stolen session is not an account (decision 0059).
describe.each(testEngines())("changing the e-mail address on %s", (engine) => {
  const { startApp, stopApp, forgetMails, state, ip } = accountsApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(forgetMails);
  const steps = accountSteps(() => state.app, engine);
  const db = () => state.app.database.db;

  const save = (cookie: string, fields: Record<string, string>) =>
    call(() => profile.action(args(formRequest("/profile", { full_name: "Mia Member", ...fields }, cookie), ip())));
  const emailOf = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!.email;
  const signedIn = async (cookie: string) => (await getCurrentSession(getRequest("/", cookie))).user !== null;
  async function mailTo(to: string) {
    await flushMail();
    const mail = state.app.mails.filter((m) => m.to === to).at(-1);
    expect(mail, `an e-mail to ${to}`).toBeDefined();
    return { mail: mail!, link: new URL(linkIn(mail)) };
  }
  const open = (link: URL) => call(() => emailChange.loader(args(getRequest(link.pathname + link.search))));
  const follow = (link: URL) =>
    call(() =>
      emailChange.action(args(formRequest("/email-change", { token: link.searchParams.get("token")! }), ip())),
    );

  it("a session without the password cannot change the address, and nothing is sent", async () => {
    const mia = await steps.member("stolen");
    const none = await save(mia.cookie, { email: "thief@example.com" });
    expect(none.status).toBe(403);
    expect(none.data.fieldErrors.currentPassword).toEqual([E.passwordRequired]);
    const wrong = await save(mia.cookie, { email: "thief@example.com", currentPassword: "guess-1" });
    expect(wrong.status).toBe(403);
    expect(wrong.data.fieldErrors.currentPassword).toEqual([A.passwordWrong]);
    await flushMail();
    expect(state.app.mails).toHaveLength(0);
    expect(await db().select().from(email_change_links).where(eq(email_change_links.user_id, mia.id))).toHaveLength(0);
    expect(await emailOf(mia.id)).toBe(mia.email);
    // Names alone still save with the session (the password is asked for the address only).
    expect((await save(mia.cookie, { full_name: "Mia M.", email: mia.email })).status).toBe(200);
  });

  it("an account without a password (GitHub / Google only) changes it only within 5 minutes of signing in", async () => {
    const gus = await steps.member("no-password");
    await db()
      .delete(accounts)
      .where(and(eq(accounts.userId, gus.id), eq(accounts.providerId, "credential")));
    const fresh = await save(gus.cookie, { email: "gus.new@example.com" });
    expect(fresh.status).toBe(200);
    expect(fresh.data.pendingEmail).toBe("gus.new@example.com");
    // The same session, signed in ten minutes ago: a stolen session is too old to change it.
    await db()
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(sessions.userId, gus.id));
    const stale = await save(gus.cookie, { email: "thief@example.com" });
    expect(stale.status).toBe(403);
    expect(stale.data.fieldErrors.currentPassword).toEqual([E.freshSignInRequired]);
    expect(await emailOf(gus.id)).toBe(gus.email);
  });

  it("the change ends the other sessions, tells the old address with an undo link; undo restores it and ends every session", async () => {
    const mia = await steps.member("mover");
    const laptop = (await steps.passwordStep(mia.email, MEMBER_PASSWORD)).cookie;
    const asked = await save(mia.cookie, { email: "mia.new@example.com", currentPassword: MEMBER_PASSWORD });
    expect(asked.status).toBe(200);
    expect(asked.data.pendingEmail).toBe("mia.new@example.com");
    expect(await emailOf(mia.id)).toBe(mia.email);

    const confirm = await mailTo("mia.new@example.com");
    expect(confirm.link.pathname).toBe("/email-change");
    // Opening the link changes nothing (a mail scanner's visit); the button does.
    expect((await open(confirm.link)).data.view).toMatchObject({ kind: "open", link: "confirm" });
    expect(await emailOf(mia.id)).toBe(mia.email);
    const done = await follow(confirm.link);
    expect(done.data.view).toEqual({ kind: "confirmed", newEmail: "mia.new@example.com" });
    expect(await emailOf(mia.id)).toBe("mia.new@example.com");
    expect(await signedIn(mia.cookie)).toBe(true);
    expect(await signedIn(laptop)).toBe(false);
    expect((await follow(confirm.link)).data.view).toMatchObject({ kind: "closed", message: E.used });

    const notice = await mailTo(mia.email);
    expect(notice.mail.subject).toBe("Your ForgeKit e-mail address was changed");
    expect(notice.mail.text).toContain("mia.new@example.com");
    expect(notice.mail.text).toContain("7 days");
    expect(notice.link.pathname).toBe("/email-change");
    const [undoRow] = await db()
      .select()
      .from(email_change_links)
      .where(eq(email_change_links.kind, "undo"))
      .orderBy(email_change_links.created_at);
    const days = (undoRow!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    expect((await open(notice.link)).data.view).toMatchObject({ kind: "open", link: "undo", oldEmail: mia.email });
    const undone = await follow(notice.link);
    expect(undone.data.view).toEqual({ kind: "undone", oldEmail: mia.email });
    expect(await emailOf(mia.id)).toBe(mia.email);
    expect(await signedIn(mia.cookie)).toBe(false);
    const again = await follow(notice.link);
    expect(again.status).toBe(410);
    expect(again.data.view).toMatchObject({ kind: "closed", link: "undo", message: E.used });
  });

  it("an undo puts the old address back even after a second change, and closes that change's undo", async () => {
    const mia = await steps.member("chain");
    await save(mia.cookie, { email: "chain-b@example.com", currentPassword: MEMBER_PASSWORD });
    await follow((await mailTo("chain-b@example.com")).link);
    const firstUndo = (await mailTo(mia.email)).link;
    await save(mia.cookie, { email: "chain-c@example.com", currentPassword: MEMBER_PASSWORD });
    await follow((await mailTo("chain-c@example.com")).link);
    const secondUndo = (await mailTo("chain-b@example.com")).link;
    expect((await follow(firstUndo)).data.view).toEqual({ kind: "undone", oldEmail: mia.email });
    expect(await emailOf(mia.id)).toBe(mia.email);
    expect((await follow(secondUndo)).data.view).toMatchObject({ kind: "closed", message: E.used });
    expect(await emailOf(mia.id)).toBe(mia.email);
  });

  it("expired and unknown links say so with a next step", async () => {
    const mia = await steps.member("late");
    await save(mia.cookie, { email: "late-new@example.com", currentPassword: MEMBER_PASSWORD });
    const { link } = await mailTo("late-new@example.com");
    await db()
      .update(email_change_links)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(email_change_links.user_id, mia.id));
    const late = await follow(link);
    expect(late.status).toBe(410);
    expect(late.data.view).toMatchObject({ kind: "closed", link: "confirm", message: E.expired });
    expect(await emailOf(mia.id)).toBe(mia.email);
    const unknown = await open(new URL("http://x/email-change?token=nothing-like-it"));
    expect(unknown.status).toBe(404);
    expect(unknown.data.view).toMatchObject({ kind: "closed", link: null, message: E.unknown });
  });
});
