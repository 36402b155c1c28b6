import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { job_keys, licenses, outbound_events, webhook_endpoints } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { activateMachine } from "~/server/machines/activate-machine.server";
import { createApiRelease, patchApiRelease } from "~/server/releases/api-releases.server";
import { recordExpiredLicenses } from "~/server/webhooks/expiry-scan.server";
import { adjustment, days, envelope } from "../../support/paddle-fixtures";
import { testEngines } from "../../support/test-app";
import { paymentWebhookApp } from "../../support/payment-webhook-app";

// Every change the vendor's systems hear of records its event in its own transaction (decision 0044):
// purchases, renewals, extensions, failed payments and refunds from the payment provider's webhooks,
// machine activations, published releases, and expiries found by the hourly scan.

describe.each(testEngines())("events from every source (%s)", (engine) => {
  const {
    startApp,
    stopApp,
    newBuyer,
    db,
    deliver,
    purchase,
    renewalOf,
    extensionOf,
    recordExtensionCheckout,
    licenseOf,
  } = paymentWebhookApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(newBuyer);

  const eventsOf = async (licenseId: string) =>
    (
      await db()
        .select()
        .from(outbound_events)
        .where(sql`${outbound_events.data} -> 'license' ->> 'id' = ${licenseId}`)
        .orderBy(outbound_events.occurred_at)
    ).map((event) => ({ type: event.type, data: event.data as Record<string, any> }));

  it("a purchase, its renewal, an extension, a failed charge and an approved refund, once each", async () => {
    const { txn, license } = await purchase();
    const renewal = renewalOf(txn, license.end_date);
    await deliver(envelope("transaction.completed", renewal));
    await deliver(envelope("transaction.completed", renewal));
    const ext = extensionOf(license.id, 900);
    await recordExtensionCheckout(ext.id, license.id);
    await deliver(envelope("transaction.completed", ext));
    const failedAt = new Date();
    const next = renewalOf(txn, days(30, license.end_date));
    await deliver(envelope("transaction.payment_failed", next, failedAt));
    await deliver(envelope("transaction.payment_failed", next, failedAt));
    const pending = adjustment({
      transactionId: txn.id,
      subscriptionId: txn.subscription_id,
      amountCents: 855,
      status: "pending_approval",
    });
    await deliver(envelope("adjustment.created", pending));
    await deliver(envelope("adjustment.updated", { ...pending, status: "approved" }));
    const events = await eventsOf(license.id);
    expect(events.map((e) => e.type)).toEqual([
      "license.created",
      "license.renewed",
      "license.extended",
      "payment.failed",
      "license.refund_requested",
      "license.refunded",
    ]);
    const [created, renewed, extended, failed, , refunded] = events;
    expect(created!.data.payment).toMatchObject({ transaction_id: txn.id, amount_cents: 900, currency: "USD" });
    expect(created!.data.license).toMatchObject({ id: license.id, short_id: license.short_id, status: "active" });
    expect(renewed!.data.payment.transaction_id).toBe(renewal.id);
    expect(extended!.data.months).toBe(1);
    expect(failed!.data.failed_at).toBe(failedAt.toISOString());
    expect(refunded!.data.license.status).toBe("refunded");
    expect(JSON.stringify(events)).not.toContain((await licenseOf(txn.subscription_id!))!.license_key);
  });

  it("a machine's activation and a published release; a draft is no event until it is published", async () => {
    const { license } = await purchase();
    const activation = await activateMachine(license, { fingerprint: `fp-${engine}-${Date.now()}`, name: "Build box" });
    expect(activation.outcome).toBe("active");
    const [machineEvent] = await db()
      .select()
      .from(outbound_events)
      .where(
        and(
          eq(outbound_events.type, "machine.activated"),
          sql`${outbound_events.data} -> 'license' ->> 'id' = ${license.id}`,
        ),
      );
    expect((machineEvent!.data as any).machine).toMatchObject({ name: "Build box" });

    const version = `9.${Date.now() % 100000}.0`;
    const actor = { id: null, email: "API token CI" };
    const input = {
      version,
      title: null,
      release_notes: ["Faster"],
      channel: "beta" as const,
      download_url: "https://downloads.example.com/x.zip",
      installer_size_bytes: 10,
      installer_sha256: "a".repeat(64),
      rollout_percent: 25,
      critical: true,
      minimum_version: "1.0.0",
    };
    const releaseEvents = async () =>
      db()
        .select()
        .from(outbound_events)
        .where(
          and(
            eq(outbound_events.type, "release.published"),
            sql`${outbound_events.data} -> 'release' ->> 'version' = ${version}`,
          ),
        );
    await createApiRelease(actor, { ...input, published: false });
    expect(await releaseEvents()).toEqual([]);
    await patchApiRelease(actor, version, { published: true });
    await patchApiRelease(actor, version, { published: true });
    const [published, again] = await releaseEvents();
    expect(again).toBeUndefined();
    expect((published!.data as any).release).toMatchObject({
      version,
      channel: "beta",
      sha256: "a".repeat(64),
      size: 10,
      rollout_percent: 25,
      critical: true,
      minimum_version: "1.0.0",
    });
  });

  it("the hourly scan records license.expired once per license and end date", async () => {
    const { license } = await purchase();
    const ended = days(-1);
    await db()
      .update(licenses)
      .set({ end_date: ended, start_date: days(-31), auto_renew: false })
      .where(eq(licenses.id, license.id));
    await recordExpiredLicenses();
    await recordExpiredLicenses();
    const expired = (await eventsOf(license.id)).filter((e) => e.type === "license.expired");
    expect(expired).toHaveLength(1);
    expect(expired[0]!.data.expired_at).toBe(ended.toISOString());
  });

  it("a past-due license's expiry when its grace period runs out is recorded too (its end date 14 days back)", async () => {
    const { license } = await purchase();
    const ended = days(-15);
    await db()
      .update(licenses)
      .set({ end_date: ended, start_date: days(-45), past_due_since: days(-15) })
      .where(eq(licenses.id, license.id));
    // A license paid up that ended as long ago expired then, outside the scan's 7 days: no event now.
    const { license: paidUp } = await purchase();
    await db()
      .update(licenses)
      .set({ end_date: ended, start_date: days(-45), auto_renew: false })
      .where(eq(licenses.id, paidUp.id));
    await recordExpiredLicenses();
    const expired = (await eventsOf(license.id)).filter((e) => e.type === "license.expired");
    expect(expired).toHaveLength(1);
    expect(expired[0]!.data.expired_at).toBe(ended.toISOString());
    expect((await eventsOf(paidUp.id)).filter((e) => e.type === "license.expired")).toHaveLength(0);
  });

  it("queues deliveries only for enabled endpoints subscribed to the type", async () => {
    await db().delete(webhook_endpoints);
    const [on] = await db()
      .insert(webhook_endpoints)
      .values({ url: "http://127.0.0.1:9/on", events: ["license.created"], secret: "s" })
      .returning();
    await db()
      .insert(webhook_endpoints)
      .values({ url: "http://127.0.0.1:9/off", events: ["license.created"], secret: "s", enabled: false });
    await db()
      .insert(webhook_endpoints)
      .values({ url: "http://127.0.0.1:9/other", events: ["license.revoked"], secret: "s" });
    const { license } = await purchase();
    const [event] = await db()
      .select()
      .from(outbound_events)
      .where(sql`${outbound_events.data} -> 'license' ->> 'id' = ${license.id}`);
    const keys = await db()
      .select({ key: job_keys.key })
      .from(job_keys)
      .where(like(job_keys.key, `webhook:${event!.id}:%`));
    expect(keys.map((k) => k.key)).toEqual([`webhook:${event!.id}:${on!.id}:1`]);
    await db().delete(webhook_endpoints);
    await drainJobs();
  });
});
