import { flushMail } from "~/server/mail/outbox.server";
import { seedDemoData } from "~/server/seed.server";
import { accountSteps } from "./account-steps";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

/**
 * What the account security tests (two-factor; password, sessions, export and deletion) start from,
 * for a `describe` of one engine: a test app with the demo data (`state.app` once started) and the
 * account steps a person takes (account-steps.ts). The test file runs `startApp` before its tests,
 * `stopApp` after them and `forgetMails` before each.
 */
export function accountSecurityApp(engine: EngineName) {
  const state = {} as { app: TestApp };
  const db = () => state.app.database.db;
  async function startApp() {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(db());
  }
  const stopApp = async () => state.app?.close();
  /** The mails of earlier tests sent and forgotten. */
  async function forgetMails() {
    await flushMail();
    state.app.mails.length = 0;
  }
  return { startApp, stopApp, forgetMails, state, db, ...accountSteps(() => state.app, engine) };
}
