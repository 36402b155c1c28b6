import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as pricingRoute from "~/routes/pricing";
import * as licensesRoute from "~/routes/licenses";
import { canChangeTrial, paidPlanNow, trialConversion } from "~/domain/trial-conversion";
import { planSwitchOptions } from "~/domain/plan-switch";
import { retentionOfferTexts } from "~/domain/retention-offer";
import { offerFor } from "~/server/licenses/leaving.server";
import { successView } from "~/server/billing/purchased-license.server";
import { sendPaymentLink } from "~/server/admin/send-payment-link.server";
import { getUserDetails } from "~/server/admin/user-details.server";
import { licenseState } from "~/domain/license-state";
import { supportView } from "~/domain/license-support";
import { upcomingCharges } from "~/domain/billing-overview";
import { checkoutNextStep, checkoutPlanLines } from "~/lib/checkout";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { getOwnPayment, listBillingHistory } from "~/server/billing/billing-history.server";
import { buildInvoice, money } from "~/server/billing/invoice.server";
import { invoiceResponse } from "~/server/billing/invoice-response.server";
import { forgetLocalizedPrices } from "~/server/billing/localized-prices.server";
import { demo_billing, licenses, payments, teams } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { changeSeats, quoteSeatChange } from "~/server/teams/team-seats.server";
import { seatQuoteText } from "~/domain/team-page";
import { givePassword } from "../../support/team";
import { pdfText } from "../../support/pdf-text";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * The demo provider charges what its table says for the country the pricing page priced (decision
 * 0072), as Paddle charges a buyer in their country: a checkout from /pricing?country=DE is a euro
 * subscription, its payments, renewals, refunds and invoices in euros, and the license card, /billing
 * and the e-mails say euros, through the same webhook path as Paddle's events.
 */

const PASSWORD = "correct horse battery";

describe.each(testEngines())("the demo provider in the buyer's currency on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let n = 0;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", COUNTRY_HEADER: "CF-IPCountry" });
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });
  beforeEach(() => {
    forgetLocalizedPrices();
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  async function customer() {
    const user = await createUser(db(), `currency-${engine}-${++n}@example.com`);
    await givePassword(db(), user.id, PASSWORD);
    return { ...user, cookie: await signInCookie(user.email, PASSWORD) };
  }
  const post = (fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) => {
    const request = formRequest("/pricing", fields, cookie);
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    return call(() => pricingRoute.action(routeArgs(request)));
  };
  /** The checkout from the pricing page and the demo overlay's Pay; the subscription it made. */
  async function buy(fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) {
    const created = await post({ intent: "checkout", ...fields }, cookie, headers);
    expect(created.status).toBe(200);
    const paid = await post({ intent: "demo-pay", transactionId: created.data.checkout.transactionId }, cookie);
    expect(paid.status).toBe(200);
    const [txn] = await db()
      .select()
      .from(demo_billing)
      .where(eq(demo_billing.id, created.data.checkout.transactionId));
    return { checkout: created.data.checkout, subscriptionId: txn!.subscription_id! };
  }
  const paymentsOf = (userId: string) =>
    db().select().from(payments).where(eq(payments.user_id, userId)).orderBy(asc(payments.billed_at));
  const subscription = async (id: string) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.id, id)))[0]!.data as Record<string, any>;
  const transaction = async (id: string) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.id, id)))[0]!.data as Record<string, any>;

  it("?country=DE: the summary in euros, a euro subscription, its payments, renewal, card, e-mail, /billing, invoice and refund", async () => {
    const buyer = await customer();
    const { checkout, subscriptionId } = await buy({ plan: "yearly", country: "DE" }, buyer.cookie);
    expect(checkout).toMatchObject({ currency: "EUR", trial: true, dueTodayCents: 0, priceCents: 9999 });
    expect(checkout.priceNote).toBe("Germany: prices in EUR, including 19% tax.");
    expect(checkoutNextStep(checkout)).toMatch(/^Free for 7 days, then €99\.99 on /);

    // The subscription and its first (trial) transaction are Paddle-shaped, in euros.
    const sub = await subscription(subscriptionId);
    expect(sub).toMatchObject({ currency_code: "EUR", status: "trialing" });
    expect(await paymentsOf(buyer.id)).toMatchObject([{ kind: "purchase", amount_cents: 0, currency: "EUR" }]);

    // "Start paid plan now": the plan's price in euros, its tax inside, as Paddle's totals say it.
    await demo.activateTrial(subscriptionId);
    const [, first] = await paymentsOf(buyer.id);
    expect(first).toMatchObject({ kind: "renewal", amount_cents: 9999, currency: "EUR", quantity: 1 });
    const paidTxn = await transaction(first!.id);
    expect(paidTxn.currency_code).toBe("EUR");
    expect(paidTxn.details.totals).toEqual({
      subtotal: "8403",
      discount: "0",
      tax: "1596",
      total: "9999",
      grand_total: "9999",
      currency_code: "EUR",
    });
    expect(paidTxn.details.tax_rates_used).toEqual([
      { tax_rate: "0.19", totals: { subtotal: "8403", discount: "0", tax: "1596", total: "9999" } },
    ]);

    // The license card's renewal line and /billing's upcoming charge.
    const [card] = await listUserLicenses(buyer.id);
    const state = licenseState(card!, new Date());
    expect(state).toMatchObject({ nextChargeCents: 9999, nextChargeCurrency: "EUR" });
    expect(state.line).toContain("for €99.99");
    expect(upcomingCharges([card!], new Date())[0]!.text).toContain("€99.99");

    // The renewal the demo makes charges euros again.
    const renewed = await demo.renew(subscriptionId);
    expect(renewed.outcome).toBe("renewed");
    const [, , renewal] = await paymentsOf(buyer.id);
    expect(renewal).toMatchObject({ kind: "renewal", amount_cents: 9999, currency: "EUR" });

    // The e-mails say euros, never the plan table's dollars.
    await drainJobs({ skipDelays: true });
    const mails = app.mails.filter((m) => m.to === buyer.email);
    expect(mails.some((m) => m.text.includes("€99.99"))).toBe(true);
    for (const mail of mails) expect(mail.text).not.toContain("$90");

    // /billing's history and the invoice: euros, with the tax line.
    const history = await listBillingHistory(buyer.id);
    expect(history.filter((e) => e.amount_cents > 0).map((e) => e.currency)).toEqual(["EUR", "EUR"]);
    const invoice = await buildInvoice(buyer.id, (await getOwnPayment(buyer.id, first!.id))!);
    expect(invoice).toMatchObject({ currency: "EUR", totalCents: 9999, taxCents: 1596, taxRate: "19" });
    const pdf = pdfText(new Uint8Array(await (await invoiceResponse(buyer.id, first!.id)).arrayBuffer()));
    // The PDF writes the euro sign in its font's own encoding (WinAnsi 0x80), which this reader shows as a control character.
    expect(money(invoice, invoice.totalCents)).toBe("€99.99");
    expect(pdf).toContain("\u008099.99");
    expect(pdf).toContain("Tax (19%)");
    expect(pdf).not.toContain("$");

    // A refund is in the transaction's currency, its tax given back in proportion.
    const { adjustmentId } = await demo.refund({
      transactionId: renewal!.id,
      itemId: null,
      amountCents: 0,
      reason: "test",
      full: true,
    });
    const adjustment = (await db().select().from(demo_billing).where(eq(demo_billing.id, adjustmentId)))[0]!
      .data as Record<string, any>;
    expect(adjustment).toMatchObject({
      currency_code: "EUR",
      totals: { total: "9999", tax: "1596", subtotal: "8403", currency_code: "EUR" },
    });
    await demo.settleRefund(adjustmentId, "approved");
    const refunded = (await paymentsOf(buyer.id)).find((p) => p.id === renewal!.id);
    expect(refunded).toMatchObject({ refunded_cents: 9999, currency: "EUR" });
  });

  it("support sees the euro renewal: the admin's view of the card, the failed renewal and the payment link say euros", async () => {
    const buyer = await customer();
    const admin = await createUser(db(), `currency-admin-${engine}-${++n}@example.com`, { role: "admin" });
    const { subscriptionId } = await buy({ plan: "yearly", country: "DE" }, buyer.cookie);
    await demo.activateTrial(subscriptionId);
    const [license] = await db().select().from(licenses).where(eq(licenses.user_id, buyer.id));

    // The admin's copy of the card says what the customer's says.
    const now = new Date();
    const row = (await getUserDetails(buyer.id))!.licenses.find((l) => l.id === license!.id)!;
    expect(supportView(row, now).state.line).toContain("for €99.99");
    expect(supportView(row, now).state.line).not.toContain("$");

    // A declined renewal: the payments table shows it failed for €99.99, not the plan table's $90.
    await demo.failRenewal(subscriptionId);
    const failed = (await getUserDetails(buyer.id))!.payments.find((p) => p.status === "failed");
    expect(failed).toMatchObject({ license_id: license!.id, amount_cents: 9999, currency: "EUR" });

    // The payment link support sends names the euro amount.
    await drainJobs({ skipDelays: true });
    app.mails.length = 0;
    await sendPaymentLink({ admin, licenseId: license!.id, userId: buyer.id });
    await drainJobs({ skipDelays: true });
    const link = app.mails.find((m) => m.to === buyer.email && m.subject.startsWith("Payment failed"));
    expect(link?.text).toContain("the payment of €99.99");
    expect(link?.text).not.toContain("$");
  });

  it("a trial bought in euros names its first charge in euros and can be started or cancelled; its plans and offer too", async () => {
    const buyer = await customer();
    const { checkout, subscriptionId } = await buy({ plan: "yearly", country: "DE" }, buyer.cookie);
    // The checkout's quote of every plan, in euros, is kept by the license it bought.
    const [bought] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId));
    const quoted = { currency: "EUR", plans: { monthly: 999, "6_months": 5499, yearly: 9999 } };
    expect(bought!.quoted_prices).toEqual(quoted);

    // The card: the first charge in euros, with "Start paid plan now" and "Cancel trial" offered.
    const [card] = await listUserLicenses(buyer.id);
    expect(card!.quoted_prices).toEqual(quoted);
    expect(trialConversion(card!, new Date())).toMatchObject({
      state: "converting",
      amountCents: 9999,
      currency: "EUR",
    });
    expect(trialConversion(card!, new Date())!.text).toMatch(/: €99\.99$/);
    expect(canChangeTrial(card!, new Date())).toBe(true);
    expect(paidPlanNow(card!, new Date())).toMatchObject({ amountCents: 9999, currency: "EUR" });
    // The trial's e-mail names its first charge in euros.
    await drainJobs({ skipDelays: true });
    const trialMail = app.mails.find((m) => m.to === buyer.email && m.text.includes("First charge"));
    expect(trialMail?.text).toMatch(/First charge: €99\.99 on /);
    // The success page after the overlay says it too.
    const success = await successView(buyer.id, checkout.transactionId);
    expect(success).toMatchObject({ kind: "trial-started", firstCharge: { cents: 9999, currency: "EUR" } });
    // The pricing page's note while the trial converts.
    const page = await call(() =>
      pricingRoute.loader(routeArgs(new Request("http://localhost/pricing", { headers: { cookie: buyer.cookie } }))),
    );
    expect(JSON.stringify(page.data)).toContain("still converts: €99.99 on");

    // Started now: charged in euros, and the toast says so.
    const started = await call(() =>
      licensesRoute.action(
        routeArgs(formRequest("/licenses", { intent: "start-paid-plan", licenseId: card!.id }, buyer.cookie)),
      ),
    );
    expect(started.status).toBe(200);
    expect(started.data.toast.description).toMatch(/^€99\.99 is charged now; the license renews on /);
    expect((await paymentsOf(buyer.id)).at(-1)).toMatchObject({ kind: "renewal", amount_cents: 9999, currency: "EUR" });

    // Now a paid euro license: the other plans in euros, and the cancel step's offer in euros.
    const [paid] = await listUserLicenses(buyer.id);
    expect(planSwitchOptions(paid!, new Date()).map((o) => o.price)).toEqual(["€9.99", "€54.99"]);
    const offer = offerFor(paid!, new Date());
    expect(offer).toMatchObject({ kind: "cheaper-period", to: "6_months", nextChargeCents: 5499, currency: "EUR" });
    expect(retentionOfferTexts(offer!).body).toContain("the next charge is €54.99 on");
  });

  it("a trial checkout reopened from another country is made again in that country's currency; from the same, reused", async () => {
    const buyer = await customer();
    const open = async (fields: Record<string, string>) => {
      const created = await post({ intent: "checkout", plan: "yearly", ...fields }, buyer.cookie);
      expect(created.status).toBe(200);
      return created.data.checkout as { transactionId: string; currency?: string; trial: boolean };
    };
    const inGermany = await open({ country: "DE" });
    expect(inGermany).toMatchObject({ trial: true, currency: "EUR" });
    // The same country again: the same transaction, as before.
    expect((await open({ country: "DE" })).transactionId).toBe(inGermany.transactionId);
    // From Japan: a new trial checkout in yen, the euro one superseded.
    const inJapan = await open({ country: "JP" });
    expect(inJapan).toMatchObject({ trial: true, currency: "JPY" });
    expect(inJapan.transactionId).not.toBe(inGermany.transactionId);
    expect((await transaction(inJapan.transactionId)).details.totals.currency_code).toBe("JPY");
    const paid = await post({ intent: "demo-pay", transactionId: inJapan.transactionId }, buyer.cookie);
    expect(paid.status).toBe(200);
    expect(await paymentsOf(buyer.id)).toMatchObject([{ kind: "purchase", amount_cents: 0, currency: "JPY" }]);
  });

  it("the country from the proxy's header when the form names none; JP in yen, which have no minor units", async () => {
    const buyer = await customer();
    const { checkout, subscriptionId } = await buy({ plan: "monthly" }, buyer.cookie, { "CF-IPCountry": "JP" });
    expect(checkout).toMatchObject({ currency: "JPY", priceCents: 1400 });
    expect(checkoutPlanLines(checkout).price).toBe("¥1,400 per month");
    await demo.activateTrial(subscriptionId);
    const [, charge] = await paymentsOf(buyer.id);
    expect(charge).toMatchObject({ amount_cents: 1400, currency: "JPY" });
    expect((await transaction(charge!.id)).details.totals).toMatchObject({ total: "1400", tax: "127" });
    const [card] = await listUserLicenses(buyer.id);
    expect(licenseState(card!, new Date()).line).toContain("for ¥1,400");
    const pdf = pdfText(new Uint8Array(await (await invoiceResponse(buyer.id, charge!.id)).arrayBuffer()));
    expect(pdf).toContain("¥1,400");
    expect(pdf).not.toContain("¥14.00");
  });

  it("a country the table does not list, or none: US dollars, without tax, as before", async () => {
    for (const fields of [{ country: "BR" }, { country: "nowhere" }, {}] as Record<string, string>[]) {
      const buyer = await customer();
      const { checkout, subscriptionId } = await buy({ plan: "yearly", ...fields }, buyer.cookie);
      expect(checkout).toMatchObject({ priceCents: 9000 });
      expect(checkout.currency ?? "USD").toBe("USD");
      expect((await subscription(subscriptionId)).currency_code).toBe("USD");
      await demo.activateTrial(subscriptionId);
      const [, charge] = await paymentsOf(buyer.id);
      expect(charge).toMatchObject({ amount_cents: 9000, currency: "USD" });
      expect((await transaction(charge!.id)).details.totals).toMatchObject({ total: "9000", tax: "0" });
    }
  });

  it("a flat discount is in US dollars: the checkout is charged and quoted in US dollars; a percentage one in euros", async () => {
    const flat = await customer();
    const save5 = await buy({ plan: "monthly", country: "DE", discountCode: "save5" }, flat.cookie);
    expect(save5.checkout).toMatchObject({ dueTodayCents: 400, priceCents: 900 });
    expect(save5.checkout.currency ?? "USD").toBe("USD");
    expect(await paymentsOf(flat.id)).toMatchObject([{ amount_cents: 400, currency: "USD" }]);

    const percent = await customer();
    const welcome = await buy({ plan: "monthly", country: "DE", discountCode: "WELCOME20" }, percent.cookie);
    expect(welcome.checkout).toMatchObject({ currency: "EUR", dueTodayCents: 799, priceCents: 999 });
    expect(await paymentsOf(percent.id)).toMatchObject([{ amount_cents: 799, currency: "EUR" }]);
    // The discounted first charge is not what renews: the card names the plan's full price the checkout
    // quoted in euros (decision 0072), never €7.99.
    const card = async () => licenseState((await listUserLicenses(percent.id))[0]!, new Date());
    expect(await card()).toMatchObject({ nextChargeCents: 999, nextChargeCurrency: "EUR" });
    expect((await card()).line).not.toContain("7.99");
    // The renewal after the first charge's discount is the full price in euros, and the card says it.
    await demo.renew(welcome.subscriptionId);
    expect((await paymentsOf(percent.id))[1]).toMatchObject({ amount_cents: 999, currency: "EUR" });
    expect((await card()).line).toContain("for €9.99");
  });

  it("a team's checkout in euros: seats × the country's seat price, quoted, charged, renewed and said on the card", async () => {
    const owner = await customer();
    const { checkout, subscriptionId } = await buy({ plan: "monthly", seats: "3", country: "DE" }, owner.cookie);
    expect(checkout).toMatchObject({
      currency: "EUR",
      seats: 3,
      unitCents: 999,
      priceCents: 2997,
      dueTodayCents: 2997,
    });
    expect(checkoutPlanLines(checkout).price).toBe("3 seats × €9.99 = €29.97 per month");
    expect(await paymentsOf(owner.id)).toMatchObject([
      { kind: "purchase", amount_cents: 2997, currency: "EUR", quantity: 3 },
    ]);
    const [billing] = await db()
      .select()
      .from(licenses)
      .where(and(eq(licenses.paddle_subscription_id, subscriptionId), eq(licenses.team_role, "billing")));
    const ownerCard = async () => (await listUserLicenses(owner.id)).find((l) => l.id === billing!.id)!;
    expect(licenseState(await ownerCard(), new Date())).toMatchObject({
      nextChargeCents: 2997,
      nextChargeCurrency: "EUR",
    });
    expect(licenseState(await ownerCard(), new Date()).line).toContain("for €29.97");

    // More seats now: the owner's quote, prorated in euros; the next renewal bills 5 seats × €9.99.
    const [team] = await db().select().from(teams).where(eq(teams.subscription_id, subscriptionId));
    const quote = await quoteSeatChange({ teamId: team!.id, actorId: owner.id, seats: 5 });
    expect(quote).toMatchObject({ effect: "now", currency: "EUR", renewalCents: 4995 });
    expect(quote.dueNowCents).toBeGreaterThan(0);
    expect(quote.dueNowCents).toBeLessThanOrEqual(1998);
    expect(seatQuoteText(quote, "Jan 1, 2027")).toMatch(/€[\d.]+ is charged today .+ then €49\.95 at each renewal\.$/);
    app.mails.length = 0;
    await changeSeats({ teamId: team!.id, actorId: owner.id, seats: 5 });
    await drainJobs({ skipDelays: true });
    const notice = app.mails.find((m) => m.to === owner.email && m.text.includes("Each renewal"))!;
    expect(notice.text).toContain("Each renewal: €49.95");
    expect(notice.text).toMatch(/Charged now \(prorated\): €\d+\.\d\d/);
    const added = (await paymentsOf(owner.id)).find((p) => p.kind === "seats");
    expect(added).toMatchObject({ currency: "EUR" });
    expect(licenseState(await ownerCard(), new Date()).line).toContain("for €49.95");
    await demo.renew(subscriptionId);
    expect((await paymentsOf(owner.id)).at(-1)).toMatchObject({
      kind: "renewal",
      amount_cents: 4995,
      currency: "EUR",
      quantity: 5,
    });
  });

  it("bad input stays a 4xx with its message: the seats, the plan; a price or currency in the form is ignored", async () => {
    const buyer = await customer();
    const seats = await post({ intent: "checkout", plan: "monthly", seats: "1", country: "DE" }, buyer.cookie);
    expect(seats.status).toBe(400);
    expect(seats.data.error).toMatch(/seats/);
    const plan = await post({ intent: "checkout", plan: "weekly", country: "DE" }, buyer.cookie);
    expect(plan.status).toBe(400);
    const forged = await post(
      { intent: "checkout", plan: "monthly", country: "DE", currency: "USD", priceCents: "1", amount: "1" },
      buyer.cookie,
    );
    expect(forged.data.checkout).toMatchObject({ currency: "EUR", priceCents: 999 });
  });
});
