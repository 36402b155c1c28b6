import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as extendRoute from "~/routes/extend-license";
import * as licensesRoute from "~/routes/licenses";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { audit_log, demo_billing, licenses, users, type License } from "~/server/db/schema";
import { setEnv } from "~/server/env.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { OFFLINE_DATA_MESSAGES } from "~/domain/offline-data";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../support/route-call";
import { stubPaymentProvider } from "../support/stub-provider";
import { startTestApp, testEngines, type TestApp } from "../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("license self-service actions on %s", (engine) => {
  let app: TestApp;
  let demo: DemoProvider;
  let userCookie: string;
  let otherCookie: string;
  let userId: string;

  beforeAll(async () => {
    // Every test signs in again; the sign-in limits are proven in the accounts suite.
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" });
    await seedDemoData(app.database.db);
    userCookie = await signInCookie(USER.email, USER.password);
    otherCookie = await signInCookie(ADMIN.email, ADMIN.password);
    userId = (await app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    // Fresh seeded licenses for every test: delete the user's and seed them again.
    await app.database.db.delete(users).where(eq(users.email, USER.email));
    await app.database.db.delete(demo_billing);
    await seedDemoData(app.database.db);
    userId = (await app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    userCookie = await signInCookie(USER.email, USER.password);
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  const seeded = async (test: (l: License) => boolean) =>
    (await db().select().from(licenses).where(eq(licenses.user_id, userId))).find(test)!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const post = (fields: Record<string, string>, cookie = userCookie) =>
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
      headers: { "Content-Type": "application/json", Cookie: userCookie },
      body: "{}",
    });
    const result = await call(() => licensesRoute.action(routeArgs(request)));
    expect(result.status).toBe(400);
  });

  it("the page's data hides the key and offline data of refunded and refund-requested licenses", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, userCookie))));
    const rows = page.data.licenses as { status: string; license_key: string | null }[];
    for (const row of rows) {
      if (row.status === "refunded" || row.status === "refund_requested") expect(row.license_key).toBeNull();
      else expect(row.license_key).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    }
    expect(rows.filter((r) => r.license_key === null)).toHaveLength(2);
  });

  it("the page's data holds only what a card shows: no subscription id, user id or sync time", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, userCookie))));
    const json = JSON.stringify(page.data);
    for (const internal of [
      "paddle_subscription_id",
      "sub_demo_seed",
      "user_id",
      "subscription_synced_at",
      "extended_months",
      userId,
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
      const foreign = await post({ ...fields, licenseId: (await tester()).id }, otherCookie);
      expect(foreign.status).toBe(404);
      expect((await reload((await tester()).id)).windows_username).toBeNull();
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
      expect((await post({ intent: "cancel-renewal", licenseId: license.id }, otherCookie)).status).toBe(404);
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
        actor_id: userId,
        actor_email: USER.email,
        action: "refund.request",
        target_type: "license",
      });
      // The state the license was in, in the customer's words (issue 24): the audit CSV carries it.
      expect(entry!.details).toMatchObject({
        amount_cents: 855,
        license_state: "Active",
        license_status_line: expect.stringMatching(/^Active, renews on .+ for \$9\.00$/),
        desktop_code: "VALID",
      });
      expect((await post({ intent: "request-refund", licenseId: license.id })).status).toBe(409);
    });

    it("after an extension, the refund is still made against the plan's purchase", async () => {
      const license = await renewing();
      await call(() =>
        extendRoute.action(
          routeArgs(formRequest("/extend-license", { licenseId: license.id, months: "1", years: "0" }, userCookie)),
        ),
      );
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(200);
      const [adjustment] = await db()
        .select()
        .from(demo_billing)
        .where(
          and(eq(demo_billing.kind, "adjustment"), eq(demo_billing.subscription_id, license.paddle_subscription_id!)),
        );
      const [purchase] = await db()
        .select()
        .from(demo_billing)
        .where(
          and(eq(demo_billing.kind, "transaction"), eq(demo_billing.subscription_id, license.paddle_subscription_id!)),
        );
      expect((adjustment!.data as { transaction_id: string }).transaction_id).toBe(purchase!.id);
    }, 15_000);

    it("refuses a license outside its refund window, a trial, a tester, and another user's license", async () => {
      for (const [license, why] of [
        [await seeded((l) => l.license_type === "yearly" && l.status === "active"), "The refund window ended on "],
        [await seeded((l) => l.is_trial), "A trial is free"],
        [await tester(), "Tester licenses are free"],
      ] as const) {
        const result = await post({ intent: "request-refund", licenseId: license.id });
        expect(result.status).toBe(409);
        // It says why (issue 24), not only that it cannot.
        expect(JSON.stringify(result.data)).toContain(why);
        expect((await reload(license.id)).status).toBe(license.status);
      }
      expect((await post({ intent: "request-refund", licenseId: (await renewing()).id }, otherCookie)).status).toBe(
        404,
      );
      expect((await reload((await renewing()).id)).status).toBe("active");
    });

    it("when the provider refuses: Failed to process refund, nothing recorded", async () => {
      setPaymentProvider(failingProvider());
      const license = await renewing();
      const result = await post({ intent: "request-refund", licenseId: license.id });
      expect(result.status).toBe(502);
      expect(result.data.toast.description).toBe("Failed to process refund");
      expect((await reload(license.id)).status).toBe("active");
      expect(await db().select().from(audit_log).where(eq(audit_log.target_id, license.id))).toHaveLength(0);
    });
  });

  describe("extension", () => {
    const extend = (fields: Record<string, string>, cookie = userCookie) =>
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
      setEnv({ ...app.env, PAYMENT_PROVIDER: "paddle" });
      setPaymentProvider({
        ...demo,
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
        setEnv(app.env);
      }
    });

    it("refuses another user's, a revoked or refunded license, and bad numbers, with Extension Failed", async () => {
      const cases: [Record<string, string>, string, number][] = [
        [{ licenseId: (await tester()).id, months: "1", years: "0" }, otherCookie, 404],
        [{ licenseId: (await seeded((l) => l.status === "revoked")).id, months: "1", years: "0" }, userCookie, 409],
        [{ licenseId: (await seeded((l) => l.status === "refunded")).id, months: "1", years: "0" }, userCookie, 409],
        [{ licenseId: (await seeded((l) => l.is_trial)).id, months: "1", years: "0" }, userCookie, 409],
        [{ licenseId: (await tester()).id, months: "13", years: "0" }, userCookie, 400],
        [{ licenseId: (await tester()).id, months: "abc", years: "0" }, userCookie, 400],
      ];
      for (const [fields, cookie, status] of cases) {
        const result = await extend(fields, cookie);
        expect(result.status).toBe(status);
        expect(result.data.toast.title).toBe("Extension Failed");
      }
    }, 30_000);

    it("the page reads the license from its address on the server: own, extendable licenses only", async () => {
      const load = (query: string, cookie = userCookie) =>
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
        [`?license=${license.id}`, otherCookie],
        [`?license=${(await seeded((l) => l.is_trial)).id}`, userCookie],
        [`?license=${(await seeded((l) => l.status === "revoked")).id}`, userCookie],
        ["?license=not-a-uuid", userCookie],
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
