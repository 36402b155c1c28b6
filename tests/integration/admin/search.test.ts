import { eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_TOO_SHORT, type SearchMatch } from "~/domain/admin-search";
import * as usersRoute from "~/routes/admin/users";
import * as emailChange from "~/routes/email-change";
import * as profileRoute from "~/routes/profile";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { checkouts, licenses, payments, user_email_history, users } from "~/server/db/schema";
import { flushMail } from "~/server/mail/outbox.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { throughAdminGuard } from "../../support/admin-route";
import { days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { createUser, linkIn, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const MIGRATION_ENGINES = testEngines({ pglite: "always", because: "a migration, on both engines" });

const [ADMIN, CUSTOMER] = DEMO_ACCOUNTS;
const SECRET = "whsec_test_secret_0123456789";

interface Found {
  id: string;
  email: string;
  match: SearchMatch;
}

describe.each(testEngines())("finding a customer on %s", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", DEMO_WEBHOOK_SECRET: SECRET });
    await seedDemoData(app.database.db);
    adminCookie = await signInCookie(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  const search = async (q: string) => {
    const answer = await call(() =>
      throughAdminGuard(usersRoute.loader, getRequest(`/admin/users?q=${encodeURIComponent(q)}`, adminCookie)),
    );
    expect(answer.status).toBe(200);
    return answer.data.users.value.users as Found[];
  };
  const found = async (q: string) => (await search(q)).map((r) => ({ id: r.id, match: r.match }));
  const newLicense = async (userId: string, values: Partial<typeof licenses.$inferInsert> = {}) =>
    (
      await db()
        .insert(licenses)
        .values({
          user_id: userId,
          email: values.email ?? "x@example.com",
          license_key: "k",
          license_type: "monthly",
          end_date: days(30),
          ...values,
        })
        .returning()
    )[0]!;

  it("by any part of a short id, as a person types it, saying which license", async () => {
    const owner = await createUser(db(), `short-${engine}@example.com`, { fullName: "Short Id Owner" });
    const license = await newLicense(owner.id, { short_id: "FK-82JA-9XKD" });
    const byLicense = [{ id: owner.id, match: { kind: "short_id", value: license.short_id } }];
    expect(await found("82JA")).toEqual(byLicense);
    expect(await found("fk-82ja")).toEqual(byLicense);
    expect(await found("FK-82JA-9X")).toEqual(byLicense);
    expect(await found("JA-9X")).toEqual(byLicense); // across the hyphen
    expect(await found("9xkd")).toEqual(byLicense); // digits: an id even in lower case
    expect(await found("fk 82ja 9xkd")).toEqual(byLicense);
    expect(await found("FK-82JA-9XKO")).toEqual([]); // O read as 0: another id
  });

  it("by a Paddle customer, subscription or transaction id, saying which", async () => {
    const buyer = await createUser(db(), `paddle-${engine}@example.com`, { fullName: "Paddle Buyer" });
    const txn = {
      ...transaction({ userId: buyer.id, amountCents: 900, start: new Date(), end: days(30) }),
      customer_id: `ctm_search${engine}`,
    };
    const delivered = await receiveWebhook({
      ...signed(SECRET, envelope("transaction.completed", txn)),
      secret: SECRET,
    });
    expect(delivered.status).toBe(200);
    // The webhook keeps the paying customer with the payment.
    const [payment] = await db().select().from(payments).where(eq(payments.id, txn.id));
    expect(payment?.customer_id).toBe(`ctm_search${engine}`);

    expect(await found(`ctm_search${engine}`)).toEqual([
      { id: buyer.id, match: { kind: "customer", value: `ctm_search${engine}` } },
    ]);
    expect(await found(txn.subscription_id!.toUpperCase())).toEqual([
      { id: buyer.id, match: { kind: "subscription", value: txn.subscription_id } },
    ]);
    expect(await found(txn.id)).toEqual([{ id: buyer.id, match: { kind: "transaction", value: txn.id } }]);
    // A transaction that never completed (a failed first payment) is found through its checkout.
    await db()
      .insert(checkouts)
      .values({
        user_id: buyer.id,
        kind: "plan",
        plan_type: "monthly",
        amount_cents: 900,
        transaction_id: `txn_failed${engine}`,
      });
    expect(await found(`txn_failed${engine}`)).toEqual([
      { id: buyer.id, match: { kind: "transaction", value: `txn_failed${engine}` } },
    ]);
    expect(await found("sub_nobody")).toEqual([]);
  });

  it("by name, current e-mail and a license's e-mail, as before, saying which", async () => {
    const ada = await createUser(db(), `ada.search-${engine}@lovelace.example`, { fullName: "Ada Searchable" });
    await newLicense(ada.id, { email: `ada.billing-${engine}@analytical.example` });
    expect(await found("searchable")).toEqual([{ id: ada.id, match: { kind: "name", value: "" } }]);
    expect(await found(`ada.search-${engine}@`)).toEqual([{ id: ada.id, match: { kind: "email", value: ada.email } }]);
    expect(await found(`billing-${engine}@analytical`)).toEqual([
      { id: ada.id, match: { kind: "license_email", value: `ada.billing-${engine}@analytical.example` } },
    ]);
  });

  it("by the address a customer had before confirming a change of e-mail", async () => {
    const [before] = await db().select().from(users).where(eq(users.email, CUSTOMER.email));
    const cookie = await signInCookie(CUSTOMER.email, CUSTOMER.password);
    const newAddress = `dana.changed-${engine}@example.com`;
    const saved = await call(() =>
      profileRoute.action(
        routeArgs(
          formRequest(
            "/profile",
            { full_name: "Dana Developer", email: newAddress, currentPassword: CUSTOMER.password },
            cookie,
          ),
        ),
      ),
    );
    expect(saved.status).toBe(200);
    expect(await db().select().from(user_email_history).where(eq(user_email_history.user_id, before!.id))).toEqual([]);
    await flushMail();
    const token = new URL(linkIn(app.mails.find((m) => m.to === newAddress))).searchParams.get("token")!;
    const confirmed = await call(() => emailChange.action(routeArgs(formRequest("/email-change", { token }))));
    expect(confirmed.data.view).toEqual({ kind: "confirmed", newEmail: newAddress });

    const results = await search(CUSTOMER.email);
    expect(results.map((r) => ({ id: r.id, email: r.email, match: r.match }))).toEqual([
      { id: before!.id, email: newAddress, match: { kind: "previous_email", value: CUSTOMER.email } },
    ]);
    // The new address matches as the current one.
    expect((await found(newAddress))[0]?.match.kind).toBe("email");
  });

  it("records every change of address, whoever makes it; a change of case is no change; deletion erases them", async () => {
    const user = await createUser(db(), `first-${engine}@example.com`, { fullName: "Many Addresses" });
    const setEmail = (email: string) => db().update(users).set({ email }).where(eq(users.id, user.id));
    await setEmail(`second-${engine}@example.com`);
    await setEmail(`SECOND-${engine}@example.com`);
    await setEmail(`third-${engine}@example.com`);
    await db().update(users).set({ name: "renamed" }).where(eq(users.id, user.id));
    const history = async () =>
      (await db().select().from(user_email_history).where(eq(user_email_history.user_id, user.id)))
        .map((row) => row.email)
        .sort();
    expect(await history()).toEqual([`SECOND-${engine}@example.com`, `first-${engine}@example.com`]);
    expect((await found(`first-${engine}@`))[0]?.match).toEqual({
      kind: "previous_email",
      value: `first-${engine}@example.com`,
    });

    await db()
      .update(users)
      .set({ email: `deleted-${user.id}@deleted.invalid`, deletedAt: new Date() })
      .where(eq(users.id, user.id));
    expect(await history()).toEqual([]);
    expect(await found(`first-${engine}@`)).toEqual([]);
  });

  it("a term under three characters is refused with a message and a 400", async () => {
    const answer = await call(() => throughAdminGuard(usersRoute.loader, getRequest("/admin/users?q=ab", adminCookie)));
    expect(answer.status).toBe(400);
    expect(answer.data.users).toMatchObject({ term: "ab", value: null, error: SEARCH_TOO_SHORT });
  });

  it("a user found several ways is listed once, with the most telling reason", async () => {
    const both = await createUser(db(), `xkdq-${engine}@example.com`, { fullName: "XKDQ Person" });
    await newLicense(both.id, { short_id: "FK-XKDQ-7777" });
    const rows = (await found("XKDQ")).filter((r) => r.id === both.id);
    expect(rows).toEqual([{ id: both.id, match: { kind: "short_id", value: "FK-XKDQ-7777" } }]);
  });
});

describe.each(MIGRATION_ENGINES)("migration 0017 on an existing database (%s)", (engine) => {
  it("gives the payments recorded before it their Paddle customer, from the stored webhook events", async () => {
    const app = await startTestApp(engine, {}, { before: "0017_admin_search" });
    try {
      const run = async (query: SQL) => (await app.database.db.execute(query)) as unknown as { rows: { id: string }[] };
      const user = (
        await run(
          sql`insert into users (email, name, email_verified) values ('old-pay@example.com', 'Old', true) returning id`,
        )
      ).rows[0]!;
      const license = (
        await run(sql`insert into licenses (user_id, email, license_type, end_date, license_key)
          values (${user.id}, 'old-pay@example.com', 'monthly', now() + interval '1 day', 'k') returning id`)
      ).rows[0]!;
      for (const id of ["txn_old_paid", "txn_old_unknown"])
        await run(sql`insert into payments (id, license_id, user_id, kind, amount_cents, billed_at)
          values (${id}, ${license.id}, ${user.id}, 'purchase', 900, now())`);
      const event = { data: { id: "txn_old_paid", customer_id: "ctm_old_customer" } };
      await run(sql`insert into webhook_events (event_id, event_type, occurred_at, payload)
        values ('evt_old', 'transaction.completed', now(), ${JSON.stringify(event)}::jsonb)`);
      await app.database.migrate();
      const rows = await app.database.db
        .select({ id: payments.id, customer_id: payments.customer_id })
        .from(payments)
        .orderBy(payments.id);
      expect(rows).toEqual([
        { id: "txn_old_paid", customer_id: "ctm_old_customer" },
        { id: "txn_old_unknown", customer_id: null },
      ]);
    } finally {
      await app.close();
    }
  });
});
