import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as profile from "~/routes/profile";
import * as reminders from "~/routes/profile.reminders";
import { users } from "~/server/db/schema";
import { readToast } from "~/http/toast.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const USER = DEMO_ACCOUNTS[1]!;

describe.each(testEngines())("turning reminder e-mails off on the profile, on %s", (engine) => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(app.database.db);
    cookie = await signInCookie(USER.email, USER.password);
  });
  afterAll(async () => app?.close());

  const stored = async () =>
    (await app.database.db.select({ on: users.reminder_emails }).from(users).where(eq(users.email, USER.email)))[0]!.on;
  const post = (fields: Record<string, string>, as = cookie) =>
    call(() => reminders.action(routeArgs(formRequest("/profile/reminders", fields, as))));
  const toastOf = async (headers: Headers) => {
    const setCookie = headers.get("Set-Cookie")!;
    return (await readToast(new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0]! } }))).toast;
  };

  it("reminders are on for a new account, and the profile page says so", async () => {
    expect(await stored()).toBe(true);
    const page = await call(() => profile.loader(routeArgs(getRequest("/profile", cookie))));
    expect(page.data.reminderEmails).toBe(true);
  });

  it("an unchecked box turns them off, with a toast, back on /profile", async () => {
    const result = await post({});
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/profile");
    expect(await toastOf(result.headers)).toMatchObject({ title: "Reminder e-mails are off", variant: "success" });
    expect(await stored()).toBe(false);
    const page = await call(() => profile.loader(routeArgs(getRequest("/profile", cookie))));
    expect(page.data.reminderEmails).toBe(false);
  });

  it("a checked box turns them on again", async () => {
    const result = await post({ reminder_emails: "on" });
    expect(result.status).toBe(302);
    expect(await toastOf(result.headers)).toMatchObject({ title: "Reminder e-mails are on" });
    expect(await stored()).toBe(true);
  });

  it("a value the checkbox cannot send is refused with a 400 and a message, and nothing changes", async () => {
    const result = await post({ reminder_emails: "maybe" });
    expect(result.status).toBe(400);
    expect(result.data.toast).toMatchObject({ variant: "destructive" });
    expect(result.data.fieldErrors.form[0]).toBe("Choose whether to receive reminder e-mails.");
    expect(await stored()).toBe(true);
  });

  it("a body that is not a form is a 400, not a 500", async () => {
    const request = new Request("http://localhost:3000/profile/reminders", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie, Origin: "http://localhost:3000" },
      body: "{}",
    });
    const result = await call(() => reminders.action(routeArgs(request)));
    expect(result.status).toBe(400);
  });

  it("signed out, it redirects to /login and changes nothing", async () => {
    const result = await post({}, "");
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toMatch(/^\/login/);
    expect(await stored()).toBe(true);
  });

  it("a GET goes to the profile page", async () => {
    const result = await call(() => reminders.loader(routeArgs(getRequest("/profile/reminders", cookie))));
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/profile");
  });
});
