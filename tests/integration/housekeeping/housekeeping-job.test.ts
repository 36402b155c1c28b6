import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  audit_log,
  job_keys,
  leases,
  licenses,
  outbound_events,
  rate_limits,
  sessions,
  sign_in_failures,
  verifications,
  webhook_events,
} from "~/server/db/schema";
import { HOUSEKEEPING_JOB, housekeep, scheduleHousekeeping } from "~/server/housekeeping/housekeeping-job.server";
import { drainJobs, getJobQueue, JOBS_SCHEMA } from "~/server/jobs/jobs.server";
import { seedDemoData } from "~/server/seed.server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({
  pglite: "always",
  because: "the housekeeping job runs in pg-boss on PGlite's one connection",
});

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

async function count(app: TestApp, table: string, where = "true"): Promise<number> {
  const result = (await app.database.db.execute(
    sql.raw(`select count(*)::int as n from ${table} where ${where}`),
  )) as unknown as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]!.n);
}

describe.each(ENGINES)("housekeeping on %s", (engine) => {
  let app: TestApp;
  let userId: string;

  beforeAll(async () => {
    app = await startTestApp(engine, { WEBHOOK_RETENTION_DAYS: "30" });
    await seedDemoData(app.database.db);
    const { rows } = (await app.database.db.execute(sql`select id from users limit 1`)) as unknown as {
      rows: { id: string }[];
    };
    userId = rows[0]!.id;
  });
  afterAll(() => app?.close());

  it("prunes what has expired or is past retention, and keeps the rest", async () => {
    const db = app.database.db;
    await db.insert(sessions).values([
      { token: "expired-session", userId, expiresAt: ago(1000) },
      { token: "live-session", userId, expiresAt: new Date(Date.now() + DAY) },
    ]);
    await db.insert(verifications).values([
      { identifier: "old", value: "x", expiresAt: ago(1000) },
      { identifier: "fresh", value: "y", expiresAt: new Date(Date.now() + DAY) },
    ]);
    await db.insert(rate_limits).values([
      { key: "old-window", count: 3, window_start: ago(2 * 60 * 60 * 1000) },
      { key: "current-window", count: 3, window_start: new Date() },
    ]);
    await db.insert(sign_in_failures).values([
      { email: "a@example.com", client_ip: "1.1.1.1", failures: 2, last_failure_at: ago(2 * 60 * 60 * 1000) },
      { email: "a@example.com", client_ip: "2.2.2.2", failures: 2, last_failure_at: new Date() },
    ]);
    const event = (id: string, receivedAt: Date) => ({
      event_id: id,
      event_type: "transaction.completed",
      occurred_at: receivedAt,
      payload: { data: { id } },
      received_at: receivedAt,
    });
    await db.insert(webhook_events).values([event("evt_old", ago(31 * DAY)), event("evt_recent", ago(29 * DAY))]);
    // Events for the vendor's systems: the old one goes with its delivery log, the recent one stays.
    await db.insert(outbound_events).values([
      { type: "license.created", occurred_at: ago(31 * DAY), data: { n: "old" } },
      { type: "license.created", occurred_at: ago(29 * DAY), data: { n: "recent" } },
    ]);
    await db.insert(job_keys).values([
      { key: "housekeeping:old", queue: HOUSEKEEPING_JOB, created_at: ago(3 * DAY) },
      { key: "reminder-scan:old", queue: "reminder-scan", created_at: ago(3 * DAY) },
      { key: "customer-mail:old", queue: "customer-mail", created_at: ago(3 * 365 * DAY) },
    ]);
    // Ten years old: the audit log and payments are kept however old they are.
    await db.insert(audit_log).values({
      actor_email: "admin@example.com",
      action: "license.revoke",
      target_type: "license",
      target_id: "x",
      created_at: ago(3650 * DAY),
    });
    await db.execute(
      sql`update payments set billed_at = now() - interval '10 years', created_at = now() - interval '10 years'`,
    );
    // Floating leases: ended 8 days ago (run out, or returned) go; ended 6 days ago or still held stay.
    const [license] = await db.select({ id: licenses.id, user_id: licenses.user_id }).from(licenses).limit(1);
    const lease = (name: string, expiresAt: Date, returnedAt: Date | null = null) => ({
      license_id: license!.id,
      user_id: license!.user_id,
      fingerprint_hash: "f".repeat(64),
      name,
      ttl_minutes: 30,
      taken_at: ago(30 * DAY),
      heartbeat_at: expiresAt,
      expires_at: expiresAt,
      returned_at: returnedAt,
    });
    await db
      .insert(leases)
      .values([
        lease("ran-out-long-ago", ago(8 * DAY)),
        lease("returned-long-ago", ago(8 * DAY), ago(8 * DAY)),
        lease("ran-out-lately", ago(6 * DAY)),
        lease("held", new Date(Date.now() + 60_000)),
      ]);
    const payments = await count(app, "payments");
    const audit = await count(app, "audit_log");
    expect(payments).toBeGreaterThan(0);

    const pruned = await housekeep();

    expect(pruned).toEqual({
      sessions: 1,
      verifications: 1,
      rate_limits: 1,
      sign_in_failures: 1,
      webhook_events: 1,
      outbound_events: 1,
      job_keys: 2,
      leases: 2,
    });
    expect(await count(app, "leases", "name in ('ran-out-lately', 'held')")).toBe(2);
    expect(await count(app, "leases", "name like '%long-ago'")).toBe(0);
    expect(await count(app, "sessions", "token = 'live-session'")).toBe(1);
    expect(await count(app, "sessions", "token = 'expired-session'")).toBe(0);
    expect(await count(app, "verifications", "identifier = 'fresh'")).toBe(1);
    expect(await count(app, "rate_limits", "key = 'current-window'")).toBe(1);
    expect(await count(app, "sign_in_failures", "client_ip = '2.2.2.2'")).toBe(1);
    expect(await count(app, "webhook_events", "event_id = 'evt_recent'")).toBe(1);
    expect(await count(app, "webhook_events", "event_id = 'evt_old'")).toBe(0);
    expect(await count(app, "outbound_events", "data->>'n' = 'recent'")).toBe(1);
    expect(await count(app, "outbound_events", "data->>'n' = 'old'")).toBe(0);
    // One-off jobs' keys stay forever: a replayed webhook must not send its e-mail again.
    expect(await count(app, "job_keys", "key = 'customer-mail:old'")).toBe(1);
    expect(await count(app, "payments")).toBe(payments);
    expect(await count(app, "audit_log")).toBe(audit);
  });

  it("runs as an hourly durable job that queues its next run", async () => {
    await app.database.db.insert(sessions).values({ token: "expired-2", userId, expiresAt: ago(1000) });
    await scheduleHousekeeping();
    await scheduleHousekeeping(); // idempotent: still one run this hour
    expect(await drainJobs()).toBe(1);
    expect(await count(app, "sessions", "token = 'expired-2'")).toBe(0);
    // This hour's run and the next one's, keyed by the hour.
    expect(await count(app, "job_keys", `queue = '${HOUSEKEEPING_JOB}'`)).toBe(2);
    const next = await getJobQueue().executeSql(
      `select count(*)::int as n from ${JOBS_SCHEMA}.job where name = $1 and state = 'created' and start_after > now()`,
      [HOUSEKEEPING_JOB],
    );
    expect(Number(next.rows[0]!.n)).toBe(1);
  });

  it("leaves completed jobs to pg-boss's retention: archived after 12 hours, deleted 7 days later", async () => {
    const queue = getJobQueue();
    const where = `name = '${HOUSEKEEPING_JOB}' and state = 'completed'`;
    const done = `${JOBS_SCHEMA}.job where ${where}`;
    const completed = await queue.executeSql(`select count(*)::int as n from ${done}`);
    expect(Number(completed.rows[0]!.n)).toBe(1);
    await queue.executeSql(`update ${JOBS_SCHEMA}.job set completed_on = now() - interval '13 hours' where ${where}`);
    await queue.boss.maintain();
    expect(Number((await queue.executeSql(`select count(*)::int as n from ${done}`)).rows[0]!.n)).toBe(0);
    const archived = `${JOBS_SCHEMA}.archive where name = '${HOUSEKEEPING_JOB}'`;
    expect(Number((await queue.executeSql(`select count(*)::int as n from ${archived}`)).rows[0]!.n)).toBe(1);
    await queue.executeSql(
      `update ${JOBS_SCHEMA}.archive set archived_on = now() - interval '8 days' where name = '${HOUSEKEEPING_JOB}'`,
    );
    await queue.boss.maintain();
    expect(Number((await queue.executeSql(`select count(*)::int as n from ${archived}`)).rows[0]!.n)).toBe(0);
  });
});
