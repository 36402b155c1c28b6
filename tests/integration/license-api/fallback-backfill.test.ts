import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMonths } from "~/domain/extension";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { job_keys, licenses, payments, releases } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import {
  backfillFallbacks,
  FALLBACK_BACKFILL_KEY,
  scheduleFallbackBackfill,
} from "~/server/licenses/fallback-backfill.server";
import { licenseApiApp } from "../../support/license-api-app";
import { days, envelope, signed, transaction } from "../../support/paddle-fixtures";
import { createUser, testEngines } from "../../support/test-app";

/**
 * The one-off recompute of decision 0075: licenses that had their 12 paid months before the stored
 * fallback existed (their fallback_version null) get it once, from a job queued once per database;
 * a refunded run still earns nothing, and running it again changes nothing.
 */
describe.each(testEngines())("fallback backfill on %s", (engine) => {
  const { startApp, stopApp, state, db } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  const start = days(-330);
  let n = 0;

  beforeEach(async () => {
    await db().delete(releases);
    await db()
      .insert(releases)
      .values(
        [
          ["1.0.0", days(-30, start)],
          ["1.1.0", days(-10, start)],
          ["2.0.0", days(-1)],
        ].map(([version, published]) => ({
          version: version as string,
          release_date: (published as Date).toISOString().slice(0, 10),
          channel: "stable",
          published_at: published as Date,
        })),
      );
  });

  /** 12 monthly payments, then the license as it was before the column: fallback_version null. */
  async function paidYearBeforeTheColumn() {
    const user = await createUser(db(), `backfill-${engine}-${++n}@example.com`);
    let subscriptionId: string | null | undefined = undefined;
    const secret = state.app.env.DEMO_WEBHOOK_SECRET;
    for (let month = 0; month < 12; month++) {
      const txn = transaction({
        userId: user.id,
        amountCents: 900,
        subscriptionId,
        start: addMonths(start, month),
        end: addMonths(start, month + 1),
        origin: month === 0 ? "web" : "subscription_recurring",
      });
      subscriptionId = txn.subscription_id;
      expect((await receiveWebhook({ ...signed(secret, envelope("transaction.completed", txn)), secret })).status).toBe(
        200,
      );
    }
    const [license] = await db().select().from(licenses).where(eq(licenses.paddle_subscription_id, subscriptionId!));
    expect(license!.fallback_version).toBe("1.1.0");
    await db().update(licenses).set({ fallback_version: null }).where(eq(licenses.id, license!.id));
    return license!;
  }
  const stored = async (id: string) =>
    (await db().select({ v: licenses.fallback_version }).from(licenses).where(eq(licenses.id, id)))[0]!.v;

  it("a license with 12 paid months and no stored fallback gets it; a refunded run does not", async () => {
    const paid = await paidYearBeforeTheColumn();
    const refunded = await paidYearBeforeTheColumn();
    const [charge] = await db().select().from(payments).where(eq(payments.license_id, refunded.id)).limit(1);
    await db().update(payments).set({ refund_status: "approved" }).where(eq(payments.id, charge!.id));

    const first = await backfillFallbacks();
    expect(first.checked).toBeGreaterThanOrEqual(2);
    expect(await stored(paid.id)).toBe("1.1.0");
    expect(await stored(refunded.id)).toBeNull();

    // Idempotent: a second run finds only the refunded one again and changes nothing.
    const again = await backfillFallbacks();
    expect(again.gained).toBe(0);
    expect(await stored(paid.id)).toBe("1.1.0");
    expect(await stored(refunded.id)).toBeNull();
  });

  it("runs as a job queued once per database, however often the servers start", async () => {
    const paid = await paidYearBeforeTheColumn();
    await db().delete(job_keys).where(eq(job_keys.key, FALLBACK_BACKFILL_KEY));
    await drainJobs(); // the payments' own follow-ups (e-mails), so what runs next is the backfill alone
    await scheduleFallbackBackfill();
    await scheduleFallbackBackfill(); // a second server, or a restart
    expect(await drainJobs()).toBe(1);
    expect(await stored(paid.id)).toBe("1.1.0");
    // Once run, a later start queues nothing.
    await db().update(licenses).set({ fallback_version: null }).where(eq(licenses.id, paid.id));
    await scheduleFallbackBackfill();
    expect(await drainJobs()).toBe(0);
    expect(await stored(paid.id)).toBeNull();
    const keys = await db().execute(sql`select count(*)::int as n from job_keys where key = ${FALLBACK_BACKFILL_KEY}`);
    expect(Number((keys as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(1);
  });
});
