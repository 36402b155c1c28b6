import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLING_DETAILS_TEXTS as T } from "~/domain/billing-details";
import * as profile from "~/routes/profile";
import * as billingDetails from "~/routes/profile.billing-details";
import * as invoiceRoute from "~/routes/billing.invoice";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { profiles, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { demoPurchase } from "../../support/checkout";
import { pdfText } from "../../support/pdf-text";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const USER = DEMO_ACCOUNTS[1]!;

describe.each(testEngines())("billing details on the profile and the demo invoice, on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let cookie: string;
  let user: { id: string; email: string };
  beforeAll(async () => {
    app = await startTestApp(engine, {
      AUTH_RATE_LIMIT: "1000",
      SELLER_NAME: "ForgeKit Software Ltd",
      SELLER_ADDRESS: "1 Forge Lane | Leeds LS1 1AA | United Kingdom",
      SELLER_TAX_ID: "GB123456789",
    });
    await seedDemoData(app.database.db);
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
    cookie = await signInCookie(USER.email, USER.password);
    const [row] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    user = { id: row!.id, email: row!.email };
  });
  afterAll(async () => {
    setPaymentProvider(undefined);
    await app?.close();
  });

  const post = (fields: Record<string, string>, as = cookie) =>
    call(() => billingDetails.action(routeArgs(formRequest("/profile/billing-details", fields, as))));
  const stored = async () =>
    (
      await app.database.db
        .select({ name: profiles.billing_name, address: profiles.billing_address, taxId: profiles.billing_tax_id })
        .from(profiles)
        .where(eq(profiles.id, user.id))
    )[0]!;

  it("the profile starts without billing details and saves them, back on /profile", async () => {
    const before = await call(() => profile.loader(routeArgs(getRequest("/profile", cookie))));
    expect(before.data.billingDetails).toEqual({ billing_name: null, billing_address: null, billing_tax_id: null });
    const saved = await post({
      billing_name: " Analytical Engines GmbH ",
      billing_address: "Hauptstraße 1\r\n10115 Berlin\r\n\r\nGermany",
      billing_tax_id: "de 123 456 789",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/profile#billing-details");
    expect(await stored()).toEqual({
      name: "Analytical Engines GmbH",
      address: "Hauptstraße 1\n10115 Berlin\nGermany",
      taxId: "DE 123 456 789",
    });
    const after = await call(() => profile.loader(routeArgs(getRequest("/profile", cookie))));
    expect(after.data.billingDetails.billing_tax_id).toBe("DE 123 456 789");
  });

  it("bad input is a 400 with the field's message and changes nothing; signed out is sent to log in", async () => {
    const refused = await post({ billing_name: "Acme", billing_tax_id: "DE<123>" });
    expect(refused.status).toBe(400);
    expect(refused.data.fieldErrors.billing_tax_id).toEqual([T.taxIdInvalid]);
    expect(refused.data.toast).toMatchObject({ title: T.failed, variant: "destructive" });
    const tooLong = await post({ billing_address: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.data.fieldErrors.billing_address).toEqual([T.addressTooLong]);
    expect((await stored()).name).toBe("Analytical Engines GmbH");
    const signedOut = await post({ billing_name: "Mallory" }, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
  });

  it("the demo invoice bills the buyer's billing details and names the seller's legal name, address and tax id", async () => {
    const { transactionId } = await demoPurchase(app.database.db, demo, user, "yearly");
    const response = (await invoiceRoute.loader({
      ...routeArgs(getRequest(`/billing/invoices/${transactionId}`, cookie)),
      params: { paymentId: transactionId },
    })) as Response;
    expect(response.status).toBe(200);
    const text = pdfText(new Uint8Array(await response.arrayBuffer()));
    for (const line of [
      "ForgeKit Software Ltd",
      "1 Forge Lane",
      "Leeds LS1 1AA",
      "United Kingdom",
      "VAT / tax id: GB123456789",
      "Analytical Engines GmbH",
      "Hauptstraße 1",
      "10115 Berlin",
      "Germany",
      "VAT / tax id: DE 123 456 789",
      user.email,
    ])
      expect(text.split("\n")).toContain(line);
  });

  it("cleared fields are stored as none, and the invoice falls back to the person's name", async () => {
    const cleared = await post({ billing_name: "", billing_address: " ", billing_tax_id: "" });
    expect(cleared.status).toBe(302);
    expect(await stored()).toEqual({ name: null, address: null, taxId: null });
  });
});
