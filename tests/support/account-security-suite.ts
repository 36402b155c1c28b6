import { afterAll, beforeAll, beforeEach } from "vitest";
import { flushMail } from "~/server/mail/outbox.server";
import { seedDemoData } from "~/server/seed.server";
import { accountSteps } from "./account-steps";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

/**
 * What the account security suites (two-factor; password, sessions, export and deletion) share, for
 * a `describe` of one engine: a test app with the demo data (`state.app` once started), its mails
 * forgotten before each test, and the account steps a person takes (account-steps.ts).
 */
export function accountSecuritySuite(engine: EngineName) {
  const state = {} as { app: TestApp };
  const db = () => state.app.database.db;
  beforeAll(async () => {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(db());
  });
  afterAll(async () => state.app?.close());
  beforeEach(async () => {
    await flushMail();
    state.app.mails.length = 0;
  });
  return { state, db, ...accountSteps(() => state.app, engine) };
}
