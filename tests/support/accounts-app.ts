import { eq } from "drizzle-orm";
import * as login from "~/routes/login";
import { users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { seedDemoData } from "~/server/seed.server";
import { call, cookieFrom, formRequest, testContext } from "./route-call";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

// The accounts tests' app (registration, sign-in, confirmation, password, profile, e-mail change).

/** Route args as React Router passes them (the generated per-route types differ only in name). */
export const args = (request: Request, ip?: string): any => ({ request, context: testContext(ip), params: {} });

/** The registration form of the accounts tests' new user. */
export const newUser = {
  full_name: "Grace Hopper",
  email: "grace@example.com",
  password: "cobol1959",
  company_name: "",
  terms: "on",
};

/**
 * A test app with the demo data for a `describe` of one engine (`state.app` once started), and a
 * client address of its own for each call so the rate limits of one test do not touch another. The
 * test file runs `startApp` before its tests, `stopApp` after them and `forgetMails` before each.
 */
export function accountsApp(engine: EngineName) {
  const state = {} as { app: TestApp };
  let ipCounter = 0;
  const ip = () => `198.51.100.${++ipCounter}`;

  async function startApp() {
    state.app = await startTestApp(engine);
    await seedDemoData(state.app.database.db);
  }
  const stopApp = async () => state.app?.close();
  /** The mails of earlier tests sent and forgotten. */
  async function forgetMails() {
    await flushMail();
    state.app.mails.length = 0;
  }

  async function confirm(email: string) {
    await state.app.database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  }

  async function signIn(email: string, password: string) {
    const result = await call(() =>
      login.action(args(formRequest("/login", { email, password, redirectTo: "/" }), ip())),
    );
    return { ...result, cookie: cookieFrom(result.headers) };
  }

  return { startApp, stopApp, forgetMails, state, ip, confirm, signIn };
}
