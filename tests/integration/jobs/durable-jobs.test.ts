import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as adminLayout from "~/routes/admin/layout";
import { setPaymentProvider } from "~/server/billing/configured-provider.server";
import { ProviderError } from "~/server/billing/payment-provider.server";
import { job_keys, licenses } from "~/server/db/schema";
import {
  createJobQueue,
  drainJobs,
  getJobQueue,
  JOBS_SCHEMA,
  startJobs,
  stopJobs,
  type JobDefinition,
  type JobDefinitions,
  type JobQueue,
} from "~/server/jobs/jobs.server";
import { JOB_DEFINITIONS } from "~/server/jobs/definitions.server";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, getRequest, signInCookie } from "../../support/route-call";
import { throughAdminGuard } from "../../support/admin-route";
import { stubPaymentProvider } from "../../support/stub-provider";
import { createUser, startTestApp, testEngines, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "pg-boss runs on PGlite through the app's one connection" });
const [ADMIN, USER] = DEMO_ACCOUNTS;

/** Queues a job of the test's own kinds (the app's `enqueue` takes only the app's kinds). */
const enqueue = (...args: Parameters<JobQueue["enqueue"]>) => getJobQueue().enqueue(...args);

/** Resolves when `check` holds, polling the database (never a timed assertion: the test's timeout bounds it). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each(ENGINES)("durable jobs on %s", (engine) => {
  let app: TestApp;
  /** What the test handlers saw, by kind. */
  const runs: Record<string, string[]> = { record: [], slow: [], flaky: [] };
  let slowGate = gate();
  let slowStarted = gate();
  let flakyFailures = 0;
  const testJobs: JobDefinitions = {
    record: {
      retryLimit: 2,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 60,
      payload: z.object({ n: z.string() }),
      handle: async (data: { n: string }) => {
        runs.record!.push(data.n);
        return { seen: data.n };
      },
    } satisfies JobDefinition<{ n: string }>,
    slow: {
      retryLimit: 3,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 60,
      payload: z.object({ n: z.string() }),
      handle: async (data: { n: string }) => {
        slowStarted.open();
        await slowGate.opened;
        runs.slow!.push(data.n);
      },
    } satisfies JobDefinition<{ n: string }>,
    flaky: {
      retryLimit: 3,
      retryDelaySeconds: 2,
      retryBackoff: true,
      expireInSeconds: 60,
      payload: z.object({ n: z.string() }),
      handle: async (data: { n: string }) => {
        runs.flaky!.push(data.n);
        throw new Error(`provider still down (${++flakyFailures})`);
      },
    } satisfies JobDefinition<{ n: string }>,
  };
  const definitions = { ...JOB_DEFINITIONS, ...testJobs };

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000" }, { jobs: testJobs });
    await seedDemoData(app.database.db);
  });
  afterAll(async () => app?.close());

  const db = () => app.database.db;
  /** A job's row, read through the app's database (also while the queue is stopped). */
  const jobRow = async (id: string) =>
    (
      (await db().execute(
        sql`SELECT state::text AS state, retry_count, start_after, completed_on, output FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE id = ${id}::uuid`,
      )) as unknown as { rows: unknown[] }
    ).rows[0] as {
      state: string;
      retry_count: number;
      start_after: Date | string;
      completed_on: Date | null;
      output: unknown;
    };

  it("an idempotency key queues a job once, also after it ran; without a key each send is a job", async () => {
    const first = await enqueue("record", { n: "k1" }, { key: `record:k1:${engine}` });
    expect(first).toEqual(expect.any(String));
    expect(await enqueue("record", { n: "k1-again" }, { key: `record:k1:${engine}` })).toBeNull();
    await drainJobs();
    expect(await enqueue("record", { n: "k1-later" }, { key: `record:k1:${engine}` })).toBeNull();
    expect(await drainJobs()).toBe(0);
    expect(runs.record!.filter((n) => n.startsWith("k1"))).toEqual(["k1"]);
    expect((await jobRow(first!)).state).toBe("completed");
    const [key] = await db()
      .select()
      .from(job_keys)
      .where(eq(job_keys.key, `record:k1:${engine}`));
    expect(key).toMatchObject({ queue: "record", job_id: first });

    await enqueue("record", { n: "free-1" });
    await enqueue("record", { n: "free-2" });
    expect(await drainJobs()).toBe(2);
    expect(runs.record!.filter((n) => n.startsWith("free")).sort()).toEqual(["free-1", "free-2"]);
  });

  it("a job queued in a transaction exists only if the transaction commits", async () => {
    await expect(
      db().transaction(async (tx) => {
        await enqueue("record", { n: "rolled-back" }, { tx, key: `record:rb:${engine}` });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const committed = await db().transaction(async (tx) =>
      enqueue("record", { n: "committed" }, { tx, key: `record:c:${engine}` }),
    );
    await drainJobs();
    expect(runs.record).toContain("committed");
    expect(runs.record).not.toContain("rolled-back");
    expect((await jobRow(committed!)).state).toBe("completed");
    // The rolled-back key is free: nothing was queued under it.
    expect(await enqueue("record", { n: "rb-retry" }, { key: `record:rb:${engine}` })).toEqual(expect.any(String));
    await drainJobs();
  });

  it("a job queued before a restart runs after it; one stopped mid-run is released and runs again", async () => {
    try {
      await restartScenarios();
    } finally {
      await stopJobs();
      await startJobs(app.database, { definitions, work: false });
    }
  });

  async function restartScenarios() {
    // Queued, then the queue stops before it ran (as at a crash or deploy).
    const before = await enqueue("record", { n: "before-restart" });
    await stopJobs();
    await startJobs(app.database, { definitions, work: true, pollingIntervalSeconds: 0.5 });
    await until(async () => (await jobRow(before!)).state === "completed");
    expect(runs.record).toContain("before-restart");

    // Stopped while the handler runs: pg-boss waits (here 1 s), then releases it for a retry.
    slowGate = gate();
    slowStarted = gate();
    const midRun = await enqueue("slow", { n: "mid-run" });
    await slowStarted.opened;
    expect((await jobRow(midRun!)).state).toBe("active");
    await stopJobs({ timeoutMs: 1000 });
    expect((await jobRow(midRun!)).state).toBe("retry");
    expect(runs.slow).toEqual([]);
    // Restarted: the released job runs to completion (the stalled first attempt waits on its own gate).
    const stalled = slowGate;
    slowGate = gate();
    slowStarted = gate();
    await startJobs(app.database, { definitions, work: true, pollingIntervalSeconds: 0.5 });
    await slowStarted.opened;
    slowGate.open();
    await until(async () => (await jobRow(midRun!)).state === "completed");
    expect(runs.slow).toEqual(["mid-run"]);
    // The stalled attempt ends now, while this file's database is open: left waiting, pg-boss would
    // time it out and record the failure later, against a closed database in another file's run.
    stalled.open();
    await until(async () => runs.slow!.length === 2);
  }

  it("two workers on one database run each job once", async () => {
    const workers: JobQueue[] = [
      createJobQueue(app.database, { definitions, work: true, pollingIntervalSeconds: 0.5, name: "w1" }),
      createJobQueue(app.database, { definitions, work: true, pollingIntervalSeconds: 0.5, name: "w2" }),
    ];
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await enqueue("record", { n: `two-${i}` }))!);
    await Promise.all(workers.map((w) => w.start()));
    try {
      await until(async () => {
        const { rows } = await getJobQueue().executeSql(
          `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE id = ANY($1::uuid[]) AND state = 'completed'`,
          [ids],
        );
        return rows[0]!.n === ids.length;
      });
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const ran = runs.record!.filter((n) => n.startsWith("two-"));
    expect(ran).toHaveLength(30);
    expect(new Set(ran).size).toBe(30);
  });

  it("a failing handler is retried with back-off, then failed with its last error, which the admin sees", async () => {
    const id = (await enqueue("flaky", { n: "always-fails" }))!;
    expect(await drainJobs()).toBe(1);
    const first = await jobRow(id);
    expect(first).toMatchObject({ state: "retry", retry_count: 0 });
    // Not due yet: a plain drain leaves it waiting for its back-off.
    expect(await drainJobs()).toBe(0);
    const waits: number[] = [];
    let previous = first;
    // pg-boss counts retries as they start: attempt n runs with retry_count n - 1.
    for (let attempt = 2; attempt <= 3; attempt++) {
      await drainJobs({ skipDelays: true });
      const row = await jobRow(id);
      waits.push(new Date(row.start_after).getTime() - Date.now());
      expect(row).toMatchObject({ state: "retry", retry_count: attempt - 1 });
      previous = row;
    }
    // Exponential back-off from 2 s: the waits before attempts 3 and 4 are at least 4 s and 8 s.
    expect(waits[0]!).toBeGreaterThan(3_000);
    expect(waits[1]!).toBeGreaterThan(7_000);
    expect(previous.completed_on).toBeNull();
    await drainJobs({ skipDelays: true });
    const last = await jobRow(id);
    expect(last).toMatchObject({ state: "failed", retry_count: 3 });
    expect(runs.flaky).toHaveLength(4);
    expect(JSON.stringify(last.output)).toContain("provider still down (4)");

    const status = await getJobQueue().status();
    expect(status).toMatchObject({ ok: true, failed: 1 });
    expect(status.lastFailure).toMatchObject({ kind: "flaky", error: "provider still down (4)" });

    const adminCookie = await signInCookie(ADMIN!.email, ADMIN!.password);
    const page = await call(() => throughAdminGuard(adminLayout.loader, getRequest("/admin", adminCookie)));
    expect(page.status).toBe(200);
    expect((page.data as { jobs: unknown }).jobs).toMatchObject({
      failed: 1,
      lastFailure: { kind: "flaky", error: "provider still down (4)" },
    });
    // Admin-only, as every page under the admin layout.
    const userCookie = await signInCookie(USER!.email, USER!.password);
    const asUser = await call(() => throughAdminGuard(adminLayout.loader, getRequest("/admin", userCookie)));
    expect(asUser.status).toBe(302);
  });

  it("stop-renewal after a revoke reaches the provider once it is back after an outage", async () => {
    const user = await createUser(db(), `outage-${engine}@example.com`);
    const [license] = await db()
      .insert(licenses)
      .values({
        user_id: user.id,
        email: user.email,
        license_key: "k",
        license_type: "monthly",
        end_date: new Date(Date.now() + 20 * 24 * 60 * 60 * 1000),
        auto_renew: true,
        paddle_subscription_id: `sub_outage_${engine}`,
      })
      .returning();
    let down = 2;
    const stopped: string[] = [];
    setPaymentProvider(
      stubPaymentProvider({
        cancelAtPeriodEnd: async (id) => {
          if (down-- > 0) throw new ProviderError("503 from the provider");
          stopped.push(id);
        },
      }),
    );
    try {
      await revokeLicense({ admin: { id: user.id, email: user.email }, licenseId: license!.id });
      await drainJobs();
      expect(stopped).toEqual([]);
      expect((await db().select().from(licenses).where(eq(licenses.id, license!.id)))[0]).toMatchObject({
        status: "revoked",
        auto_renew: true,
      });
      // Still down at the second attempt; the third reaches it. (A retry is queued once the failed
      // attempt is recorded, so a drain can come too early: drain until it got through.)
      for (let i = 0; i < 10 && stopped.length === 0; i++) await drainJobs({ skipDelays: true });
      expect(stopped).toEqual([`sub_outage_${engine}`]);
      expect(down).toBe(-1); // three calls: two refused, one agreed
      expect((await db().select().from(licenses).where(eq(licenses.id, license!.id)))[0]).toMatchObject({
        status: "revoked",
        auto_renew: false,
        cancellation_requested: true,
      });
      const { rows } = await getJobQueue().executeSql(
        `SELECT state::text AS state, retry_count FROM ${JOBS_SCHEMA}.job WHERE name = 'stop-renewal' AND singleton_key = $1`,
        [`stop-renewal:sub_outage_${engine}:revoke:${license!.id}`],
      );
      expect(rows).toEqual([{ state: "completed", retry_count: 2 }]);
    } finally {
      setPaymentProvider(undefined);
    }
  });
});
