import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingOverview } from "~/domain/billing-overview";
import { formatDate } from "~/domain/format-date";
import * as billingRoute from "~/routes/billing";
import { licenses, users } from "~/server/db/schema";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { startAdminTestApp } from "../../support/admin-app";
import { call, getRequest, routeArgs } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;

describe.each(testEngines())("/billing's upcoming charges, failed payments and refunds on %s", (engine) => {
  let app: TestApp;
  let userCookie: string;
  let adminCookie: string;
  let userId: string;
  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine));
    userId = (await app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
  });
  afterAll(async () => app?.close());

  const overview = async (cookie = userCookie): Promise<BillingOverview> => {
    const page = await call(() => billingRoute.loader(routeArgs(getRequest("/billing", cookie))));
    expect(page.status).toBe(200);
    return page.data.overview as BillingOverview;
  };
  const seeded = async (subscriptionId: string) =>
    (await app.database.db.select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId)))[0]!;

  it("the renewing license's next charge: its date, amount and license, in the card's words", async () => {
    const renewing = await seeded("sub_demo_seed_renewing");
    const { upcoming, failed } = await overview();
    expect(upcoming).toEqual([
      {
        licenseId: renewing.id,
        licenseShortId: renewing.short_id,
        kind: "renewal",
        at: renewing.end_date.toISOString(),
        amountCents: 900,
        currency: "USD",
        seats: null,
        text: `${formatDate(renewing.end_date)}: $9.00 for the Monthly license ${renewing.short_id} (renewal)`,
      },
    ]);
    expect(failed).toEqual([]);
  });

  it("refunds: the one waiting for approval (95% of the payment it covers) first, then the one done", async () => {
    const pending = await seeded("sub_demo_seed_refund_requested");
    const done = await seeded("sub_demo_seed_refunded");
    const { refunds } = await overview();
    expect(refunds.map((r) => [r.licenseShortId, r.state, r.cents, r.text])).toEqual([
      [pending.short_id, "pending", 8550, `Yearly license (${pending.short_id}): Refund of $85.50 pending`],
      [done.short_id, "done", 4703, `6 Months license (${done.short_id}): Refunded $47.03 (95%)`],
    ]);
  });

  it("a renewal that failed: listed with until when the license works, and its retry as the charge that is due", async () => {
    const renewing = await seeded("sub_demo_seed_renewing");
    const since = new Date(renewing.end_date.getTime() - 86_400_000);
    await app.database.db
      .update(licenses)
      .set({ past_due_since: since, end_date: since })
      .where(eq(licenses.id, renewing.id));
    const { upcoming, failed } = await overview();
    // Still renewing: the failed charge is due now and retried, not "no charges are coming".
    expect(upcoming.map((charge) => [charge.kind, charge.licenseId, charge.amountCents])).toEqual([
      ["retry", renewing.id, 900],
    ]);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ licenseId: renewing.id, since: since.toISOString() });
    expect(failed[0]!.text).toMatch(
      new RegExp(
        `^The renewal of the Monthly license ${renewing.short_id} could not be charged on .+\\. It works until .+ unless a payment goes through\\.$`,
      ),
    );
  });

  it("another user sees none of it", async () => {
    const own = (await app.database.db.select().from(licenses).where(eq(licenses.user_id, userId))).map(
      (l) => l.short_id,
    );
    const json = JSON.stringify(await overview(adminCookie));
    for (const shortId of own) expect(json).not.toContain(shortId);
  });
});
