import { afterEach, describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import { PAYMENT_PROBLEM_TEXTS } from "~/domain/past-due";
import * as paymentMethodRoute from "~/routes/billing.payment-method";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { createPaddleProvider } from "~/server/billing/paddle-provider.server";
import { demoPurchase } from "../support/checkout";
import { transaction } from "../support/paddle-fixtures";
import { call, formRequest, routeArgs } from "../support/route-call";
import { testEngines } from "../support/test-app";

import { paymentProblemsSuite } from "../support/payment-problems-suite";

describe.each(testEngines())("payment problems on %s", (engine) => {
  const { state, db, licenseOf } = paymentProblemsSuite(engine);

  describe("Update payment method", () => {
    const post = (fields: Record<string, string>, cookie = state.userCookie) =>
      call(() => paymentMethodRoute.action(routeArgs(formRequest("/billing/payment-method", fields, cookie))));
    const realFetch = globalThis.fetch;
    afterEach(() => {
      globalThis.fetch = realFetch;
      setPaymentProvider(state.demo);
    });

    it("demo: start gives the failed renewal's transaction; paying it recovers the subscription", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "yearly");
      const failed = (await state.demo.failRenewal(subscriptionId)) as { transactionId: string };
      const license = await licenseOf(subscriptionId);
      const started = await post({ intent: "start", licenseId: license.id });
      expect(started.status).toBe(200);
      expect(started.data).toMatchObject({ ok: true, transactionId: failed.transactionId, demo: true });
      const paid = await post({ intent: "demo-pay", licenseId: license.id });
      expect(paid.status).toBe(200);
      expect(paid.data).toMatchObject({ recovered: true, toast: { title: PAYMENT_PROBLEM_TEXTS.updated } });
      const after = await licenseOf(subscriptionId);
      expect(after.past_due_since).toBeNull();
      expect(after.end_date.toISOString()).toBe(addMonths(license.end_date, 12).toISOString());
      // Nothing is due any more.
      expect((await post({ intent: "demo-pay", licenseId: license.id })).status).toBe(409);
    });

    it("only the owner, only while a payment is due; bad input is a 4xx", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      const license = await licenseOf(subscriptionId);
      const notDue = await post({ intent: "start", licenseId: license.id });
      expect(notDue.status).toBe(409);
      expect(notDue.data.toast.description).toBe(PAYMENT_PROBLEM_TEXTS.nothingDue);
      await state.demo.failRenewal(subscriptionId);
      expect((await post({ intent: "start", licenseId: license.id }, state.adminCookie)).status).toBe(404);
      expect((await post({ intent: "demo-pay", licenseId: license.id }, state.adminCookie)).status).toBe(404);
      expect((await post({ intent: "start", licenseId: "not-a-uuid" })).status).toBe(404);
      expect((await post({ intent: "steal", licenseId: license.id })).status).toBe(400);
      const signedOut = await post({ intent: "start", licenseId: license.id }, "");
      expect(signedOut.status).toBe(302);
      expect((await licenseOf(subscriptionId)).past_due_since).not.toBeNull();
    });

    it("Paddle: start asks GET /subscriptions/{id}/update-payment-method-transaction and gives the overlay its id", async () => {
      const { subscriptionId } = await demoPurchase(db(), state.demo, state.user, "monthly");
      await state.demo.failRenewal(subscriptionId);
      const license = await licenseOf(subscriptionId);
      const sent: string[] = [];
      const txn = {
        ...transaction({ userId: state.user.id, subscriptionId, amountCents: 0, start: new Date(), end: null }),
        status: "ready",
      };
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        sent.push(`${request.method} ${request.url}`);
        return new Response(JSON.stringify({ data: txn, meta: { request_id: "r" } }), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        });
      }) as typeof fetch;
      setPaymentProvider(
        createPaddleProvider({ apiKey: "pdl_sdbx_apikey_test", environment: "sandbox", webhookSecret: "x" }),
      );
      const started = await post({ intent: "start", licenseId: license.id });
      expect(started.status).toBe(200);
      expect(started.data).toMatchObject({ transactionId: txn.id, demo: false });
      expect(sent).toEqual([
        `GET https://sandbox-api.paddle.com/subscriptions/${subscriptionId}/update-payment-method-transaction`,
      ]);
      // The demo's own payment does not exist with Paddle.
      expect((await post({ intent: "demo-pay", licenseId: license.id })).status).toBe(404);
    });
  });
});
