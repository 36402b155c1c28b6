import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addTesterLicense, revokeLicense } from "~/server/admin/manage-licenses.server";
import {
  audit_log,
  job_keys,
  licenses,
  outbound_events,
  webhook_deliveries,
  webhook_endpoints,
  users,
} from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { flushMail } from "~/server/mail/outbox.server";
import { deliverAttempt } from "~/server/webhooks/deliver.server";
import { recordEvent } from "~/server/webhooks/events.server";
import { verifyWebhookSignature } from "~/server/webhooks/signature.server";
import { startAdminTestApp } from "../../support/admin-app";
import { testEngines, type TestApp } from "../../support/test-app";
import { webhookAdmin } from "../../support/webhook-admin";
import { startWebhookReceiver } from "../../support/webhook-receiver";

// Delivery of events to the vendor's systems (decision 0044): recorded in the transaction of the change,
// POSTed by the job queue to a real receiver with a verifiable signature, retried on a back-off
// schedule for 72 hours, an endpoint failing for 24 hours disabled and the admins e-mailed, and
// "Redeliver" sends an event again.

const HOUR = 3_600_000;

describe.each(testEngines())("webhook delivery (%s)", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    ({ app, adminCookie } = await startAdminTestApp(engine));
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });
  beforeEach(async () => {
    await drainJobs();
    // Each test its own endpoints: earlier ones are deleted.
    await db().delete(webhook_endpoints);
    receiver.answer(200);
    receiver.received.length = 0;
  });

  const db = () => app.database.db;
  const admin = webhookAdmin(() => adminCookie);
  const actor = { id: null, email: "test admin" };
  const endpoint = async (events: string[], path = "/hook") => {
    const created = await admin.create(receiver.url(path), events);
    expect(created.status).toBe(200);
    const [row] = await db()
      .select()
      .from(webhook_endpoints)
      .where(eq(webhook_endpoints.url, receiver.url(path)));
    return { ...row!, secret: created.data.secret as string };
  };
  const activeLicense = async () => {
    const [user] = await db().select().from(users).limit(1);
    const created = await addTesterLicense({ admin: actor, userId: user!.id, days: 30 });
    return created.id;
  };
  const deliveries = (endpointId: string) =>
    db()
      .select()
      .from(webhook_deliveries)
      .where(eq(webhook_deliveries.endpoint_id, endpointId))
      .orderBy(webhook_deliveries.attempted_at);

  it("records the event in the change's transaction and delivers it signed: {id, type, occurred_at, data}", async () => {
    const hook = await endpoint(["license.revoked"]);
    const licenseId = await activeLicense();
    await revokeLicense({ admin: actor, licenseId, reason: "chargeback" });
    const [event] = await db()
      .select()
      .from(outbound_events)
      .where(
        and(
          eq(outbound_events.type, "license.revoked"),
          sql`${outbound_events.data} -> 'license' ->> 'id' = ${licenseId}`,
        ),
      );
    expect(event).toBeDefined();
    await drainJobs();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const body = JSON.parse(got!.body);
    expect(body).toEqual({
      id: event!.id,
      type: "license.revoked",
      occurred_at: event!.occurred_at.toISOString(),
      data: expect.objectContaining({ reason: "chargeback" }),
    });
    expect(body.data.license).toMatchObject({ id: licenseId, status: "revoked", license_type: "tester" });
    expect(body.data.license.license_key).toBeUndefined();
    const header = got!.headers["webhook-signature"] as string;
    expect(header).toMatch(/^ts=\d+;h1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(header, got!.body, hook.secret)).toBe(true);
    expect(verifyWebhookSignature(header, got!.body.replace("revoked", "REVOKED"), hook.secret)).toBe(false);
    expect(verifyWebhookSignature(header, got!.body, "whsec_other")).toBe(false);
    const ts = Number(/ts=(\d+)/.exec(header)![1]);
    expect(verifyWebhookSignature(header, got!.body, hook.secret, new Date((ts + 301) * 1000))).toBe(false);
    const [logged] = await deliveries(hook.id);
    expect(logged).toMatchObject({ ok: true, status_code: 200, response_excerpt: "ok", attempt: 1 });
  });

  it("leaves no event and no delivery when the change's transaction fails", async () => {
    const hook = await endpoint(["license.revoked"]);
    const count = async () =>
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(outbound_events)
      )[0]!.n;
    const keys = async () =>
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(job_keys)
      )[0]!.n;
    const licenseId = await activeLicense();
    const [eventsBefore, keysBefore] = [await count(), await keys()];
    await expect(
      db().transaction(async (tx) => {
        await tx.update(licenses).set({ status: "revoked" }).where(eq(licenses.id, licenseId));
        await recordEvent(tx, "license.revoked", { license: { id: licenseId } });
        throw new Error("the change fails after its event was recorded");
      }),
    ).rejects.toThrow("the change fails");
    // No event, no delivery job.
    expect(await count()).toBe(eventsBefore);
    expect(await keys()).toBe(keysBefore);
    await drainJobs();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries(hook.id)).toEqual([]);
    const [license] = await db().select().from(licenses).where(eq(licenses.id, licenseId));
    expect(license!.status).toBe("active");
  });

  it("retries a failing endpoint on the back-off schedule until 72 hours after the event", async () => {
    const hook = await endpoint(["release.published"]);
    receiver.answer(503);
    const t0 = new Date();
    const eventId = await db().transaction((tx) =>
      recordEvent(tx, "release.published", { release: {} }, { occurredAt: t0 }),
    );
    await drainJobs();
    let [first] = await deliveries(hook.id);
    expect(first).toMatchObject({ ok: false, status_code: 503, error: "HTTP 503", response_excerpt: "receiver down" });
    const wait = first!.next_attempt_at!.getTime() - first!.attempted_at.getTime();
    expect(wait).toBe(60_000);
    // The next attempt is a job of its own, due then.
    const [key] = await db()
      .select()
      .from(job_keys)
      .where(eq(job_keys.key, `webhook:${eventId}:${hook.id}:2`));
    expect(key).toBeDefined();
    // The worker at the times the schedule names: 4, 16, 64 minutes, ...
    const data = { eventId: eventId!, endpointId: hook.id };
    let at = first!.next_attempt_at!;
    const waits: number[] = [];
    for (let attempt = 2; attempt <= 5; attempt++) {
      const outcome = await deliverAttempt({ ...data, attempt }, at);
      expect(outcome).toMatchObject({ outcome: "failed", status: 503 });
      if (outcome.outcome !== "failed") throw new Error("not failed");
      waits.push(outcome.nextAttemptAt!.getTime() - at.getTime());
      at = outcome.nextAttemptAt!;
    }
    expect(waits).toEqual([4, 16, 64, 256].map((m) => m * 60_000));
    [first] = await deliveries(hook.id);
    // Near the end of the window the next attempt would fall after it: none is scheduled.
    const late = await deliverAttempt({ ...data, attempt: 9 }, new Date(t0.getTime() + 71 * HOUR));
    expect(late).toMatchObject({ outcome: "failed", nextAttemptAt: null });
    // (the endpoint was disabled by then: it had been failing for over 24 hours)
    expect(late).toMatchObject({ disabled: true });
  });

  it("disables an endpoint failing for 24 hours, audits it and e-mails the admins; a success in between resets the clock", async () => {
    const hook = await endpoint(["release.published"]);
    receiver.answer(500);
    const t0 = new Date();
    const eventId = (await db().transaction((tx) => recordEvent(tx, "release.published", {}, { occurredAt: t0 })))!;
    const data = { eventId, endpointId: hook.id };
    await deliverAttempt({ ...data, attempt: 1 }, t0);
    receiver.answer(200);
    await deliverAttempt({ ...data, attempt: 2 }, new Date(t0.getTime() + 1 * HOUR));
    let [row] = await db().select().from(webhook_endpoints).where(eq(webhook_endpoints.id, hook.id));
    expect(row!.failing_since).toBeNull();
    receiver.answer(500);
    const t1 = new Date(t0.getTime() + 2 * HOUR);
    expect(await deliverAttempt({ ...data, attempt: 3 }, t1)).toMatchObject({ disabled: false });
    expect(await deliverAttempt({ ...data, attempt: 4 }, new Date(t1.getTime() + 23 * HOUR))).toMatchObject({
      disabled: false,
    });
    const mailsBefore = app.mails.length;
    expect(await deliverAttempt({ ...data, attempt: 5 }, new Date(t1.getTime() + 24 * HOUR))).toMatchObject({
      disabled: true,
    });
    [row] = await db().select().from(webhook_endpoints).where(eq(webhook_endpoints.id, hook.id));
    expect([row!.enabled, row!.disabled_reason]).toEqual([false, "failing"]);
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, hook.id));
    expect(audit.map((a) => [a.action, a.actor_email])).toContainEqual([
      "webhook_endpoint.disable",
      "webhook delivery",
    ]);
    await flushMail();
    const mails = app.mails.slice(mailsBefore);
    expect(mails.map((m) => m.to)).toContain("admin@forgekit.example");
    expect(mails[0]!.subject).toMatch(/a webhook endpoint was disabled/);
    expect(mails[0]!.text).toContain(hook.url);
    // A disabled endpoint gets no scheduled attempts and no new events.
    expect(await deliverAttempt({ ...data, attempt: 6 }, new Date())).toMatchObject({ outcome: "skipped" });
    receiver.received.length = 0;
    await db().transaction((tx) => recordEvent(tx, "release.published", {}));
    await drainJobs();
    expect(receiver.received).toHaveLength(0);
  });

  it("redelivers an attempt at the admin's request, once, audited", async () => {
    const hook = await endpoint(["license.created"]);
    receiver.answer(500);
    await activeLicense();
    await drainJobs();
    const [failed] = await deliveries(hook.id);
    expect(failed!.ok).toBe(false);
    receiver.answer(200);
    const answer = await admin.intent("redeliver", { delivery_id: failed!.id });
    expect(answer.status).toBe(200);
    await drainJobs();
    const all = await deliveries(hook.id);
    const manual = all.find((d) => d.manual);
    expect(manual).toMatchObject({ ok: true, status_code: 200, event_id: failed!.event_id, next_attempt_at: null });
    const last = receiver.received.at(-1)!;
    expect(JSON.parse(last.body).id).toBe(failed!.event_id);
    expect(verifyWebhookSignature(last.headers["webhook-signature"] as string, last.body, hook.secret)).toBe(true);
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, hook.id));
    expect(audit.map((a) => a.action)).toContain("webhook_endpoint.redeliver");
    expect((await admin.intent("redeliver", { delivery_id: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
  });
});
