import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OFFLINE_DATA_MESSAGES } from "~/domain/offline-data";
import * as extendRoute from "~/routes/extend-license";
import * as licensesRoute from "~/routes/licenses";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { audit_log, demo_billing, licenses, payments, users, type License } from "~/server/db/schema";
import { setEnv } from "~/server/env.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { extendLicense } from "~/server/licenses/extend-license.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { stubPaymentProvider } from "../../support/stub-provider";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

// What a customer does with their own licenses on /licenses and /extend-license: the page's data,
// offline data, extensions, auto-renewal and refunds.

const [ADMIN, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("license self-service actions on %s", (engine) => {
  // The demo customer's seeded licenses made again before each test, signed in, with the demo
  // provider: `state` holds the app, the provider, the customer's id and cookie and another user's cookie.
  const state = {} as { app: TestApp; demo: DemoProvider; userCookie: string; otherCookie: string; userId: string };

  beforeAll(async () => {
    // Every test signs in again; the sign-in limits are proven in the accounts tests.
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(state.app.database.db);
    state.userCookie = await signInCookie(USER.email, USER.password);
    state.otherCookie = await signInCookie(ADMIN.email, ADMIN.password);
    state.userId = (await state.app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
  });
  afterAll(async () => state.app?.close());
  beforeEach(async () => {
    // Fresh seeded licenses for every test: delete the user's and seed them again.
    await state.app.database.db.delete(users).where(eq(users.email, USER.email));
    await state.app.database.db.delete(demo_billing);
    await seedDemoData(state.app.database.db);
    state.userId = (await state.app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    state.userCookie = await signInCookie(USER.email, USER.password);
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
  });

  const db = () => state.app.database.db;
  const seeded = async (test: (l: License) => boolean) =>
    (await db().select().from(licenses).where(eq(licenses.user_id, state.userId))).find(test)!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const post = (fields: Record<string, string>, cookie = state.userCookie) =>
    call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, cookie))));
  const renewing = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_renewing");
  const tester = () => seeded((l) => l.license_type === "tester");
  /** A provider whose every call fails, as Paddle's API would when down. */
  const failingProvider = () =>
    stubPaymentProvider({}, { name: "demo", fail: () => new ProviderError("Paddle is down") });

  it("a signed-out visitor is sent to /login and an unknown intent is refused", async () => {
    const signedOut = await post({ intent: "cancel-renewal", licenseId: (await renewing()).id }, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    expect((await post({ intent: "delete-everything", licenseId: (await renewing()).id })).status).toBe(400);
  });

  it("a body that is not a form answers 400, not 500", async () => {
    const request = new Request("http://localhost:3000/licenses", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: state.userCookie },
      body: "{}",
    });
    const result = await call(() => licensesRoute.action(routeArgs(request)));
    expect(result.status).toBe(400);
  });

  it("the page's data hides the key and offline data of refunded and refund-requested licenses", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.userCookie))));
    const rows = page.data.licenses as { status: string; license_key: string | null }[];
    for (const row of rows) {
      if (row.status === "refunded" || row.status === "refund_requested") expect(row.license_key).toBeNull();
      else expect(row.license_key).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    }
    expect(rows.filter((r) => r.license_key === null)).toHaveLength(2);
  });

  it("the page's data holds only what a card shows: no subscription id, user id or sync time", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.userCookie))));
    const json = JSON.stringify(page.data);
    for (const internal of [
      "paddle_subscription_id",
      "sub_demo_seed",
      "user_id",
      "subscription_synced_at",
      "extended_months",
      state.userId,
    ]) {
      expect(json).not.toContain(internal);
    }
    const renewingCard = (page.data.licenses as { has_subscription: boolean; license_type: string }[]).filter(
      (l) => l.has_subscription,
    );
    expect(renewingCard.length).toBeGreaterThan(0);
  });

  describe("offline data", () => {
    it("stores both values once and regenerates the key from the e-mail, the values and the existing dates", async () => {
      const license = await tester();
      const result = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "  CORP\\dana ",
        computer_name: "DESKTOP-42",
      });
      expect(result.status).toBe(200);
      expect(result.data.toast).toMatchObject({
        title: "License updated",
        description: "Offline data saved and new encrypted key generated.",
      });
      const after = await reload(license.id);
      expect(after).toMatchObject({ windows_username: "CORP\\dana", computer_name: "DESKTOP-42" });
      expect(after.license_key).not.toBe(license.license_key);
      expect(licenseKeys().decode(after.license_key)).toEqual({
        email: license.email,
        windows_username: "CORP\\dana",
        computer_name: "DESKTOP-42",
        start_date: license.start_date.toISOString(),
        end_date: license.end_date.toISOString(),
      });
      const again = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "other",
        computer_name: "",
      });
      expect(again.status).toBe(409);
      expect(again.data.toast.description).toBe("Offline data can be changed only once.");
      expect((await reload(license.id)).windows_username).toBe("CORP\\dana");
    });

    it("both values empty is refused with 400 and saves nothing; one value alone regenerates the key", async () => {
      const license = await renewing();
      const empty = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: " ",
        computer_name: "",
      });
      expect(empty.status).toBe(400);
      expect(empty.data.toast.description).toBe(OFFLINE_DATA_MESSAGES.bothEmpty);
      expect(empty.data.fieldErrors).toEqual({ form: [OFFLINE_DATA_MESSAGES.bothEmpty] });
      expect(await reload(license.id)).toMatchObject({
        windows_username: null,
        computer_name: null,
        license_key: license.license_key,
      });
      const one = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "",
        computer_name: "BUILD-01",
      });
      expect(one.data.toast.description).toContain("and new encrypted key generated");
      expect(licenseKeys().decode((await reload(license.id)).license_key)).toMatchObject({
        windows_username: null,
        computer_name: "BUILD-01",
      });
    });

    it("two saves at once: one wins, the other is refused", async () => {
      const license = await tester();
      const results = await Promise.all([
        post({ intent: "offline-data", licenseId: license.id, windows_username: "first", computer_name: "" }),
        post({ intent: "offline-data", licenseId: license.id, windows_username: "second", computer_name: "" }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it("checks the Windows rules on the server: 400 with a message per field, nothing saved", async () => {
      const license = await tester();
      const cases: [Record<string, string>, Record<string, string[]>][] = [
        [
          { windows_username: "x".repeat(21), computer_name: "" },
          { windows_username: [OFFLINE_DATA_MESSAGES.usernameTooLong] },
        ],
        [
          { windows_username: "da/na", computer_name: "" },
          { windows_username: [OFFLINE_DATA_MESSAGES.usernameCharacters] },
        ],
        [
          { windows_username: "", computer_name: "MY PC" },
          { computer_name: [OFFLINE_DATA_MESSAGES.computerCharacters] },
        ],
        [
          { windows_username: "", computer_name: "DESKTOP-1234567X" },
          { computer_name: [OFFLINE_DATA_MESSAGES.computerTooLong] },
        ],
        [
          { windows_username: "a|b", computer_name: "pc_1" },
          {
            windows_username: [OFFLINE_DATA_MESSAGES.usernameCharacters],
            computer_name: [OFFLINE_DATA_MESSAGES.computerCharacters],
          },
        ],
      ];
      for (const [values, fieldErrors] of cases) {
        const result = await post({ intent: "offline-data", licenseId: license.id, ...values });
        expect(result.status).toBe(400);
        expect(result.data.fieldErrors).toEqual(fieldErrors);
      }
      expect(await reload(license.id)).toMatchObject({ windows_username: null, computer_name: null });
    });

    it("refuses trial, refund-requested and revoked licenses, too-long values, and another user's license", async () => {
      const fields = { intent: "offline-data", windows_username: "dana", computer_name: "" };
      for (const license of [
        await seeded((l) => l.is_trial),
        await seeded((l) => l.status === "refund_requested"),
        await seeded((l) => l.status === "revoked"),
      ]) {
        expect((await post({ ...fields, licenseId: license.id })).status).toBe(409);
        expect((await reload(license.id)).windows_username).toBeNull();
      }
      const tooLong = await post({ ...fields, licenseId: (await tester()).id, windows_username: "x".repeat(300) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.data.fieldErrors.windows_username).toEqual([OFFLINE_DATA_MESSAGES.usernameTooLong]);
      const foreign = await post({ ...fields, licenseId: (await tester()).id }, state.otherCookie);
      expect(foreign.status).toBe(404);
      expect((await reload((await tester()).id)).windows_username).toBeNull();
    });
  });

  describe("extension", () => {
    const extend = (fields: Record<string, string>, cookie = state.userCookie) =>
      call(() => extendRoute.action(routeArgs(formRequest("/extend-license", fields, cookie))));

    it("demo: after the simulated payment, the end date moves and License Extended leads to /licenses", async () => {
      const license = await renewing();
      const result = await extend({ licenseId: license.id, months: "2", years: "1" });
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/licenses");
      const after = await reload(license.id);
      const expected = new Date(license.end_date);
      expected.setUTCMonth(expected.getUTCMonth() + 14);
      expect(after.end_date.toISOString().slice(0, 10)).toBe(expected.toISOString().slice(0, 10));
      expect(licenseKeys().decode(after.license_key).end_date).toBe(after.end_date.toISOString());
    }, 15_000);

    it("without JavaScript: a total the page did not show is shown again for confirmation, not charged", async () => {
      const license = await renewing();
      const result = await extend({ licenseId: license.id, months: "2", years: "1", quotedCents: "1800" });
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe(`/extend-license?license=${license.id}&months=2&years=1`);
      expect(result.headers.get("Set-Cookie")).toContain("fk_toast=");
      expect((await reload(license.id)).end_date.getTime()).toBe(license.end_date.getTime());
      // The total shown (2 months and a year: $117) is charged.
      const paid = await extend({ licenseId: license.id, months: "2", years: "1", quotedCents: "11700" });
      expect(paid.headers.get("Location")).toBe("/licenses");
      expect((await reload(license.id)).end_date.getTime()).toBeGreaterThan(license.end_date.getTime());
    }, 15_000);

    it("Paddle: the server prices the extension and answers with the transaction the overlay opens", async () => {
      const license = await renewing();
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
        [{ licenseId: (await renewing()).id, months: "1", years: "0" }, state.otherCookie, 404],
        [{ licenseId: (await tester()).id, months: "1", years: "0" }, state.userCookie, 409],
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
        [{ licenseId: (await renewing()).id, months: "13", years: "0" }, state.userCookie, 400],
        [{ licenseId: (await renewing()).id, months: "abc", years: "0" }, state.userCookie, 400],
      ];
      for (const [fields, cookie, status] of cases) {
        const result = await extend(fields, cookie);
        expect(result.status).toBe(status);
        expect(result.data.toast.title).toBe("Extension Failed");
      }
    }, 30_000);

    it("a refused extension is answered before the demo's simulated payment, not after it", async () => {
      // An hour-long simulated payment: waiting for it first would time the test out.
      const refused = (licenseId: string, months = 1) =>
        extendLicense(
          { userId: state.userId, email: USER.email, licenseId, months, years: 0 },
          { demoDelayMs: 3_600_000 },
        );
      await expect(refused((await seeded((l) => l.status === "revoked")).id)).rejects.toMatchObject({ status: 409 });
      await expect(refused((await renewing()).id, 13)).rejects.toMatchObject({ status: 400 });
    });

    it("the page reads the license from its address on the server: own, extendable licenses only", async () => {
      const load = (query: string, cookie = state.userCookie) =>
        call(() => extendRoute.loader(routeArgs(getRequest(`/extend-license${query}`, cookie))));
      const license = await renewing();
      const page = await load(`?license=${license.id}`);
      expect(page.status).toBe(200);
      expect(page.data.license).toEqual({
        id: license.id,
        short_id: license.short_id,
        license_type: "monthly",
        end_date: license.end_date.toISOString(),
      });
      expect(typeof page.data.now).toBe("string");
      // The steppers' links carry the numbers (no JavaScript); anything out of range counts as 0.
      expect((await load(`?license=${license.id}&months=2&years=1`)).data).toMatchObject({ months: 2, years: 1 });
      expect((await load(`?license=${license.id}&months=13&years=x`)).data).toMatchObject({ months: 0, years: 0 });
      expect((await load("")).headers.get("Location")).toBe("/licenses");
      for (const [query, cookie] of [
        [`?license=${license.id}`, state.otherCookie],
        [`?license=${(await seeded((l) => l.is_trial)).id}`, state.userCookie],
        [`?license=${(await tester()).id}`, state.userCookie],
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

  describe("auto-renewal", () => {
    it("cancel → the provider schedules it → Subscription Cancelled; re-enable → Auto-Renewal Enabled", async () => {
      const license = await renewing();
      const cancelled = await post({ intent: "cancel-renewal", licenseId: license.id });
      expect(cancelled.status).toBe(200);
      expect(cancelled.data.toast).toMatchObject({
        title: "Subscription Cancelled",
        description: expect.stringContaining("will be cancelled at the end of the current billing period"),
      });
      expect(await reload(license.id)).toMatchObject({
        auto_renew: false,
        cancellation_requested: true,
        status: "active",
      });
      const [sub] = await db().select().from(demo_billing).where(eq(demo_billing.id, license.paddle_subscription_id!));
      expect((sub!.data as { scheduled_change: { action: string } }).scheduled_change.action).toBe("cancel");
      expect((await post({ intent: "cancel-renewal", licenseId: license.id })).status).toBe(409);

      const reenabled = await post({ intent: "reenable-renewal", licenseId: license.id });
      expect(reenabled.status).toBe(200);
      expect(reenabled.data.toast.title).toBe("Auto-Renewal Enabled");
      expect(await reload(license.id)).toMatchObject({
        auto_renew: true,
        cancellation_requested: false,
        cancellation_requested_at: null,
      });
      expect((await post({ intent: "reenable-renewal", licenseId: license.id })).status).toBe(409);
    });

    it("a license without a subscription id: No subscription ID found for this license", async () => {
      const result = await post({ intent: "cancel-renewal", licenseId: (await tester()).id });
      expect(result.status).toBe(409);
      expect(result.data.toast.description).toBe("No subscription ID found for this license");
    });

    it("when the provider fails, the page's text with a 502, and the license is unchanged", async () => {
      setPaymentProvider(failingProvider());
      const license = await renewing();
      const cancel = await post({ intent: "cancel-renewal", licenseId: license.id });
      expect(cancel.status).toBe(502);
      expect(cancel.data.toast.description).toBe("Failed to cancel subscription");
      expect(await reload(license.id)).toMatchObject({ auto_renew: true, cancellation_requested: false });
      const cancelling = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
      const reenable = await post({ intent: "reenable-renewal", licenseId: cancelling.id });
      expect(reenable.status).toBe(502);
      expect(reenable.data.toast.description).toBe("Failed to re-enable renewal");
      expect((await reload(cancelling.id)).cancellation_requested).toBe(true);
    });

    it("another user's license answers 404 and changes nothing", async () => {
      const license = await renewing();
      expect((await post({ intent: "cancel-renewal", licenseId: license.id }, state.otherCookie)).status).toBe(404);
      expect((await post({ intent: "cancel-renewal", licenseId: "not-a-uuid" })).status).toBe(404);
      expect((await reload(license.id)).auto_renew).toBe(true);
    });
  });

  describe("refund", () => {
    it("Request Refund: the provider refunds 95% of the plan price, the license is refund_requested, renewal stops, the audit log has it", async () => {
      // E-mails queued by earlier tests (a cancellation's) go first: the count below is this test's.
      await drainJobs();
      const license = await renewing();
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(200);
      expect(result.data.toast).toMatchObject({
        title: "Refund Requested",
        description: expect.stringContaining("$8.55"),
      });
      expect(await drainJobs()).toBe(1);
      expect(await reload(license.id)).toMatchObject({
        status: "refund_requested",
        auto_renew: false,
        cancellation_requested: true,
      });
      const adjustments = await db()
        .select()
        .from(demo_billing)
        .where(
          and(eq(demo_billing.kind, "adjustment"), eq(demo_billing.subscription_id, license.paddle_subscription_id!)),
        );
      expect(adjustments.map((a) => (a.data as { totals: { total: string } }).totals.total)).toEqual(["855"]);
      const [entry] = await db().select().from(audit_log).where(eq(audit_log.target_id, license.id));
      expect(entry).toMatchObject({
        actor_id: state.userId,
        actor_email: USER.email,
        action: "refund.request",
        target_type: "license",
      });
      // The state the license was in, in the customer's words (decision 0030): the audit CSV carries it.
      expect(entry!.details).toMatchObject({
        amount_cents: 855,
        license_state: "Active",
        license_status_line: expect.stringMatching(/^Active, renews on .+ for \$9\.00$/),
        desktop_code: "VALID",
      });
      expect((await post({ intent: "request-refund", licenseId: license.id })).status).toBe(409);
    });

    it("after an extension, the refund covers the plan's purchase and the extension, one adjustment each", async () => {
      const license = await renewing();
      await call(() =>
        extendRoute.action(
          routeArgs(
            formRequest("/extend-license", { licenseId: license.id, months: "1", years: "0" }, state.userCookie),
          ),
        ),
      );
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(200);
      expect(result.data.toast.description).toContain("$17.10");
      const paid = await db().select().from(payments).where(eq(payments.license_id, license.id));
      const refunded = (await db().select().from(demo_billing).where(eq(demo_billing.kind, "adjustment")))
        .map((a) => a.data as { transaction_id: string; totals: { total: string } })
        .filter((a) => paid.some((p) => p.id === a.transaction_id));
      expect(refunded.map((a) => a.transaction_id).sort()).toEqual(paid.map((p) => p.id).sort());
      expect(refunded.map((a) => a.totals.total)).toEqual(["855", "855"]);
    }, 15_000);

    it("refuses a license outside its refund window, a trial, a tester, and another user's license", async () => {
      for (const [license, why] of [
        [await seeded((l) => l.license_type === "yearly" && l.status === "active"), "The refund window ended on "],
        [await seeded((l) => l.is_trial), "A trial is free"],
        [await tester(), "Tester licenses are free"],
      ] as const) {
        const result = await post({ intent: "request-refund", licenseId: license.id });
        expect(result.status).toBe(409);
        // It says why, not only that it cannot.
        expect(JSON.stringify(result.data)).toContain(why);
        expect((await reload(license.id)).status).toBe(license.status);
      }
      expect(
        (await post({ intent: "request-refund", licenseId: (await renewing()).id }, state.otherCookie)).status,
      ).toBe(404);
      expect((await reload((await renewing()).id)).status).toBe("active");
    });

    it("when the provider refuses: Failed to process refund, nothing recorded", async () => {
      setPaymentProvider(failingProvider());
      const license = await renewing();
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(502);
      // The customer sees the failure, in words (decision 0036): "Failed to process refund: …".
      expect(result.data.toast.description).toMatch(/^Failed to process refund: the payment provider did not accept/);
      expect((await reload(license.id)).status).toBe("active");
      expect(await db().select().from(audit_log).where(eq(audit_log.target_id, license.id))).toHaveLength(0);
    });
  });
});
