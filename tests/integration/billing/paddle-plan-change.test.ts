import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { ProviderError, type PlanChangeInput } from "~/server/billing/payment-provider.server";
import { configuredPriceIds } from "~/server/billing/price-ids.server";
import { outbound_events, payments } from "~/server/db/schema";
import { days, envelope, subscription, transaction } from "../../support/paddle-fixtures";
import { paymentWebhookApp } from "../../support/payment-webhook-app";
import { testEngines } from "../../support/test-app";

/**
 * Paddle's side of a plan switch (decision 0061): the preview and update requests as its API
 * reference documents them, recorded at the fetch boundary, and its answers and events read.
 */

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

const meta = { request_id: "req_1" };
const money = (amount: string) => ({ amount, currency_code: "USD" });
const totals = (total: string) => ({
  subtotal: total,
  discount: "0",
  tax: "0",
  total,
  credit: "0",
  credit_to_balance: "0",
  balance: total,
  grand_total: total,
  grand_total_tax: "0",
  fee: null,
  earnings: null,
  currency_code: "USD",
});
/** A transaction preview as Paddle nests it in immediate_transaction and next_transaction. */
const transactionPreview = (start: Date, end: Date, total: string, priceId: string) => ({
  billing_period: { starts_at: start.toISOString(), ends_at: end.toISOString() },
  details: {
    tax_rates_used: [{ tax_rate: "0", totals: { subtotal: total, discount: "0", tax: "0", total } }],
    totals: totals(total),
    line_items: [
      {
        price_id: priceId,
        quantity: 1,
        tax_rate: "0",
        unit_totals: { subtotal: total, discount: "0", tax: "0", total },
        totals: { subtotal: total, discount: "0", tax: "0", total },
        product: { id: "pro_01hv6xyz", name: "License", tax_category: "standard", status: "active" },
        proration: null,
      },
    ],
  },
  adjustments: [],
});

describe("Paddle's plan change calls", () => {
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
  const now = new Date();
  const yearEnd = days(365, now);
  const sub = subscription({ subscriptionId: "sub_01abc", userId: "u", start: days(-20, now), end: days(10, now) });
  const upgrade: PlanChangeInput = {
    subscriptionId: "sub_01abc",
    from: "monthly",
    to: "yearly",
    priceId: "pri_01yearly",
    proration: "prorated_immediately",
    extendedMonths: 0,
  };
  /** Paddle's preview of monthly → yearly: $3 unused credited, $90 charged, $87 due now, a year from now. */
  const upgradePreview = {
    ...sub,
    next_billed_at: yearEnd.toISOString(),
    current_billing_period: { starts_at: now.toISOString(), ends_at: yearEnd.toISOString() },
    billing_cycle: { interval: "year", frequency: 1 },
    immediate_transaction: transactionPreview(now, yearEnd, "8700", "pri_01yearly"),
    next_transaction: transactionPreview(yearEnd, days(365, yearEnd), "9000", "pri_01yearly"),
    recurring_transaction_details: transactionPreview(yearEnd, days(365, yearEnd), "9000", "pri_01yearly").details,
    update_summary: { credit: money("300"), charge: money("9000"), result: { action: "charge", ...money("8700") } },
  };

  it("preview: PATCH /subscriptions/{id}/preview with the new items and proration_billing_mode; the answer read", async () => {
    answer = () => ({ status: 200, body: { data: upgradePreview, meta } });
    const preview = await provider().previewPlanChange(upgrade);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      method: "PATCH",
      url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc/preview",
      body: { items: [{ price_id: "pri_01yearly", quantity: 1 }], proration_billing_mode: "prorated_immediately" },
    });
    expect(preview).toEqual({
      from: "monthly",
      to: "yearly",
      effect: "now",
      chargedNowCents: 8700,
      creditCents: 300,
      currency: "USD",
      nextChargeCents: 9000,
      nextChargeAt: yearEnd.toISOString(),
      becomes: { plan: "yearly", endDate: yearEnd.toISOString(), machines: 2 },
    });
  });

  it("a switch to a shorter plan: do_not_bill, nothing now, the new price at the current period's end", async () => {
    const periodEnd = days(200, now);
    const yearly = subscription({ subscriptionId: "sub_01abc", userId: "u", start: days(-165, now), end: periodEnd });
    answer = () => ({
      status: 200,
      body: {
        data: {
          ...yearly,
          next_billed_at: periodEnd.toISOString(),
          immediate_transaction: null,
          next_transaction: transactionPreview(periodEnd, days(30, periodEnd), "900", "pri_01monthly"),
          recurring_transaction_details: null,
          update_summary: null,
        },
        meta,
      },
    });
    const preview = await provider().previewPlanChange({
      ...upgrade,
      from: "yearly",
      to: "monthly",
      priceId: "pri_01monthly",
      proration: "do_not_bill",
      extendedMonths: 1,
    });
    expect((sent[0]!.body as { proration_billing_mode: string }).proration_billing_mode).toBe("do_not_bill");
    expect(preview).toMatchObject({ effect: "next-renewal", chargedNowCents: 0, creditCents: 0, nextChargeCents: 900 });
    expect(preview.nextChargeAt).toBe(periodEnd.toISOString());
    // A bought extension stays added to the end.
    expect(new Date(preview.becomes.endDate).getTime()).toBeGreaterThan(periodEnd.getTime() + 27 * 86_400_000);
  });

  it("change: PATCH /subscriptions/{id} with the same body", async () => {
    answer = () => ({ status: 200, body: { data: { ...sub, next_billed_at: yearEnd.toISOString() }, meta } });
    await provider().changePlan(upgrade);
    expect(sent).toEqual([
      {
        method: "PATCH",
        url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc",
        body: { items: [{ price_id: "pri_01yearly", quantity: 1 }], proration_billing_mode: "prorated_immediately" },
      },
    ]);
  });

  it("a team's change (decision 0074): the team's seats as the item's quantity in both requests, the preview per seat", async () => {
    const team: PlanChangeInput = { ...upgrade, quantity: 3 };
    const body = { items: [{ price_id: "pri_01yearly", quantity: 3 }], proration_billing_mode: "prorated_immediately" };
    answer = ({ url }) =>
      url.endsWith("/preview")
        ? {
            status: 200,
            body: {
              data: {
                ...upgradePreview,
                items: [{ ...sub.items[0], quantity: 3 }],
                next_transaction: transactionPreview(yearEnd, days(365, yearEnd), "27000", "pri_01yearly"),
                update_summary: {
                  credit: money("900"),
                  charge: money("27000"),
                  result: { action: "charge", ...money("26100") },
                },
              },
              meta,
            },
          }
        : { status: 200, body: { data: { ...sub, next_billed_at: yearEnd.toISOString() }, meta } };
    const preview = await provider().previewPlanChange(team);
    await provider().changePlan(team);
    expect(sent).toEqual([
      { method: "PATCH", url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc/preview", body },
      { method: "PATCH", url: "https://sandbox-api.paddle.com/subscriptions/sub_01abc", body },
    ]);
    expect(preview).toMatchObject({ chargedNowCents: 26100, creditCents: 900, nextChargeCents: 27000 });
    expect(preview.becomes).toEqual({ plan: "yearly", endDate: yearEnd.toISOString(), machines: 2, seats: 3 });
  });

  it("a past-due subscription: Paddle's 400 becomes a ProviderError", async () => {
    answer = () => ({
      status: 400,
      body: {
        error: {
          type: "request_error",
          code: "subscription_update_when_past_due",
          detail: "Subscription cannot be updated while past due",
          documentation_url: "https://developer.paddle.com/errors/subscriptions/subscription_update_when_past_due",
        },
        meta,
      },
    });
    await expect(provider().previewPlanChange(upgrade)).rejects.toBeInstanceOf(ProviderError);
    await expect(provider().changePlan(upgrade)).rejects.toBeInstanceOf(ProviderError);
  });
});

describe.each(testEngines())("Paddle's events of a plan switch on %s", (engine) => {
  const { startApp, stopApp, newBuyer, db, user, deliver, licenseOf, purchase, renewalOf } = paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

  it("the switch's transaction (origin subscription_update, the yearly price): the license is yearly, the charge a plan_change payment, the vendor told", async () => {
    const { txn, license } = await purchase();
    const now = new Date();
    const switched = transaction({
      userId: user.id,
      subscriptionId: txn.subscription_id,
      priceId: configuredPriceIds().regular.yearly,
      amountCents: 8700,
      start: now,
      end: days(365, now),
      origin: "subscription_update",
    });
    expect((await deliver(envelope("transaction.completed", switched))).status).toBe(200);
    const after = (await licenseOf(txn.subscription_id!))!;
    expect(after.license_type).toBe("yearly");
    expect(after.end_date.toISOString()).toBe(days(365, now).toISOString());
    const [paid] = await db().select().from(payments).where(eq(payments.id, switched.id));
    expect(paid).toMatchObject({ kind: "plan_change", amount_cents: 8700, license_id: license.id });
    const events = await db()
      .select()
      .from(outbound_events)
      .where(eq(outbound_events.key, `plan_changed:${switched.id}`));
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ previous_plan: "monthly", plan: "yearly" });
    // Delivered again: nothing changes twice.
    await deliver(envelope("transaction.completed", switched));
    expect(
      await db()
        .select()
        .from(outbound_events)
        .where(eq(outbound_events.key, `plan_changed:${switched.id}`)),
    ).toHaveLength(1);
  });

  it("a renewal billing another plan (a switch that waited for it): the license takes that plan, recorded as a renewal", async () => {
    const { txn, license } = await purchase();
    const renewal = renewalOf(txn, license.end_date);
    renewal.items[0]!.price.id = configuredPriceIds().regular["6_months"];
    renewal.details.line_items[0]!.price_id = configuredPriceIds().regular["6_months"];
    await deliver(envelope("transaction.completed", renewal));
    const after = (await licenseOf(txn.subscription_id!))!;
    expect(after.license_type).toBe("6_months");
    const [paid] = await db().select().from(payments).where(eq(payments.id, renewal.id));
    expect(paid!.kind).toBe("renewal");
  });

  it("a renewal of the same plan switches nothing", async () => {
    const { txn, license } = await purchase();
    await deliver(envelope("transaction.completed", renewalOf(txn, license.end_date)));
    expect((await licenseOf(txn.subscription_id!))!.license_type).toBe("monthly");
  });
});
