import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import * as licensesRoute from "~/routes/licenses";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { demo_billing, licenses, users, type License } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, routeArgs, signInCookie } from "./route-call";
import { stubPaymentProvider } from "./stub-provider";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;

/**
 * What the license self-service suites share, for a `describe` of one engine: the demo customer's
 * seeded licenses made again before each test, signed in, with the demo provider (`state` holds the
 * app, the provider, the customer's id and cookie and another user's cookie), and the calls they make.
 */
export function licenseActionsSuite(engine: EngineName) {
  const state = {} as { app: TestApp; demo: DemoProvider; userCookie: string; otherCookie: string; userId: string };

  beforeAll(async () => {
    // Every test signs in again; the sign-in limits are proven in the accounts suite.
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(state.app.database.db);
    state.userCookie = await signInCookie(USER.email, USER.password);
    state.otherCookie = await signInCookie(ADMIN.email, ADMIN.password);
    state.userId = (await state.app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
  });
  afterAll(async () => state.app?.close());
  beforeEach(async () => {
    // Fresh seeded licenses for every test: delete the user's and seed them again.
    await state.app.database.db.delete(users).where(eq(users.email, USER.email));
    await state.app.database.db.delete(demo_billing);
    await seedDemoData(state.app.database.db);
    state.userId = (await state.app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    state.userCookie = await signInCookie(USER.email, USER.password);
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
  });

  const db = () => state.app.database.db;
  const seeded = async (test: (l: License) => boolean) =>
    (await db().select().from(licenses).where(eq(licenses.user_id, state.userId))).find(test)!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const post = (fields: Record<string, string>, cookie = state.userCookie) =>
    call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, cookie))));
  const renewing = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_renewing");
  const tester = () => seeded((l) => l.license_type === "tester");
  /** A provider whose every call fails, as Paddle's API would when down. */
  const failingProvider = () =>
    stubPaymentProvider({}, { name: "demo", fail: () => new ProviderError("Paddle is down") });

  return { state, db, seeded, reload, post, renewing, tester, failingProvider };
}
