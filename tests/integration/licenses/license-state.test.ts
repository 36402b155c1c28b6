import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizeLicense } from "~/domain/license-card";
import { supportView } from "~/domain/license-support";
import { getUserDetails } from "~/server/admin/user-details.server";
import { licenses, users } from "~/server/db/schema";
import { validateLicense } from "~/server/license-api/validate-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const DAY = 86_400_000;

/**
 * One license truth (decision 0030) through the real server views: for every seeded license (and one
 * whose renewal failed) the customer's card, the admin's user page and the desktop API name the
 * same state — the views carry every fact the state function reads.
 */
describe.each(testEngines())("one license state on %s", (engine) => {
  let app: TestApp;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp(engine);
    await seedDemoData(app.database.db);
    const [user] = await app.database.db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS[1].email));
    userId = user!.id;
    // A renewal that could not be charged: the seeded renewing license, past due since its end.
    const [renewing] = await app.database.db
      .select()
      .from(licenses)
      .where(eq(licenses.paddle_subscription_id, "sub_demo_seed_renewing"));
    const { id: _id, short_id: _shortId, paddle_subscription_id: _sub, ...copy } = renewing!;
    const ended = new Date(Date.now() - 2 * DAY);
    await app.database.db
      .insert(licenses)
      .values({ ...copy, start_date: new Date(ended.getTime() - 30 * DAY), end_date: ended, past_due_since: ended });
  });
  afterAll(async () => app?.close());

  it("the customer's card, the admin's page and the desktop API agree on every license", async () => {
    const now = new Date();
    const customer = await listUserLicenses(userId);
    const admin = (await getUserDetails(userId))!.licenses;
    const rows = await app.database.db.select().from(licenses).where(eq(licenses.user_id, userId));
    expect(customer).toHaveLength(10);
    expect(admin.map((l) => l.id).sort()).toEqual(customer.map((l) => l.id).sort());
    const seen = new Set<string>();
    for (const card of customer) {
      const summary = summarizeLicense(card, now);
      const support = supportView(
        admin.find((l) => l.id === card.id)!,
        now,
      );
      expect({ badge: support.state.badge, line: support.state.line }).toEqual({
        badge: summary.badge,
        line: summary.line,
      });
      const row = rows.find((r) => r.id === card.id)!;
      expect((await validateLicense({ key: row.license_key })).code).toBe(support.state.code);
      seen.add(`${summary.badge.label} | ${support.state.code}`);
    }
    expect([...seen].sort()).toEqual(
      [
        "Active | VALID",
        "Expired | EXPIRED",
        "Payment failed | VALID",
        "Refund requested | REFUND_REQUESTED",
        "Refunded | REFUNDED",
        "Revoked | REVOKED",
        "Trial Expired | TRIAL_EXPIRED",
        "Trial | VALID",
      ].sort(),
    );
  });

  it("the admin sees the failed renewal's grace end and never 'renewing' for it", async () => {
    const now = new Date();
    const admin = (await getUserDetails(userId))!.licenses;
    const failing = admin.find((l) => l.past_due_since !== null)!;
    const { state, details } = supportView(failing, now);
    expect(state.badge.label).toBe("Payment failed");
    expect(state.line).toMatch(/^Payment failed: active until /);
    expect(details.find((d) => d.label === "Grace period ends")?.value).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(details.find((d) => d.label === "Renewal")?.value).not.toMatch(/^Renews/);
  });
});
