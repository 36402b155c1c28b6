import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DISCOUNT_ERRORS } from "~/domain/discount-codes";
import { CHECKOUT_ERRORS } from "~/lib/checkout";
import * as pricingRoute from "~/routes/pricing";
import { getUserDetails } from "~/server/admin/user-details.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, payments } from "~/server/db/schema";
import { givePassword } from "../../support/team";
import { days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const PASSWORD = "correct horse battery";

/** Paddle's discount entity as GET /discounts answers it (API reference, "Discount entity"). */
function paddleDiscount(parts: Record<string, unknown> = {}) {
  return {
    id: "dsc_01gtgztp8fpchantd5g1wrksa3",
    status: "active",
    description: "Spring sale",
    enabled_for_checkout: true,
    code: "SPRING25",
    type: "percentage",
    mode: "standard",
    amount: "25",
    currency_code: null,
    recur: false,
    maximum_recurring_intervals: null,
    usage_limit: 100,
    restrict_to: null,
    expires_at: "2099-01-01T00:00:00Z",
    custom_data: null,
    times_used: 7,
    discount_group_id: null,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    import_meta: null,
    ...parts,
  };
}
const meta = { request_id: "req_1" };
const listOf = (data: unknown[]) => ({
  data,
  meta: { ...meta, pagination: { per_page: 1, next: "x", has_more: false, estimated_total: data.length } },
});

describe.each(testEngines())("discount codes at checkout on %s", (engine) => {
  let app: TestApp;
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(() => {
    setPaymentProvider(connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null }));
  });

  const db = () => app.database.db;
  async function customer() {
    const user = await createUser(db(), `discount-${engine}-${++n}@example.com`);
    await givePassword(db(), user.id, PASSWORD);
    return { ...user, cookie: await signInCookie(user.email, PASSWORD) };
  }
  const post = (fields: Record<string, string>, cookie: string) =>
    call(() => pricingRoute.action(routeArgs(formRequest("/pricing", fields, cookie))));
  const checkoutsOf = (userId: string) => db().select().from(checkouts).where(eq(checkouts.user_id, userId));
  const licensesOf = (userId: string) => db().select().from(licenses).where(eq(licenses.user_id, userId));

  it("demo: WELCOME20 from the checkout to the license; the payment and the admin's row name the code", async () => {
    const buyer = await customer();
    const created = await post({ intent: "checkout", plan: "monthly", discountCode: " welcome20 " }, buyer.cookie);
    expect(created.status).toBe(200);
    // A code is bought without the trial, at the discounted first charge (decision 0073).
    expect(created.data.checkout).toMatchObject({
      planId: "monthly",
      trial: false,
      dueTodayCents: 720,
      priceCents: 900,
      discount: { code: "WELCOME20", type: "percentage", amount: "20" },
    });
    const [row] = await checkoutsOf(buyer.id);
    expect(row).toMatchObject({ trial: false, amount_cents: 720, price_id: "pri_demo_monthly" });
    const transactionId = created.data.checkout.transactionId;
    expect((await post({ intent: "demo-pay", transactionId }, buyer.cookie)).status).toBe(200);
    const [license] = await licensesOf(buyer.id);
    expect(license).toMatchObject({ license_type: "monthly", is_trial: false });
    const [payment] = await db().select().from(payments).where(eq(payments.id, transactionId));
    expect(payment).toMatchObject({
      amount_cents: 720,
      discount_id: "dsc_demo_welcome20",
      discount_code: "WELCOME20",
    });
    const details = await getUserDetails(buyer.id);
    expect(details!.payments[0]).toMatchObject({ id: transactionId, discount_code: "WELCOME20" });
  });

  it("demo: SAVE5 takes $5 off the first charge", async () => {
    const buyer = await customer();
    const created = await post({ intent: "checkout", plan: "6_months", discountCode: "SAVE5" }, buyer.cookie);
    expect(created.data.checkout).toMatchObject({ trial: false, dueTodayCents: 4950 - 500 });
  });

  it("bad codes: each a 400 naming the problem, and nothing recorded or changed", async () => {
    const buyer = await customer();
    // The buyer already has a trial checkout open and a license: neither changes.
    const open = await post({ intent: "checkout", plan: "monthly" }, buyer.cookie);
    const before = { checkouts: await checkoutsOf(buyer.id), licenses: await licensesOf(buyer.id) };
    const cases: [string, string, Record<string, string>?][] = [
      ["A".repeat(33), DISCOUNT_ERRORS.tooLong],
      ["SPRING-10", DISCOUNT_ERRORS.badCharacters],
      ["ÉTÉ", DISCOUNT_ERRORS.badCharacters],
      ["<script>", DISCOUNT_ERRORS.badCharacters],
      ["NOSUCHCODE", DISCOUNT_ERRORS.unknown("NOSUCHCODE")],
      ["demoexpired", DISCOUNT_ERRORS.expired("DEMOEXPIRED")],
      ["DEMOUSEDUP", DISCOUNT_ERRORS.usedUp("DEMOUSEDUP")],
      ["WELCOME20", DISCOUNT_ERRORS.team, { seats: "3" }],
    ];
    for (const [code, error, extra] of cases) {
      const result = await post({ intent: "checkout", plan: "monthly", discountCode: code, ...extra }, buyer.cookie);
      expect({ code, status: result.status, data: result.data }).toEqual({ code, status: 400, data: { error } });
    }
    expect(await checkoutsOf(buyer.id)).toEqual(before.checkouts);
    expect(await licensesOf(buyer.id)).toEqual(before.licenses);
    // The trial checkout still opens as it was.
    const again = await post({ intent: "checkout", plan: "monthly", discountCode: "" }, buyer.cookie);
    expect(again.data.checkout).toMatchObject({ transactionId: open.data.checkout.transactionId, trial: true });
  });

  describe("with Paddle, at the fetch boundary", () => {
    const realFetch = globalThis.fetch;
    let sent: { method: string; url: string; body: unknown }[];
    let answer: (request: { method: string; url: string }) => { status: number; body: unknown };
    beforeEach(() => {
      sent = [];
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const text = await request.text();
        const entry = {
          method: request.method,
          url: request.url.replace(/\?$/, ""),
          body: text ? JSON.parse(text) : null,
        };
        sent.push(entry);
        const { status, body } = answer(entry);
        return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      }) as typeof fetch;
      setPaymentProvider(
        createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "w" }),
      );
    });
    afterEach(() => {
      globalThis.fetch = realFetch;
    });

    it("GET /discounts?code= finds the discount; POST /transactions carries its discount_id and the code", async () => {
      const buyer = await customer();
      const txn = {
        ...transaction({ userId: buyer.id, subscriptionId: null, amountCents: 675, start: new Date(), end: null }),
        status: "ready",
        discount_id: paddleDiscount().id,
      };
      answer = (request) =>
        request.method === "GET"
          ? { status: 200, body: listOf([paddleDiscount()]) }
          : { status: 201, body: { data: txn, meta } };
      const created = await post({ intent: "checkout", plan: "monthly", discountCode: "spring25" }, buyer.cookie);
      expect(created.status).toBe(200);
      expect(created.data.checkout).toMatchObject({ transactionId: txn.id, trial: false, dueTodayCents: 675 });
      const lookup = new URL(sent[0]!.url);
      expect(sent[0]!.method).toBe("GET");
      expect(lookup.origin + lookup.pathname).toBe("https://sandbox-api.paddle.com/discounts");
      expect(lookup.searchParams.get("code")).toBe("SPRING25");
      expect(sent[1]).toMatchObject({
        method: "POST",
        url: "https://sandbox-api.paddle.com/transactions",
        body: {
          items: [{ price_id: "pri_demo_monthly", quantity: 1 }],
          discount_id: "dsc_01gtgztp8fpchantd5g1wrksa3",
          custom_data: { user_id: buyer.id, plan_type: "monthly", discount_code: "SPRING25" },
        },
      });
    });

    it("a discount Paddle answers as archived, expired, used up or for another price: 400, no transaction", async () => {
      const buyer = await customer();
      const refusals: [Record<string, unknown>, string][] = [
        [{ status: "archived" }, DISCOUNT_ERRORS.inactive("SPRING25")],
        [{ enabled_for_checkout: false }, DISCOUNT_ERRORS.inactive("SPRING25")],
        [{ expires_at: "2020-01-01T00:00:00Z" }, DISCOUNT_ERRORS.expired("SPRING25")],
        [{ status: "expired" }, DISCOUNT_ERRORS.expired("SPRING25")],
        [{ times_used: 100 }, DISCOUNT_ERRORS.usedUp("SPRING25")],
        [{ restrict_to: ["pri_01other"] }, DISCOUNT_ERRORS.otherPlan("SPRING25")],
        [{ type: "flat", amount: "500", currency_code: "EUR" }, DISCOUNT_ERRORS.otherCurrency("SPRING25")],
      ];
      for (const [parts, error] of refusals) {
        answer = () => ({ status: 200, body: listOf([paddleDiscount(parts)]) });
        const result = await post({ intent: "checkout", plan: "monthly", discountCode: "SPRING25" }, buyer.cookie);
        expect({ parts, status: result.status, data: result.data }).toEqual({ parts, status: 400, data: { error } });
      }
      answer = () => ({ status: 200, body: listOf([]) });
      const unknown = await post({ intent: "checkout", plan: "monthly", discountCode: "NOPE" }, buyer.cookie);
      expect(unknown).toMatchObject({ status: 400, data: { error: DISCOUNT_ERRORS.unknown("NOPE") } });
      answer = () => ({ status: 500, body: { error: { type: "api_error", code: "internal_error", detail: "x" } } });
      const down = await post({ intent: "checkout", plan: "monthly", discountCode: "SPRING25" }, buyer.cookie);
      expect(down).toMatchObject({ status: 502, data: { error: CHECKOUT_ERRORS.openFailed } });
      expect(sent.every((r) => r.method === "GET")).toBe(true);
      expect(await checkoutsOf(buyer.id)).toEqual([]);
    });

    it("transaction.completed with discount_id records the discount and its code on the payment", async () => {
      const buyer = await customer();
      const start = new Date();
      const base = transaction({
        userId: buyer.id,
        amountCents: 675,
        start,
        end: days(30, start),
        customData: { user_id: buyer.id, plan_type: "monthly", discount_code: "SPRING25" },
      });
      const txn = { ...base, discount_id: "dsc_01gtgztp8fpchantd5g1wrksa3" };
      const secret = app.env.DEMO_WEBHOOK_SECRET;
      const result = await receiveWebhook({ ...signed(secret, envelope("transaction.completed", txn)), secret });
      expect(result.status).toBe(200);
      const [payment] = await db().select().from(payments).where(eq(payments.id, txn.id));
      expect(payment).toMatchObject({ discount_id: txn.discount_id, discount_code: "SPRING25", amount_cents: 675 });
      // A later transaction with the same custom data but no discount (a one-time discount's renewal): none.
      const renewal = transaction({
        userId: buyer.id,
        subscriptionId: base.subscription_id,
        amountCents: 900,
        start: days(30, start),
        end: days(60, start),
        origin: "subscription_recurring",
        customData: { user_id: buyer.id, plan_type: "monthly", discount_code: "SPRING25" },
      });
      await receiveWebhook({ ...signed(secret, envelope("transaction.completed", renewal)), secret });
      const [renewed] = await db().select().from(payments).where(eq(payments.id, renewal.id));
      expect(renewed).toMatchObject({ discount_id: null, discount_code: null });
    });
  });
});
