import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as pricingRoute from "~/routes/pricing";
import { parseCountry, type CountryCode } from "~/domain/countries";
import { PRICES_IN_USD_NOTE } from "~/domain/localized-prices";
import {
  connectDemoProvider,
  getPaymentProvider,
  setPaymentProvider,
} from "~/server/billing/configured-provider.server";
import { createLocalizedPrices, forgetLocalizedPrices } from "~/server/billing/localized-prices.server";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { quotedForCountry } from "~/server/billing/checkout-quote.server";
import { checkoutNextStep, checkoutPlanLines, type PlanCheckoutView } from "~/lib/checkout";
import { configuredPriceIds } from "~/server/billing/price-ids.server";
import { getEnv } from "~/server/env.server";
import { call, getRequest, testContext } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * Prices in the buyer's currency (decision 0072): the pricing page's loader with Paddle's POST
 * /pricing-preview answered at the fetch boundary (the request recorded, the answer shaped as Paddle's
 * API reference documents it), and with the demo provider's table end to end.
 */

const PRICES = {
  PRICE_MONTHLY_TRIAL: "pri_01hmonthlytrial000000000a",
  PRICE_MONTHLY: "pri_01hmonthlyregular0000000a",
  PRICE_6_MONTHS_TRIAL: "pri_01hsixmonthstrial0000000a",
  PRICE_6_MONTHS: "pri_01hsixmonthsregular00000a",
  PRICE_YEARLY_TRIAL: "pri_01hyearlytrial0000000000a",
  PRICE_YEARLY: "pri_01hyearlyregular00000000a",
};

interface Sent {
  method: string;
  url: string;
  body: any;
}

const EUR = (minor: number) => `€${(minor / 100).toFixed(2)}`;

/** One line item of Paddle's pricing preview: the price entity, its product, totals and formatted totals. */
function lineItem(
  priceId: string,
  name: string,
  interval: "month" | "year",
  frequency: number,
  net: number,
  rate: number,
  quantity = 1,
) {
  const tax = Math.round(net * rate);
  const totals = { subtotal: String(net), discount: "0", tax: String(tax), total: String(net + tax) };
  const formatted = { subtotal: EUR(net), discount: EUR(0), tax: EUR(tax), total: EUR(net + tax) };
  // The line's totals are the quantity's (Paddle computes the tax on the line), its unit totals one unit's.
  const [lineNet, lineTax] = [net * quantity, Math.round(net * quantity * rate)];
  const lineTotals = {
    subtotal: String(lineNet),
    discount: "0",
    tax: String(lineTax),
    total: String(lineNet + lineTax),
  };
  const lineFormatted = {
    subtotal: EUR(lineNet),
    discount: EUR(0),
    tax: EUR(lineTax),
    total: EUR(lineNet + lineTax),
  };
  return {
    price: {
      id: priceId,
      product_id: "pro_01hforgekit0000000000000a",
      type: "standard",
      description: name,
      name,
      billing_cycle: { interval, frequency },
      trial_period: priceId.includes("trial") ? { interval: "day", frequency: 7 } : null,
      tax_mode: "account_setting",
      unit_price: { amount: String(net), currency_code: "USD" },
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 100 },
      status: "active",
      custom_data: null,
      import_meta: null,
      created_at: "2026-01-05T10:00:00.000000Z",
      updated_at: "2026-01-05T10:00:00.000000Z",
    },
    quantity,
    tax_rate: String(rate),
    unit_totals: totals,
    formatted_unit_totals: formatted,
    totals: lineTotals,
    formatted_totals: lineFormatted,
    product: {
      id: "pro_01hforgekit0000000000000a",
      name: "ForgeKit",
      type: "standard",
      tax_category: "standard",
      description: null,
      image_url: null,
      custom_data: null,
      status: "active",
      import_meta: null,
      created_at: "2026-01-05T10:00:00.000000Z",
      updated_at: "2026-01-05T10:00:00.000000Z",
    },
    discounts: [],
  };
}

/** Paddle's answer to POST /pricing-preview for Germany (19% VAT on top of the prices' amounts). */
function germanPreview(body: any) {
  const items: { price_id: string; quantity: number }[] = body.items;
  const plan = ({ price_id: id, quantity }: { price_id: string; quantity: number }) =>
    id.includes("monthly")
      ? lineItem(id, "Monthly", "month", 1, 900, 0.19, quantity)
      : id.includes("six")
        ? lineItem(id, "6 Months", "month", 6, 4950, 0.19, quantity)
        : lineItem(id, "Yearly", "year", 1, 9000, 0.19, quantity);
  return {
    data: {
      customer_id: null,
      address_id: null,
      business_id: null,
      currency_code: "EUR",
      discount_id: null,
      address: { postal_code: null, country_code: body.address.country_code },
      customer_ip_address: null,
      details: { line_items: items.map(plan) },
      available_payment_methods: ["apple_pay", "google_pay", "card", "paypal"],
    },
    meta: { request_id: "b6b0b0e4-7c3c-4b7e-9a5e-2f8a3c0c6f11" },
  };
}

describe.each(testEngines())("prices in the buyer's currency on %s", (engine) => {
  let app: TestApp;
  const realFetch = globalThis.fetch;
  let sent: Sent[];
  let answer: (request: Sent) => { status: number; body: unknown } | Promise<never>;

  beforeAll(async () => {
    app = await startTestApp(engine, { ...PRICES, COUNTRY_HEADER: "CF-IPCountry" });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => {
    sent = [];
    forgetLocalizedPrices();
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const text = await request.text();
      const entry = { method: request.method, url: request.url, body: text ? JSON.parse(text) : null };
      sent.push(entry);
      const { status, body } = await answer(entry);
      return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    setPaymentProvider(undefined);
  });

  const usePaddle = () =>
    setPaymentProvider(
      createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "w" }),
    );
  const useDemo = () => setPaymentProvider(connectDemoProvider({ webhookSecret: getEnv().DEMO_WEBHOOK_SECRET }));

  /** The pricing page's loader for an anonymous visitor, and whether it kept the page out of the page cache. */
  async function pricingPage(path: string, headers: Record<string, string> = {}) {
    const request = getRequest(path);
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    let keptOut = false;
    const context = { ...testContext(), keepOutOfPageCache: () => void (keptOut = true) };
    const result = await call(() => pricingRoute.loader({ request, context, params: {} } as never));
    return { ...result.data.prices, keptOut };
  }

  describe("with Paddle", () => {
    beforeEach(usePaddle);

    it("asks POST /pricing-preview for the visitor's country with the trial set's prices, and shows Paddle's totals and tax", async () => {
      answer = ({ body }) => ({ status: 200, body: germanPreview(body) });
      const page = await pricingPage("/pricing?country=de");
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: "POST", url: "https://sandbox-api.paddle.com/pricing-preview" });
      expect(sent[0]!.body).toEqual({
        items: [
          { price_id: PRICES.PRICE_MONTHLY_TRIAL, quantity: 1 },
          { price_id: PRICES.PRICE_6_MONTHS_TRIAL, quantity: 1 },
          { price_id: PRICES.PRICE_YEARLY_TRIAL, quantity: 1 },
        ],
        address: { country_code: "DE" },
      });
      expect(page).toMatchObject({ country: "DE", currency: "EUR", keptOut: false });
      expect(page.plans.monthly).toEqual({ amountMinor: 1071, amount: "€10.71" });
      expect(page.plans["6_months"]).toEqual({ amountMinor: 5891, amount: "€58.91" });
      expect(page.plans.yearly).toEqual({ amountMinor: 10710, amount: "€107.10" });
      expect(page.note).toBe("Germany: prices in EUR, including 19% tax.");
    });

    it("keeps a country's prices: the second visitor from there costs no call; another country does", async () => {
      answer = ({ body }) => ({ status: 200, body: germanPreview(body) });
      await pricingPage("/pricing?country=DE");
      const again = await pricingPage("/pricing", { "CF-IPCountry": "DE" });
      expect(again.currency).toBe("EUR");
      expect(sent).toHaveLength(1);
      await pricingPage("/pricing?country=AT");
      expect(sent).toHaveLength(2);
      expect(sent[1]!.body.address).toEqual({ country_code: "AT" });
    });

    it("asks nothing when the country is unknown: US dollars from the plan table", async () => {
      answer = () => {
        throw new Error("not expected");
      };
      for (const [path, headers] of [
        ["/pricing", {}],
        ["/pricing?country=nowhere", {}],
        ["/pricing", { "CF-IPCountry": "XX" }],
        ["/pricing", { "CF-IPCountry": "T1" }],
      ] as const) {
        const page = await pricingPage(path, headers);
        expect(page).toMatchObject({ country: null, currency: "USD", note: PRICES_IN_USD_NOTE, keptOut: false });
        expect(page.plans.monthly.amount).toBe("$9");
      }
      expect(sent).toHaveLength(0);
    });

    it("Paddle down: US dollars with no error, the page kept out of the cache, and Paddle asked again only after a minute", async () => {
      answer = () => ({
        status: 500,
        body: {
          error: { type: "api_error", code: "internal_error", detail: "An internal error has occurred." },
          meta: { request_id: "r" },
        },
      });
      const page = await pricingPage("/pricing?country=DE");
      expect(page).toMatchObject({ country: null, currency: "USD", note: PRICES_IN_USD_NOTE, keptOut: true });
      const attempts = sent.length;
      expect(attempts).toBeGreaterThanOrEqual(1);
      await pricingPage("/pricing?country=DE");
      expect(sent).toHaveLength(attempts);
    });

    it("a country Paddle refuses (400) is US dollars too", async () => {
      answer = () => ({
        status: 400,
        body: {
          error: { type: "request_error", code: "bad_request", detail: "Invalid request.", errors: [] },
          meta: { request_id: "r" },
        },
      });
      const page = await pricingPage("/pricing?country=KP");
      expect(page).toMatchObject({ currency: "USD", keptOut: true });
    });

    it("an answer without one of the plans' prices is not shown: US dollars", async () => {
      answer = ({ body }) => {
        const preview = germanPreview(body);
        preview.data.details.line_items.pop();
        return { status: 200, body: preview };
      };
      expect(await pricingPage("/pricing?country=DE")).toMatchObject({ currency: "USD", keptOut: true });
    });

    it("a slow Paddle: US dollars once the timeout passes, and the late answer is not awaited", async () => {
      answer = () => new Promise<never>(() => {});
      const prices = createLocalizedPrices({
        provider: getPaymentProvider,
        priceIds: configuredPriceIds,
        timeoutMs: 50,
      });
      const started = Date.now();
      const result = await prices.pricesFor({ country: parseCountry("DE") as CountryCode, trial: true });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(result).toMatchObject({ settled: false, prices: { currency: "USD" } });
    });

    it("keeps each price set apart: the regular set is asked for on its own, and both are kept for their time", async () => {
      let now = 0;
      answer = ({ body }) => ({ status: 200, body: germanPreview(body) });
      const prices = createLocalizedPrices({
        provider: getPaymentProvider,
        priceIds: configuredPriceIds,
        now: () => now,
      });
      const DE = parseCountry("DE") as CountryCode;
      await prices.pricesFor({ country: DE, trial: true });
      const regular = await prices.pricesFor({ country: DE, trial: false });
      expect(regular.prices.currency).toBe("EUR");
      expect(sent.map((s) => s.body.items[0].price_id)).toEqual([PRICES.PRICE_MONTHLY_TRIAL, PRICES.PRICE_MONTHLY]);
      now += 29 * 60 * 1000;
      await prices.pricesFor({ country: DE, trial: false });
      expect(sent).toHaveLength(2);
      now += 2 * 60 * 1000;
      await prices.pricesFor({ country: DE, trial: false });
      expect(sent).toHaveLength(3);
    });
  });

  describe("the checkout summary's quote", () => {
    const view: PlanCheckoutView = {
      transactionId: "txn_01hcheckout000000000000000",
      planId: "yearly",
      trial: false,
      dueTodayCents: 9000,
      priceCents: 9000,
      trialEndsAt: null,
      renewsAt: "2027-11-28T12:00:00.000Z",
    };
    const DE = parseCountry("DE") as CountryCode;

    it("with Paddle: the buyer's country's price from the same kept preview, today and at each renewal", async () => {
      usePaddle();
      answer = ({ body }) => ({ status: 200, body: germanPreview(body) });
      const quoted = await quotedForCountry(view, DE);
      expect(quoted).toMatchObject({
        currency: "EUR",
        dueTodayCents: 10710,
        priceCents: 10710,
        priceNote: "Germany: prices in EUR, including 19% tax.",
      });
      expect(sent[0]!.body.items[2]).toEqual({ price_id: PRICES.PRICE_YEARLY, quantity: 1 });
      expect(checkoutPlanLines(quoted).price).toBe("€107.10 per year");
      expect(checkoutNextStep(quoted)).toBe(
        "€107.10 today, then €107.10 per year, next on Nov 28, 2027, until you cancel.",
      );
      const trial = await quotedForCountry({ ...view, trial: true, dueTodayCents: 0 }, DE);
      expect(trial).toMatchObject({ currency: "EUR", dueTodayCents: 0, priceCents: 10710 });
      expect(sent.map((s) => s.body.items[2].price_id)).toEqual([PRICES.PRICE_YEARLY, PRICES.PRICE_YEARLY_TRIAL]);
    });

    it("US dollars unchanged: no country, or Paddle down", async () => {
      usePaddle();
      answer = () => ({ status: 503, body: { error: { type: "api_error", code: "x", detail: "down" }, meta: {} } });
      expect(await quotedForCountry(view, null)).toBe(view);
      expect(await quotedForCountry(view, DE)).toEqual(view);
      const team = { ...view, seats: 3, unitCents: 9000, priceCents: 27000, dueTodayCents: 27000 };
      expect(await quotedForCountry(team, DE)).toEqual(team);
      expect(checkoutNextStep(view)).toBe("$90 today, then $90 per year, next on Nov 28, 2027, until you cancel.");
    });

    it("a team's checkout with Paddle: the preview asked with the seats as the quantity, quoted seats × one seat's price", async () => {
      usePaddle();
      answer = ({ body }) => ({ status: 200, body: germanPreview(body) });
      const team = {
        ...view,
        planId: "monthly" as const,
        seats: 3,
        unitCents: 900,
        priceCents: 2700,
        dueTodayCents: 2700,
      };
      const quoted = await quotedForCountry(team, DE);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: "POST", url: "https://sandbox-api.paddle.com/pricing-preview" });
      expect(sent[0]!.body).toEqual({
        items: [
          { price_id: PRICES.PRICE_MONTHLY, quantity: 3 },
          { price_id: PRICES.PRICE_6_MONTHS, quantity: 3 },
          { price_id: PRICES.PRICE_YEARLY, quantity: 3 },
        ],
        address: { country_code: "DE" },
      });
      expect(quoted).toMatchObject({
        currency: "EUR",
        seats: 3,
        unitCents: 1071,
        priceCents: 3213,
        dueTodayCents: 3213,
        priceNote: "Germany: prices in EUR, including 19% tax.",
      });
      expect(checkoutPlanLines(quoted).price).toBe("3 seats × €10.71 = €32.13 per month");
      // Not kept: the next team checkout asks again (seat counts would multiply the kept entries).
      await quotedForCountry(team, DE);
      expect(sent).toHaveLength(2);
    });

    it("the demo provider quotes its table, which its checkout now charges: euros for Germany", async () => {
      useDemo();
      const quoted = await quotedForCountry(view, DE);
      expect(quoted).toMatchObject({ currency: "EUR", priceCents: 9999, dueTodayCents: 9999 });
      expect(checkoutNextStep(quoted)).toBe(
        "€99.99 today, then €99.99 per year, next on Nov 28, 2027, until you cancel.",
      );
      expect(sent).toHaveLength(0);
    });
  });

  describe("with the demo provider, end to end", () => {
    beforeEach(useDemo);

    it.each([
      ["/pricing?country=JP", {}, "JPY", "¥1,400", "Japan: prices in JPY, including 10% tax."],
      ["/pricing?country=gb", {}, "GBP", "£8.99", "United Kingdom: prices in GBP, including 20% tax."],
      ["/pricing", { "CF-IPCountry": "DE" }, "EUR", "€9.99", "Germany: prices in EUR, including 19% tax."],
      ["/pricing?country=FR", { "CF-IPCountry": "DE" }, "EUR", "€9.99", "France: prices in EUR, including 20% tax."],
      ["/pricing?country=BR", {}, "USD", "$9", "Brazil: prices in USD. Taxes are added at checkout where they apply."],
      ["/pricing", {}, "USD", "$9", PRICES_IN_USD_NOTE],
    ])("%s %j → %s, monthly %s", async (path, headers, currency, monthly, note) => {
      const page = await pricingPage(path, headers);
      expect(page).toMatchObject({ currency, note, keptOut: false });
      expect(page.plans.monthly.amount).toBe(monthly);
      expect(sent).toHaveLength(0);
    });

    it("the yearly plan in yen, per month and all", async () => {
      const page = await pricingPage("/pricing?country=JP");
      expect(page.plans.yearly).toEqual({ amountMinor: 14000, amount: "¥14,000" });
    });
  });
});
