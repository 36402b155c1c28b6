import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CANCEL_NOTE_MAX, LEAVING_ERRORS } from "~/domain/retention-offer";
import * as licensesRoute from "~/routes/licenses";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { audit_log, cancel_answers, demo_billing, licenses, payments, users, type License } from "~/server/db/schema";
import { setEnv } from "~/server/env.server";
import { LEAVING_TEXTS } from "~/server/licenses/leaving.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

// Leaving (decision 0065): the cancel step asks why and makes the license's one offer; declining
// cancels as before, taking it keeps the renewal with the offer; bad answers change nothing.

const [, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("cancelling renewal with a reason and an offer on %s", (engine) => {
  const state = {} as { app: TestApp; cookie: string; userId: string; demo: DemoProvider };
  const db = () => state.app.database.db;
  const baseEnv = () => state.app.env;

  beforeAll(async () => {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
  });
  afterAll(async () => state.app?.close());
  beforeEach(async () => {
    setEnv(baseEnv());
    await db().delete(users).where(eq(users.email, USER.email));
    await db().delete(demo_billing);
    await seedDemoData(db());
    state.userId = (await db().select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    state.cookie = await signInCookie(USER.email, USER.password);
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
  });

  const post = (fields: Record<string, string>) =>
    call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, state.cookie))));
  const bySubscription = async (id: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, id)))[0]!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const answersOf = (license: License) =>
    db().select().from(cancel_answers).where(eq(cancel_answers.license_id, license.id));
  const offerOnCard = async (license: License) => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.cookie))));
    const cards = page.data.licenses as { id: string; retention_offer: { kind: string; to?: string } | null }[];
    return cards.find((card) => card.id === license.id)!.retention_offer;
  };
  /** The error toast's words (the action's answer without JavaScript shows the same). */
  const said = (result: { data: unknown }) => (result.data as { toast?: { description?: string } }).toast?.description;
  const withDiscount = () =>
    setEnv({ ...baseEnv(), RETENTION_DISCOUNT_ID: "dsc_demo_stay", RETENTION_DISCOUNT_PERCENT: 20 });

  it("a monthly license without a discount configured has no offer; cancelling records the reason and note", async () => {
    const monthly = await bySubscription("sub_demo_seed_renewing");
    expect(await offerOnCard(monthly)).toBeNull();
    const result = await post({
      intent: "cancel-renewal",
      licenseId: monthly.id,
      reason: "too-expensive",
      note: "Budget cuts this year.",
    });
    expect(result.status).toBe(200);
    expect((await reload(monthly.id)).auto_renew).toBe(false);
    expect(await answersOf(monthly)).toMatchObject([
      { reason: "too-expensive", note: "Budget cuts this year.", offer: null, outcome: null },
    ]);
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, monthly.id));
    expect(audit.map((row) => row.action)).toContain("license.renewal_cancel");
  });

  it("an unknown reason or a note too long is refused with its message, and the renewal stays on", async () => {
    const monthly = await bySubscription("sub_demo_seed_renewing");
    const unknown = await post({ intent: "cancel-renewal", licenseId: monthly.id, reason: "bored" });
    expect(unknown.status).toBe(400);
    expect(said(unknown)).toBe(LEAVING_ERRORS.unknownReason("bored"));
    const long = await post({ intent: "cancel-renewal", licenseId: monthly.id, note: "x".repeat(CANCEL_NOTE_MAX + 1) });
    expect(long.status).toBe(400);
    expect(said(long)).toBe(LEAVING_ERRORS.noteTooLong);
    expect((await reload(monthly.id)).auto_renew).toBe(true);
    expect(await answersOf(monthly)).toEqual([]);
  });

  it("with a discount configured, taking it keeps the renewal, applies it at the provider, and is made once", async () => {
    withDiscount();
    const monthly = await bySubscription("sub_demo_seed_renewing");
    expect(await offerOnCard(monthly)).toMatchObject({ kind: "discount" });
    const taken = await post({ intent: "take-offer", licenseId: monthly.id, offer: "discount", reason: "not-using" });
    expect(taken.status).toBe(200);
    const after = await reload(monthly.id);
    expect(after.auto_renew).toBe(true);
    expect(after.retention_offer_outcome).toBe("taken");
    const [subscription] = await db().select().from(demo_billing).where(eq(demo_billing.id, "sub_demo_seed_renewing"));
    expect(JSON.stringify(subscription)).toContain("dsc_demo_stay");
    expect(await answersOf(monthly)).toMatchObject([{ reason: "not-using", offer: "discount", outcome: "taken" }]);
    // Once per license: no offer on the card any more, and taking it again is refused.
    expect(await offerOnCard(monthly)).toBeNull();
    const again = await post({ intent: "take-offer", licenseId: monthly.id, offer: "discount" });
    expect(again.status).toBe(409);
    expect(said(again)).toBe(LEAVING_ERRORS.offerUsed);
  });

  it("the discount taken is the next charge on the card, and the renewal after it charges the full price again", async () => {
    withDiscount();
    const monthly = await bySubscription("sub_demo_seed_renewing");
    expect((await post({ intent: "take-offer", licenseId: monthly.id, offer: "discount" })).status).toBe(200);
    expect((await reload(monthly.id)).renewal_discount_percent).toBe(20);
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.cookie))));
    const cards = page.data.licenses as { id: string; renewal_discount_percent?: number | null }[];
    expect(cards.find((card) => card.id === monthly.id)!.renewal_discount_percent).toBe(20);
    // The demo renewal takes the percent off once (as the discount from the next period does at Paddle).
    expect((await state.demo.renew("sub_demo_seed_renewing")).outcome).toBe("renewed");
    const renewed = await reload(monthly.id);
    expect(renewed.renewal_discount_percent).toBeNull();
    const [charge] = await db()
      .select()
      .from(payments)
      .where(eq(payments.license_id, monthly.id))
      .orderBy(desc(payments.billed_at))
      .limit(1);
    expect(charge).toMatchObject({ kind: "renewal", amount_cents: 720 });
  });

  it("two takers at once: the provider is asked once, the second is refused; a refusal by the provider gives it back", async () => {
    withDiscount();
    const monthly = await bySubscription("sub_demo_seed_renewing");
    const demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    let refuse = true;
    let asked = 0;
    setPaymentProvider({
      ...demo,
      applyDiscount: async (input) => {
        asked += 1;
        if (refuse) throw new ProviderError("provider down");
        await new Promise((resolve) => setTimeout(resolve, 50));
        return demo.applyDiscount(input);
      },
    });
    const refused = await post({ intent: "take-offer", licenseId: monthly.id, offer: "discount" });
    expect(refused.status).toBe(502);
    expect(said(refused)).toBe(LEAVING_TEXTS.offerFailed);
    expect((await reload(monthly.id)).retention_offer_outcome).toBeNull();
    expect(await offerOnCard(monthly)).toMatchObject({ kind: "discount" });
    refuse = false;
    asked = 0;
    const both = await Promise.all([
      post({ intent: "take-offer", licenseId: monthly.id, offer: "discount" }),
      post({ intent: "take-offer", licenseId: monthly.id, offer: "discount" }),
    ]);
    expect(both.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(asked).toBe(1);
    expect(await answersOf(monthly)).toMatchObject([{ offer: "discount", outcome: "taken" }]);
  });

  it("declining the offer cancels as before and uses it up; an offer of another kind is refused", async () => {
    withDiscount();
    const monthly = await bySubscription("sub_demo_seed_renewing");
    const wrong = await post({ intent: "take-offer", licenseId: monthly.id, offer: "cheaper-period" });
    expect(wrong.status).toBe(409);
    expect(said(wrong)).toBe(LEAVING_ERRORS.offerChanged);
    const notAnOffer = await post({ intent: "take-offer", licenseId: monthly.id, offer: "free-forever" });
    expect(notAnOffer.status).toBe(400);
    expect((await reload(monthly.id)).retention_offer_outcome).toBeNull();
    expect((await post({ intent: "cancel-renewal", licenseId: monthly.id })).status).toBe(200);
    const after = await reload(monthly.id);
    expect(after).toMatchObject({ auto_renew: false, retention_offer_outcome: "declined" });
    expect(await answersOf(monthly)).toMatchObject([{ reason: null, offer: "discount", outcome: "declined" }]);
  });

  it("a yearly license without a discount is offered the 6-month period, switched at the renewal when taken", async () => {
    const yearly = await bySubscription("sub_demo_seed_cancelling");
    expect((await post({ intent: "reenable-renewal", licenseId: yearly.id })).status).toBe(200);
    expect(await offerOnCard(yearly)).toMatchObject({ kind: "cheaper-period", to: "6_months" });
    const taken = await post({ intent: "take-offer", licenseId: yearly.id, offer: "cheaper-period" });
    expect(taken.status).toBe(200);
    const after = await reload(yearly.id);
    expect(after).toMatchObject({ auto_renew: true, plan_next_renewal: "6_months", retention_offer_outcome: "taken" });
  });

  it("a tester license has no offer to take", async () => {
    const tester = (await db().select().from(licenses).where(eq(licenses.user_id, state.userId))).find(
      (license) => license.license_type === "tester",
    )!;
    expect(await offerOnCard(tester)).toBeNull();
    const refused = await post({ intent: "take-offer", licenseId: tester.id, offer: "cheaper-period" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await reload(tester.id)).retention_offer_outcome).toBeNull();
  });
});
