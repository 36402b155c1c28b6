import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { audit_log, checkouts, licenses, type payments, type webhook_events } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { days, envelope, signed, transaction } from "./paddle-fixtures";
import { createUser, startTestApp, type EngineName, type TestApp } from "./test-app";

/** The secret the payment webhook tests' events are signed with (the site's DEMO_WEBHOOK_SECRET). */
export const SECRET = "whsec_test_secret_0123456789";

/**
 * The payment webhook tests' app (tests/integration/billing/payment-webhook-*.test.ts and the outbound
 * event sources): a test app whose webhooks are checked against SECRET and no payment provider. The test
 * file runs `startApp` before its tests, `stopApp` after them and `newBuyer` before each: the follow-ups
 * of the earlier tests run and a new buyer is made. `user` is that buyer (the same object, refilled
 * before each test); the helpers build events (renewals, extensions), deliver them and read what they did.
 */
export function paymentWebhookApp(engine: EngineName) {
  let app: TestApp;
  const user = { id: "", email: "" };
  let n = 0;
  const nextNumber = () => ++n;
  async function startApp() {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET });
    setPaymentProvider(undefined);
  }
  const stopApp = async () => app?.close();
  async function newBuyer() {
    // Follow-ups queued by earlier tests run now (against the demo provider): each test sees its own.
    await drainJobs();
    Object.assign(user, await createUser(app.database.db, `buyer-${engine}-${nextNumber()}@example.com`));
  }

  const db = () => app.database.db;
  /** Delivers an event signed with `signWith` at `signedAt`; the handler checks it against SECRET. */
  const deliver = (event: unknown, signWith = SECRET, signedAt = new Date()) =>
    receiveWebhook({ ...signed(signWith, event, signedAt), secret: SECRET });
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0];
  const count = async (table: typeof licenses | typeof webhook_events | typeof payments) =>
    (
      (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(table)) as { n: number }[]
    )[0]!.n;

  /** The checkout row the server records when it creates a checkout with the provider. */
  const recordCheckout = (values: Partial<typeof checkouts.$inferInsert> & { transaction_id: string }) =>
    db()
      .insert(checkouts)
      .values({ user_id: user.id, kind: "plan", plan_type: "monthly", amount_cents: 0, status: "open", ...values })
      .returning()
      .then((rows) => rows[0]!);
  /** The checkout row of an extension the site created (a month for $9 unless `values` say otherwise). */
  const recordExtensionCheckout = (transactionId: string, licenseId: string, values: CheckoutValues = {}) =>
    recordCheckout(extensionCheckout(transactionId, licenseId, values));
  /** The renewal of a purchase's subscription, $9, for the period from `start` (30 days unless `end`). */
  const renewalOf = (txn: { subscription_id: string | null }, start: Date, end = days(30, start)) =>
    renewalFor(user.id, txn.subscription_id, start, end);
  /** An extension's payment for a license, through the site's own one-time checkout. */
  const extensionOf = (licenseId: string, amountCents: number, period: { months?: number; years?: number } = {}) =>
    extensionPayment(user.id, licenseId, amountCents, period);
  const auditActions = async () =>
    (await db().select({ action: audit_log.action, target: audit_log.target_id }).from(audit_log)).map((r) => r.action);

  /**
   * A purchase: the checkout's transaction.completed for a new subscription. A trial goes through
   * the trial checkout the server created for this first-time buyer (unless `checkout: false`).
   */
  async function purchase(options: { trial?: boolean; planType?: string; start?: Date; checkout?: boolean } = {}) {
    const start = options.start ?? new Date();
    const trial = options.trial ?? false;
    const txn = transaction({
      userId: user.id,
      planType: options.planType ?? "monthly",
      priceId: trial ? "pri_demo_monthly_trial" : undefined,
      amountCents: trial ? 0 : 900,
      start,
      end: trial ? days(7, start) : days(30, start),
      trial,
    });
    if (trial && options.checkout !== false)
      await recordCheckout({ transaction_id: txn.id, trial: true, price_id: "pri_demo_monthly_trial" });
    const result = await deliver(envelope("transaction.completed", txn));
    expect(result.status).toBe(200);
    return { txn, license: (await licenseOf(txn.subscription_id!))! };
  }

  return {
    startApp,
    stopApp,
    newBuyer,
    db,
    user,
    nextNumber,
    deliver,
    licenseOf,
    count,
    recordCheckout,
    recordExtensionCheckout,
    auditActions,
    purchase,
    renewalOf,
    extensionOf,
  };
}

type CheckoutValues = Omit<Partial<typeof checkouts.$inferInsert>, "transaction_id">;

/** An extension's checkout row: a month for $9 unless `values` say otherwise. */
function extensionCheckout(
  transactionId: string,
  licenseId: string,
  values: CheckoutValues,
): CheckoutValues & { transaction_id: string } {
  return {
    transaction_id: transactionId,
    kind: "extension",
    plan_type: null,
    license_id: licenseId,
    months: 1,
    amount_cents: 900,
    ...values,
  };
}

/** A subscription's renewal transaction, $9, for the period from `start` to `end`. */
function renewalFor(userId: string, subscriptionId: string | null, start: Date, end: Date) {
  return transaction({ userId, subscriptionId, amountCents: 900, start, end, origin: "subscription_recurring" });
}

/** An extension's payment for a license, through the site's own one-time checkout. */
function extensionPayment(userId: string, licenseId: string, amountCents: number, { months = 1, years = 0 }) {
  return transaction({
    userId,
    subscriptionId: null,
    amountCents,
    start: new Date(),
    end: null,
    origin: "api",
    customData: { kind: "extension", user_id: userId, license_id: licenseId, months, years },
  });
}
