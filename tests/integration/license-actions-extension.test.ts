import { describe, expect, it } from "vitest";
import * as extendRoute from "~/routes/extend-license";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { setEnv } from "~/server/env.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { call, formRequest, getRequest, routeArgs } from "../support/route-call";
import { testEngines } from "../support/test-app";

const [, USER] = DEMO_ACCOUNTS;
import { licenseActionsSuite } from "../support/license-actions-suite";

describe.each(testEngines())("license self-service actions on %s", (engine) => {
  const { state, seeded, reload, tester } = licenseActionsSuite(engine);

  describe("extension", () => {
    const extend = (fields: Record<string, string>, cookie = state.userCookie) =>
      call(() => extendRoute.action(routeArgs(formRequest("/extend-license", fields, cookie))));

    it("demo: after the simulated payment, the end date moves and License Extended leads to /licenses", async () => {
      const license = await tester();
      const result = await extend({ licenseId: license.id, months: "2", years: "1" });
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/licenses");
      const after = await reload(license.id);
      const expected = new Date(license.end_date);
      expected.setUTCMonth(expected.getUTCMonth() + 14);
      expect(after.end_date.toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
      expect(licenseKeys().decode(after.license_key).end_date).toBe(after.end_date.toISOString());
    }, 15_000);

    it("Paddle: the server prices the extension and answers with the transaction the overlay opens", async () => {
      const license = await tester();
      const charges: unknown[] = [];
      setEnv({ ...state.app.env, PAYMENT_PROVIDER: "paddle" });
      setPaymentProvider({
        ...state.demo,
        name: "paddle",
        createExtensionCharge: async (input) => {
          charges.push(input);
          return { transactionId: "txn_01paddleextension" };
        },
      });
      try {
        const result = await extend({ licenseId: license.id, months: "2", years: "1" });
        expect(result.status).toBe(200);
        expect(result.data).toEqual({ toast: null, checkoutTransactionId: "txn_01paddleextension" });
        expect(charges).toEqual([
          expect.objectContaining({
            licenseId: license.id,
            months: 2,
            years: 1,
            amountCents: 11700,
            email: USER.email,
          }),
        ]);
        // Nothing changes until the payment's webhook arrives.
        expect((await reload(license.id)).end_date.getTime()).toBe(license.end_date.getTime());
      } finally {
        setEnv(state.app.env);
      }
    });

    it("refuses another user's, a revoked or refunded license, and bad numbers, with Extension Failed", async () => {
      const cases: [Record<string, string>, string, number][] = [
        [{ licenseId: (await tester()).id, months: "1", years: "0" }, state.otherCookie, 404],
        [
          { licenseId: (await seeded((l) => l.status === "revoked")).id, months: "1", years: "0" },
          state.userCookie,
          409,
        ],
        [
          { licenseId: (await seeded((l) => l.status === "refunded")).id, months: "1", years: "0" },
          state.userCookie,
          409,
        ],
        [{ licenseId: (await seeded((l) => l.is_trial)).id, months: "1", years: "0" }, state.userCookie, 409],
        [{ licenseId: (await tester()).id, months: "13", years: "0" }, state.userCookie, 400],
        [{ licenseId: (await tester()).id, months: "abc", years: "0" }, state.userCookie, 400],
      ];
      for (const [fields, cookie, status] of cases) {
        const result = await extend(fields, cookie);
        expect(result.status).toBe(status);
        expect(result.data.toast.title).toBe("Extension Failed");
      }
    }, 30_000);

    it("the page reads the license from its address on the server: own, extendable licenses only", async () => {
      const load = (query: string, cookie = state.userCookie) =>
        call(() => extendRoute.loader(routeArgs(getRequest(`/extend-license${query}`, cookie))));
      const license = await tester();
      const page = await load(`?license=${license.id}`);
      expect(page.status).toBe(200);
      expect(page.data.license).toEqual({
        id: license.id,
        short_id: license.short_id,
        license_type: "tester",
        end_date: license.end_date.toISOString(),
      });
      expect(typeof page.data.now).toBe("string");
      expect((await load("")).headers.get("Location")).toBe("/licenses");
      for (const [query, cookie] of [
        [`?license=${license.id}`, state.otherCookie],
        [`?license=${(await seeded((l) => l.is_trial)).id}`, state.userCookie],
        [`?license=${(await seeded((l) => l.status === "revoked")).id}`, state.userCookie],
        ["?license=not-a-uuid", state.userCookie],
      ] as const) {
        const refused = await load(query, cookie);
        expect(refused.status).toBe(302);
        expect(refused.headers.get("Location")).toBe("/licenses");
      }
      const signedOut = await load(`?license=${license.id}`, "");
      expect(signedOut.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    });
  });
});
