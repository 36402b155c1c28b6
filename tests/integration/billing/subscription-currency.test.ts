import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseState } from "~/domain/license-state";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

/**
 * After a purchase in another currency (decision 0072): the license card's renewal and the e-mails say
 * the subscription's currency and Paddle's amount, not the plan table's US dollars.
 */

const SECRET = "whsec_test_secret_0123456789";

/** Paddle's transaction.completed of a yearly plan bought in Germany: €90.00 + 19% VAT = €107.10. */
function euroPurchase(userId: string, start: Date) {
  const txn = transaction({ userId, planType: "yearly", amountCents: 10710, start, end: days(365, start) });
  const totals = { ...txn.details.totals, subtotal: "9000", tax: "1710", currency_code: "EUR" };
  const line = txn.details.line_items[0]!;
  return {
    ...txn,
    currency_code: "EUR",
    details: {
      ...txn.details,
      tax_rates_used: [{ tax_rate: "0.19", totals: { subtotal: "9000", discount: "0", tax: "1710", total: "10710" } }],
      totals,
      adjusted_totals: totals,
      line_items: [
        {
          ...line,
          tax_rate: "0.19",
          unit_totals: { subtotal: "9000", discount: "0", tax: "1710", total: "10710" },
          totals: { subtotal: "9000", discount: "0", tax: "1710", total: "10710" },
        },
      ],
    },
  };
}

describe.each(testEngines())("a subscription in euros on %s", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { DEMO_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => app?.close());

  it("the license card and the purchase e-mail say the renewal in euros, at Paddle's amount", async () => {
    const user = await createUser(app.database.db, `euro-${engine}@example.com`);
    const start = new Date();
    const txn = euroPurchase(user.id, start);
    const result = await receiveWebhook({ ...signed(SECRET, envelope("transaction.completed", txn)), secret: SECRET });
    expect(result.status).toBe(200);
    const [row] = await app.database.db
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, txn.subscription_id!));
    expect(row).toBeDefined();

    const [card] = await listUserLicenses(user.id);
    const state = licenseState(card!, new Date());
    expect(state).toMatchObject({ state: "renewing", nextChargeCents: 10710, nextChargeCurrency: "EUR" });
    expect(state.line).toContain("for €107.10");
    expect(state.line).not.toContain("$");

    await drainJobs({ skipDelays: true });
    const mail = app.mails.find((m) => m.to === user.email);
    expect(mail).toBeDefined();
    expect(mail!.text).toContain("€107.10");
    expect(mail!.text).not.toContain("$90");
  });
});
