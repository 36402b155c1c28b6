import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as successRoute from "~/routes/success";
import { createPlanCheckout } from "~/server/billing/create-checkout.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { checkouts, licenses, payments, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { demoPurchase } from "../../support/checkout";
import { call, getRequest, routeArgs } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("the success page on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let userCookie: string;
  let adminCookie: string;
  let user: { id: string; email: string };
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
    const [row] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    user = { id: row!.id, email: row!.email };
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });

  const load = (query: string, cookie: string) =>
    call(() => successRoute.loader(routeArgs(getRequest(`/success${query}`, cookie))));
  const forTransaction = (id: string, cookie: string) => load(`?transactionId=${encodeURIComponent(id)}`, cookie);

  it("the user's own payment: the transaction id, the amount and the license with its key", async () => {
    const [payment] = await app.database.db.select().from(payments).where(eq(payments.user_id, user.id));
    const [license] = await app.database.db.select().from(licenses).where(eq(licenses.id, payment!.license_id));
    const page = await forTransaction(payment!.id, userCookie);
    expect(page.status).toBe(200);
    expect(page.data.view).toMatchObject({
      kind: payment!.amount_cents === 0 && license!.is_trial ? "trial-started" : "paid",
      transactionId: payment!.id,
      amountCents: payment!.amount_cents,
      license: {
        short_id: license!.short_id,
        license_type: license!.license_type,
        end_date: license!.end_date.toISOString(),
        is_trial: license!.is_trial,
      },
    });
  });

  it("a $0 trial: the trial started, when the first charge comes, the new license's short id and key", async () => {
    await app.database.db.update(checkouts).set({ status: "superseded" }).where(eq(checkouts.user_id, user.id));
    const { transactionId, subscriptionId } = await demoPurchase(app.database.db, demo, user, "monthly", {
      trial: true,
    });
    const [license] = await app.database.db
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, subscriptionId));
    const page = await forTransaction(transactionId, userCookie);
    expect(page.data.view).toEqual({
      kind: "trial-started",
      transactionId,
      amountCents: 0,
      currency: "USD",
      license: {
        short_id: license!.short_id,
        license_type: "monthly",
        end_date: license!.end_date.toISOString(),
        is_trial: true,
        license_key: license!.license_key,
      },
      firstCharge: { at: license!.trial_ends_at!.toISOString(), cents: 900, currency: "USD" },
      // A personal trial, not a team's seats.
      team: null,
    });
  });

  it("another user's transaction, an unknown one and none at all: the generic page, nothing about a payment", async () => {
    const [payment] = await app.database.db.select().from(payments).where(eq(payments.user_id, user.id));
    const foreign = await forTransaction(payment!.id, adminCookie);
    expect(foreign.status).toBe(200);
    expect(foreign.data.view).toEqual({ kind: "generic" });
    expect(JSON.stringify(foreign.data)).not.toContain(payment!.id);
    expect((await forTransaction("txn_unknown", userCookie)).data.view).toEqual({ kind: "generic" });
    expect((await forTransaction("x".repeat(500), userCookie)).data.view).toEqual({ kind: "generic" });
    expect((await load("", userCookie)).data.view).toEqual({ kind: "generic" });
  });

  it("the user's own checkout before its payment is confirmed: confirming, with its id; another user's: generic", async () => {
    await app.database.db.update(checkouts).set({ status: "superseded" }).where(eq(checkouts.user_id, user.id));
    const checkout = await createPlanCheckout({ userId: user.id, email: user.email, planId: "yearly" });
    const own = await forTransaction(checkout.transactionId, userCookie);
    expect(own.data.view).toEqual({ kind: "confirming", transactionId: checkout.transactionId, trial: false });
    expect((await forTransaction(checkout.transactionId, adminCookie)).data.view).toEqual({ kind: "generic" });
  });

  it("sends a signed-out visitor to log in and back", async () => {
    const page = await load("?transactionId=txn_1", "");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login?redirectTo=%2Fsuccess%3FtransactionId%3Dtxn_1");
  });
});
