import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as billingRoute from "~/routes/billing";
import * as adminInvoiceRoute from "~/routes/admin/user-invoice";
import * as invoiceRoute from "~/routes/billing.invoice";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { licenses, payments, profiles, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { demoExtensionCharge, demoPurchase } from "../../support/checkout";
import { pdfText } from "../../support/pdf-text";
import { call, getRequest, routeArgs } from "../../support/route-call";
import { adminFile } from "../../support/admin-route";
import { testEngines, type TestApp } from "../../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("billing history and invoices on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let userCookie: string;
  let adminCookie: string;
  let user: { id: string; email: string };
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine, {
      SELLER_ADDRESS: "1 Forge Lane, Leeds LS1 1AA, UK",
    }));
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
    const [row] = await app.database.db.select().from(users).where(eq(users.email, USER!.email));
    user = { id: row!.id, email: row!.email };
    await app.database.db
      .update(profiles)
      .set({ full_name: "Ada Lovelace", company_name: "Analytical Engines Ltd" })
      .where(eq(profiles.id, user.id));
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });

  const db = () => app.database.db;
  const history = async (cookie: string) => call(() => billingRoute.loader(routeArgs(getRequest("/billing", cookie))));
  const invoice = (paymentId: string, cookie: string) =>
    invoiceRoute.loader({
      ...routeArgs(getRequest(`/billing/invoices/${paymentId}`, cookie)),
      params: { paymentId },
    }) as Promise<Response>;
  const licenseOf = async (subscriptionId: string) =>
    (await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;

  it("lists every payment, newest first: date, what it paid for with the license's short id, amount, status", async () => {
    const { transactionId: bought, subscriptionId } = await demoPurchase(db(), demo, user, "yearly");
    const renewal = await demo.renew(subscriptionId);
    const license = await licenseOf(subscriptionId);
    const { transactionId: extension } = await demoExtensionCharge(db(), demo, user, license.id, {
      months: 2,
      amountCents: 1800,
    });
    await demo.payExtension(extension);

    const { status, data } = await history(userCookie);
    expect(status).toBe(200);
    const entries = data.entries as { id: string; billed_at: string }[];
    const own = await db().select().from(payments).where(eq(payments.user_id, user.id));
    expect(entries).toHaveLength(own.length);
    expect(entries.map((e) => e.billed_at)).toEqual([...entries.map((e) => e.billed_at)].sort().reverse());
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    expect(byId.get(bought)).toMatchObject({
      kind: "purchase",
      license_type: "yearly",
      license_short_id: license.short_id,
      amount_cents: 9000,
      refunded_cents: 0,
      currency: "USD",
    });
    expect(renewal.outcome).toBe("renewed");
    expect(byId.get((renewal as { transactionId: string }).transactionId)).toMatchObject({
      kind: "renewal",
      license_short_id: license.short_id,
      amount_cents: 9000,
    });
    expect(byId.get(extension)).toMatchObject({ kind: "extension", amount_cents: 1800 });
    // Only what the page shows: no user ids, item ids or subscription ids.
    expect(Object.keys(entries[0]!).sort()).toEqual(
      [
        "amount_cents",
        "billed_at",
        "currency",
        "first_paid",
        "id",
        "kind",
        "license_short_id",
        "license_type",
        "pending_refund_cents",
        "refunded_cents",
        "team",
      ].sort(),
    );
  });

  it("shows a refund on the payment it refunded, with the amount and share given back", async () => {
    const { transactionId, subscriptionId } = await demoPurchase(db(), demo, user, "monthly");
    const { adjustmentId } = await demo.refund({ transactionId, itemId: null, amountCents: 855, reason: "test" });
    await demo.settleRefund(adjustmentId, "approved");
    expect((await licenseOf(subscriptionId)).refunded).toBe(true);
    const { data } = await history(userCookie);
    expect(data.entries.find((e: { id: string }) => e.id === transactionId)).toMatchObject({
      amount_cents: 900,
      refunded_cents: 855,
    });
    // Its invoice names the amount given back, not a vague "Partially refunded" (decision 0030).
    const pdf = pdfText(new Uint8Array(await (await invoice(transactionId, userCookie)).arrayBuffer()));
    expect(pdf).toContain("Refunded $8.55 (95%)");
    expect(pdf).not.toMatch(/partially/i);
    // The seeded refunded license's payment was marked by the seed the same way.
    const seededRefunded = (await db().select().from(licenses).where(eq(licenses.user_id, user.id))).find(
      (l) => l.refunded && l.paddle_subscription_id?.startsWith("sub_demo_seed"),
    );
    if (seededRefunded) {
      const [paid] = await db().select().from(payments).where(eq(payments.license_id, seededRefunded.id));
      expect(paid!.refunded_cents).toBe(seededRefunded.refund_amount);
    }
  });

  it("is for signed-in users only, and each sees only their own payments", async () => {
    const signedOut = await history("");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const { data } = await history(adminCookie);
    const mine = await db().select({ id: payments.id }).from(payments).where(eq(payments.user_id, user.id));
    const theirIds = new Set((data.entries as { id: string }[]).map((e) => e.id));
    for (const { id } of mine) expect(theirIds.has(id)).toBe(false);
  });

  it("the demo invoice is a PDF naming the seller, the buyer's name and company, the line item, tax and total", async () => {
    const { transactionId, subscriptionId } = await demoPurchase(db(), demo, user, "6_months");
    const license = await licenseOf(subscriptionId);
    const response = await invoice(transactionId, userCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="invoice-INV-\d{8}-[0-9A-F]{6}\.pdf"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain("INVOICE");
    expect(text).toContain(app.env.PRODUCT_NAME);
    expect(text).toContain("1 Forge Lane, Leeds LS1 1AA, UK");
    expect(text).toContain(app.env.SUPPORT_EMAIL);
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Analytical Engines Ltd");
    expect(text).toContain(user.email);
    expect(text).toContain(`${app.env.PRODUCT_NAME}: 6 Months license`);
    expect(text).toContain(`License ${license.short_id}`);
    expect(text).toContain("Subtotal");
    expect(text).toMatch(/Tax \(0%\)/);
    expect(text).toContain("Total");
    expect(text).toContain("$49.50");
    expect(text).toContain(transactionId);
  });

  it("a name the PDF's fonts cannot print still gives an invoice (unprintable characters become ?)", async () => {
    await db().update(profiles).set({ full_name: "Łukasz 李雷" }).where(eq(profiles.id, user.id));
    try {
      const { transactionId } = await demoPurchase(db(), demo, user, "monthly");
      const response = await invoice(transactionId, userCookie);
      expect(response.status).toBe(200);
      expect(pdfText(new Uint8Array(await response.arrayBuffer()))).toContain("?ukasz ??");
    } finally {
      await db().update(profiles).set({ full_name: "Ada Lovelace" }).where(eq(profiles.id, user.id));
    }
  });

  it("only the owner gets an invoice: another user (an admin too), a made-up id or a free trial's payment is 404", async () => {
    const { transactionId } = await demoPurchase(db(), demo, user, "monthly");
    expect((await invoice(transactionId, adminCookie)).status).toBe(404);
    expect((await invoice("txn_demo_doesnotexist", userCookie)).status).toBe(404);
    expect((await invoice("../../etc/passwd", userCookie)).status).toBe(404);
    const signedOut = await call(() => invoice(transactionId, ""));
    expect(signedOut.status).toBe(302);
    const other = await db().select().from(users).where(eq(users.email, ADMIN!.email));
    const trialBuyer = { id: other[0]!.id, email: other[0]!.email };
    const { transactionId: free } = await demoPurchase(db(), demo, trialBuyer, "monthly", { trial: true });
    expect((await invoice(free, adminCookie)).status).toBe(404);
  });

  it("support reads a customer's invoice from the user's admin page: admins only, that user's payments only", async () => {
    const { transactionId } = await demoPurchase(db(), demo, user, "monthly");
    const load = (userId: string, paymentId: string, cookie: string) =>
      adminFile(adminInvoiceRoute.loader, getRequest(`/admin/users/${userId}/invoices/${paymentId}`, cookie), {
        userId,
        paymentId,
      });
    const adminInvoice = (userId: string, paymentId: string, cookie: string) =>
      call(() => load(userId, paymentId, cookie));
    const got = await load(user.id, transactionId, adminCookie);
    expect(got.status).toBe(200);
    expect(got.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdfText(new Uint8Array(await got.arrayBuffer()))).toContain("Ada Lovelace");
    // The customer (not an admin) is sent away; signed out, too.
    expect((await adminInvoice(user.id, transactionId, userCookie)).status).toBe(302);
    expect((await adminInvoice(user.id, transactionId, "")).status).toBe(302);
    // Another user's id with this payment: not theirs, 404.
    const [admin] = await db().select().from(users).where(eq(users.email, ADMIN!.email));
    expect((await adminInvoice(admin!.id, transactionId, adminCookie)).status).toBe(404);
  });

  describe("with Paddle", () => {
    const realFetch = globalThis.fetch;
    let sent: { method: string; url: string }[];
    let answer: () => { status: number; body: unknown };
    afterEach(() => {
      globalThis.fetch = realFetch;
      setPaymentProvider(demo);
    });
    const usePaddle = () => {
      sent = [];
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        sent.push({ method: request.method, url: request.url });
        const { status, body } = answer();
        return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      }) as typeof fetch;
      setPaymentProvider(
        createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "x" }),
      );
    };

    it("Download invoice redirects to the link Paddle gives for GET /transactions/{id}/invoice", async () => {
      const { transactionId } = await demoPurchase(db(), demo, user, "monthly");
      usePaddle();
      const url = "https://sandbox-invoice-service-invoices.s3.amazonaws.com/invoice.pdf?X-Amz-Signature=abc";
      answer = () => ({ status: 200, body: { data: { url }, meta: { request_id: "req_1" } } });
      const response = await invoice(transactionId, userCookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(url);
      expect(sent).toEqual([
        {
          method: "GET",
          url: `https://sandbox-api.paddle.com/transactions/${transactionId}/invoice?disposition=attachment`,
        },
      ]);
      // Ownership is checked before Paddle is asked.
      sent = [];
      expect((await invoice(transactionId, adminCookie)).status).toBe(404);
      expect(sent).toEqual([]);
    });

    it("Paddle failing answers 502 with a message, not 500", async () => {
      const { transactionId } = await demoPurchase(db(), demo, user, "monthly");
      usePaddle();
      answer = () => ({
        status: 500,
        body: { error: { type: "api_error", code: "internal_error", detail: "down" }, meta: { request_id: "r" } },
      });
      const response = await invoice(transactionId, userCookie);
      expect(response.status).toBe(502);
      expect(await response.text()).toBe("The invoice could not be fetched. Please try again.");
    });
  });
});
