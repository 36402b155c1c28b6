import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, type License } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import type { Env } from "~/server/env.server";
import type { MailMessage } from "~/server/mail/mailer.server";
import { scanReminders } from "~/server/mail/reminders.server";
import { days, envelope, signed, transaction } from "./paddle-fixtures";
import { stubPaymentProvider } from "./stub-provider";
import { createUser, startTestApp, type EngineName, type TestApp } from "./test-app";

// What the customer e-mail tests start from: a test app whose webhooks are signed with SECRET and whose
// links point at SITE, a fresh customer before each test, purchases through the webhook, and the
// checks every customer e-mail must pass.

export const SECRET = "whsec_customer_mail_0123456789";
export const SITE = "https://forgekit.test";

/** The provider as the site's actions see it: every call agrees. */
const quietProvider = stubPaymentProvider(
  {
    cancelAtPeriodEnd: async () => {},
    removeScheduledCancel: async () => {},
    activateTrial: async () => ({ nextBilledAt: null }),
    refund: async () => ({ adjustmentId: "adj_test" }),
    createPlanCheckout: async () => ({ transactionId: "txn_test" }),
    createExtensionCharge: async () => ({ transactionId: "txn_test_ext" }),
    paymentMethodUpdate: async () => ({ transactionId: "txn_test_update" }),
    invoiceUrl: async () => null,
  },
  { name: "demo", webhookSecret: SECRET },
);

/**
 * The customer e-mail tests' app for a `describe` of one engine: `state` holds the app, this test's
 * customer and its number. The test file runs `startApp` before its tests, `stopApp` after them and
 * `newCustomer` before each (the quiet provider, earlier tests' jobs run, the mails forgotten).
 */
export function customerMailApp(engine: EngineName) {
  const state = { n: 0 } as { app: TestApp; user: { id: string; email: string }; n: number };
  async function startApp() {
    state.app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET, PUBLIC_URL: SITE });
  }
  const stopApp = async () => state.app?.close();
  async function newCustomer() {
    setPaymentProvider(quietProvider);
    await drainJobs();
    state.app.mails.length = 0;
    state.user = await createUser(state.app.database.db, `mail-${engine}-${++state.n}@example.com`, {
      fullName: "Ada Buyer",
    });
  }

  const db = () => state.app.database.db;
  const deliver = async (event: unknown) => {
    const result = await receiveWebhook({ ...signed(SECRET, event), secret: SECRET });
    expect(result.status).toBe(200);
  };
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  /** The reminders a scan at `now` queued for this license (other tests' licenses are scanned too). */
  const remindersFor = async (license: License, now: Date) =>
    (await scanReminders(now)).filter((r) => r.licenseId === license.id).map((r) => r.kind);
  /** The e-mails sent about this license since the last call to sent(). */
  const about = (mails: MailMessage[], license: License) => mails.filter((m) => m.subject.includes(license.short_id));
  /** Runs the queue and returns the e-mails it sent since the last call. */
  const sent = async () => {
    await drainJobs();
    return state.app.mails.splice(0);
  };

  async function purchase(
    options: { planType?: "monthly" | "6_months" | "yearly"; amountCents?: number; start?: Date; trial?: boolean } = {},
  ) {
    const start = options.start ?? new Date();
    const trial = options.trial ?? false;
    const planType = options.planType ?? "monthly";
    const length = { monthly: 30, "6_months": 182, yearly: 365 }[planType];
    const txn = transaction({
      userId: state.user.id,
      planType,
      priceId: trial ? "pri_demo_monthly_trial" : undefined,
      amountCents: trial ? 0 : (options.amountCents ?? 900),
      start,
      end: trial ? days(7, start) : days(length, start),
      trial,
    });
    if (trial) {
      await db().insert(checkouts).values({
        user_id: state.user.id,
        kind: "plan",
        plan_type: planType,
        amount_cents: 0,
        status: "open",
        transaction_id: txn.id,
        trial: true,
        price_id: "pri_demo_monthly_trial",
      });
    }
    const event = envelope("transaction.completed", txn);
    await deliver(event);
    return { txn, event, license: await licenseOf(txn.subscription_id!) };
  }

  /** What every customer e-mail has: product, short id, the page's absolute link, both parts, no secret. */
  const expectWellFormed = (mail: MailMessage | undefined, license: License, path: string) =>
    expectWellFormedMail(mail, { to: state.user.email, env: state.app.env }, license, path);

  return {
    startApp,
    stopApp,
    newCustomer,
    state,
    db,
    deliver,
    licenseOf,
    reload,
    remindersFor,
    about,
    sent,
    purchase,
    expectWellFormed,
  };
}

/** What every customer e-mail to `to` has: product, short id, the page's absolute link, both parts, no secret. */
function expectWellFormedMail(
  mail: MailMessage | undefined,
  { to, env }: { to: string; env: Env },
  license: License,
  path: string,
) {
  expect(mail).toBeDefined();
  const { subject, html, text } = mail!;
  expect(mail!.to).toBe(to);
  expect(subject).toContain("ForgeKit");
  expect(subject).toContain(license.short_id);
  for (const part of [html, text]) {
    expect(part).toContain("ForgeKit");
    expect(part).toContain(license.short_id);
    expect(part).not.toMatch(/password|token=|secret/i);
    for (const secret of [SECRET, env.BETTER_AUTH_SECRET, env.LICENSE_SECRET].filter(Boolean))
      expect(part).not.toContain(secret);
  }
  expect(html).toMatch(/^<!DOCTYPE html/i);
  expect(html).toContain(`href="${SITE}${path}"`);
  expect(text).toContain(`${SITE}${path}`);
  expect(text).not.toMatch(/<[a-z]+[\s>]/i);
}
