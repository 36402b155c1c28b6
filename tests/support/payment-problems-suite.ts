import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { envelope, signed, subscription, transaction } from "./paddle-fixtures";
import { signInCookie } from "./route-call";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 86_400_000;

/**
 * What the payment-problem suites share, for a `describe` of one engine: a test app with the demo
 * data and the demo provider (`state` holds the app, the provider, the demo customer and both demo
 * cookies), Paddle-shaped events through the webhook handler, and a license bought a month ago.
 */
export function paymentProblemsSuite(engine: EngineName) {
  const state = {} as {
    app: TestApp;
    demo: DemoProvider;
    user: { id: string; email: string };
    userCookie: string;
    adminCookie: string;
  };
  beforeAll(async () => {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(state.app.database.db);
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
    state.userCookie = await signInCookie(USER!.email, USER!.password);
    state.adminCookie = await signInCookie(ADMIN!.email, ADMIN!.password);
    const [row] = await state.app.database.db.select().from(users).where(eq(users.email, USER!.email));
    state.user = { id: row!.id, email: row!.email };
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await state.app?.close();
  });

  const db = () => state.app.database.db;
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;
  /** A Paddle-shaped event, signed with the demo secret, through the webhook handler. */
  const deliver = (event: ReturnType<typeof envelope>) =>
    receiveWebhook({ ...signed(state.app.env.DEMO_WEBHOOK_SECRET, event), secret: state.app.env.DEMO_WEBHOOK_SECRET });
  /** A monthly license bought 30 days ago through Paddle-shaped events, its period ending now. */
  async function boughtMonthAgo() {
    const start = new Date(Date.now() - 30 * DAY);
    const end = new Date(Date.now() - 1000);
    const txn = transaction({ userId: state.user.id, amountCents: 900, start, end });
    expect((await deliver(envelope("transaction.completed", txn, start))).status).toBe(200);
    const subscriptionId = txn.subscription_id!;
    const renewal = (status: string) => ({
      ...transaction({
        userId: state.user.id,
        subscriptionId,
        amountCents: 900,
        start: end,
        end: new Date(end.getTime() + 30 * DAY),
        origin: "subscription_recurring",
      }),
      status,
    });
    const sub = (status: "active" | "past_due") =>
      subscription({
        subscriptionId,
        userId: state.user.id,
        status,
        start: end,
        end: new Date(end.getTime() + 30 * DAY),
      });
    return { subscriptionId, renewal, sub, end };
  }

  return { state, db, licenseOf, deliver, boughtMonthAgo };
}
