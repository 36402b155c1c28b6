import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as successRoute from "~/routes/success";
import { licenses, payments, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../support/admin-app";
import { call, getRequest, routeArgs } from "../support/route-call";
import { testEngines, type TestApp } from "../support/test-app";

const [, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("the success page on %s", (engine) => {
  let app: TestApp;
  let userCookie: string;
  let adminCookie: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
  });
  afterAll(async () => app?.close());

  const load = (query: string, cookie: string) =>
    call(() => successRoute.loader(routeArgs(getRequest(`/success${query}`, cookie))));

  it("shows the license the user's transaction paid for: short id, plan and end date", async () => {
    const [user] = await app.database.db.select().from(users).where(eq(users.email, USER.email));
    const [payment] = await app.database.db.select().from(payments).where(eq(payments.user_id, user!.id));
    const [license] = await app.database.db.select().from(licenses).where(eq(licenses.id, payment!.license_id));
    const page = await load(`?transactionId=${encodeURIComponent(payment!.id)}`, userCookie);
    expect(page.status).toBe(200);
    expect(page.data.license).toEqual({
      short_id: license!.short_id,
      license_type: license!.license_type,
      end_date: license!.end_date.toISOString(),
      is_trial: license!.is_trial,
    });
    // Another user's transaction, an unknown one and none at all show no license.
    expect((await load(`?transactionId=${encodeURIComponent(payment!.id)}`, adminCookie)).data.license).toBeNull();
    expect((await load("?transactionId=txn_unknown", userCookie)).data.license).toBeNull();
    expect((await load("", userCookie)).data.license).toBeNull();
  });

  it("sends a signed-out visitor to log in and back", async () => {
    const page = await load("?transactionId=txn_1", "");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login?redirectTo=%2Fsuccess%3FtransactionId%3Dtxn_1");
  });
});
