import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { adjustment, days, subscription, transaction } from "../../support/paddle-fixtures";

/** Paddle's API answered at the network boundary: the SDK's requests are recorded, not sent. */
interface Sent {
  method: string;
  url: string;
  body: unknown;
  authorization: string | null;
}

describe("the Paddle provider's API calls", () => {
  const realFetch = globalThis.fetch;
  let sent: Sent[];
  let answer: (request: Sent) => { status: number; body: unknown };
  beforeEach(() => {
    sent = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const text = await request.text();
      const entry = {
        method: request.method,
        url: request.url.replace(/\?$/, ""),
        body: text ? JSON.parse(text) : null,
        authorization: request.headers.get("Authorization"),
      };
      sent.push(entry);
      const { status, body } = answer(entry);
      return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const provider = () =>
    createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "whsec" });
  const sub = subscription({ subscriptionId: "sub_01abc", userId: "u", start: new Date(), end: days(30) });
  const meta = { request_id: "req_1" };

  it("cancel at period end: POST /subscriptions/{id}/cancel with effective_from next_billing_period", async () => {
    answer = () => ({
      status: 200,
      body: {
        data: { ...sub, scheduled_change: { action: "cancel", effective_at: sub.next_billed_at, resume_at: null } },
        meta,
      },
    });
    await provider().cancelAtPeriodEnd("sub_01abc");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc/cancel",
      body: { effective_from: "next_billing_period" },
    });
    expect(sent[0]!.authorization).toMatch(/^bearer pdl_sdbx_apikey_test$/i);
  });

  it("re-enable: PATCH /subscriptions/{id} with scheduled_change null", async () => {
    answer = () => ({ status: 200, body: { data: sub, meta } });
    await provider().removeScheduledCancel("sub_01abc");
    expect(sent[0]).toMatchObject({
      method: "PATCH",
      url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc",
      body: { scheduled_change: null },
    });
  });

  it("start the paid plan now: POST /subscriptions/{id}/activate; the answer says when the next charge is", async () => {
    const next = days(30).toISOString();
    answer = () => ({ status: 200, body: { data: { ...sub, status: "active", next_billed_at: next }, meta } });
    expect(await provider().activateTrial("sub_01abc")).toEqual({ nextBilledAt: next });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc/activate",
    });
  });

  it("activating a subscription that is not trialing: Paddle's 400 becomes a ProviderError", async () => {
    answer = () => ({
      status: 400,
      body: {
        error: {
          type: "request_error",
          code: "subscription_cannot_activate",
          detail: "Only subscriptions which have status 'trialing' can be activated. Subscription status is 'active'",
          documentation_url: "https://developer.paddle.com/errors/subscriptions/subscription_cannot_activate",
        },
        meta,
      },
    });
    await expect(provider().activateTrial("sub_01abc")).rejects.toBeInstanceOf(ProviderError);
  });

  it("refund: looks for a refund of the transaction first, then POST /adjustments, a partial refund of the line item", async () => {
    const adj = adjustment({
      transactionId: "txn_01abc",
      subscriptionId: "sub_01abc",
      amountCents: 855,
      status: "pending_approval",
    });
    const empty = { data: [], meta: { ...meta, pagination: { per_page: 50, next: "x", has_more: false } } };
    answer = (request) =>
      request.method === "GET" ? { status: 200, body: empty } : { status: 201, body: { data: adj, meta } };
    const result = await provider().refund({
      transactionId: "txn_01abc",
      itemId: "txnitm_01abc",
      amountCents: 855,
      reason: "Requested by the customer",
      idempotencyKey: "refund:lic:txn_01abc",
    });
    expect(result.adjustmentId).toBe(adj.id);
    expect(sent[0]!.method).toBe("GET");
    const listed = new URL(sent[0]!.url);
    expect(listed.pathname).toBe("/adjustments");
    expect(listed.searchParams.get("transaction_id")).toBe("txn_01abc");
    expect(listed.searchParams.get("action")).toBe("refund");
    expect(listed.searchParams.get("status")).toBe("pending_approval,approved");
    expect(sent[1]).toMatchObject({
      method: "POST",
      url: "https://sandbox-api.paddle.com/adjustments",
      body: {
        action: "refund",
        transaction_id: "txn_01abc",
        reason: "Requested by the customer",
        type: "partial",
        items: [{ item_id: "txnitm_01abc", type: "partial", amount: "855" }],
      },
    });
  });

  it("refund: a transaction already refunded (pending or approved) answers that adjustment, nothing is created", async () => {
    const adj = adjustment({ transactionId: "txn_01abc", subscriptionId: null, amountCents: 855, status: "approved" });
    const listed = { data: [adj], meta: { ...meta, pagination: { per_page: 50, next: "x", has_more: false } } };
    answer = () => ({ status: 200, body: listed });
    const result = await provider().refund({ transactionId: "txn_01abc", itemId: "i", amountCents: 855, reason: "r" });
    expect(result.adjustmentId).toBe(adj.id);
    expect(sent.map((r) => r.method)).toEqual(["GET"]);
  });

  it("refund in full: POST /adjustments with type full and no items", async () => {
    const adj = adjustment({ transactionId: "txn_01abc", subscriptionId: null, amountCents: 900, status: "approved" });
    const empty = { data: [], meta: { ...meta, pagination: { per_page: 50, next: "x", has_more: false } } };
    answer = (request) =>
      request.method === "GET" ? { status: 200, body: empty } : { status: 201, body: { data: adj, meta } };
    await provider().refund({ transactionId: "txn_01abc", itemId: null, amountCents: 900, reason: "r", full: true });
    expect(sent[1]!.body).toEqual({ action: "refund", transaction_id: "txn_01abc", reason: "r", type: "full" });
  });

  it("plan checkout: POST /transactions with the server's price id and custom data (the overlay opens with its id)", async () => {
    const txn = {
      ...transaction({ userId: "u", subscriptionId: null, amountCents: 9000, start: new Date(), end: null }),
      status: "draft",
    };
    answer = () => ({ status: 201, body: { data: txn, meta } });
    const result = await provider().createPlanCheckout({
      checkoutId: "c2",
      userId: "u2",
      email: "b@example.com",
      planId: "yearly",
      priceId: "pri_01yearly",
      trial: false,
    });
    expect(result.transactionId).toBe(txn.id);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: "https://sandbox-api.paddle.com/transactions",
      body: {
        items: [{ price_id: "pri_01yearly", quantity: 1 }],
        custom_data: { user_id: "u2", plan_type: "yearly", checkout_id: "c2" },
      },
    });
  });

  it("extension: POST /transactions with a non-catalog price and the extension's custom data", async () => {
    const txn = {
      ...transaction({
        userId: "u",
        subscriptionId: null,
        amountCents: 11700,
        start: new Date(),
        end: null,
        origin: "api",
      }),
      status: "ready",
    };
    answer = () => ({ status: 201, body: { data: txn, meta } });
    const result = await provider().createExtensionCharge({
      checkoutId: "c1",
      userId: "u1",
      email: "a@example.com",
      licenseId: "l1",
      months: 2,
      years: 1,
      amountCents: 11700,
      description: "License extension: 2 months and 1 year",
    });
    expect(result.transactionId).toBe(txn.id);
    expect(sent[0]).toMatchObject({
      method: "POST",
      url: "https://sandbox-api.paddle.com/transactions",
      body: {
        custom_data: { kind: "extension", user_id: "u1", license_id: "l1", months: 2, years: 1, checkout_id: "c1" },
        items: [
          {
            quantity: 1,
            price: {
              unit_price: { amount: "11700", currency_code: "USD" },
              product: { name: "License extension", tax_category: "standard" },
            },
          },
        ],
      },
    });
  });

  it("production uses Paddle's live API host", async () => {
    answer = () => ({ status: 200, body: { data: sub, meta } });
    await createPaddleProvider({
      apiKey: "pdl_live_apikey",
      environment: "production",
      webhookSecret: "x",
    }).removeScheduledCancel("sub_01abc");
    expect(sent[0]!.url).toBe("https://api.paddle.com/subscriptions/sub_01abc");
  });

  it("an API error becomes a ProviderError; a missing API key fails before any request", async () => {
    answer = () => ({
      status: 400,
      body: {
        error: { type: "request_error", code: "subscription_locked_pending_changes", detail: "Subscription is locked" },
        meta,
      },
    });
    await expect(provider().cancelAtPeriodEnd("sub_01abc")).rejects.toBeInstanceOf(ProviderError);
    sent = [];
    await expect(
      createPaddleProvider({ apiKey: undefined, environment: "sandbox", webhookSecret: undefined }).cancelAtPeriodEnd(
        "sub_1",
      ),
    ).rejects.toThrow("PADDLE_API_KEY");
    expect(sent).toHaveLength(0);
  });
});
