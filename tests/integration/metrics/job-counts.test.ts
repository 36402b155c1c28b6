import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { drainJobs, getJobQueue, jobCountsByKind, JOBS_SCHEMA } from "~/server/jobs/jobs.server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "pg-boss runs on PGlite through the app's one connection" });

const probe = (fail: boolean) => ({
  retryLimit: 0,
  retryDelaySeconds: 1,
  retryBackoff: false,
  expireInSeconds: 60,
  payload: z.object({}),
  handle: async () => {
    if (fail) throw new Error("probe failed");
  },
});

describe.each(ENGINES)("job counts for /metrics on %s", (engine) => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("counts queued and failed jobs per kind and the oldest due job's wait", async () => {
    app = await startTestApp(engine, {}, { jobs: { "metrics-probe": probe(false), "metrics-failing": probe(true) } });
    await getJobQueue().enqueue("metrics-probe", {});
    await getJobQueue().enqueue("metrics-probe", {});
    // Due two minutes ago: the backlog's age is what an operator alerts on.
    await getJobQueue().executeSql(
      `UPDATE ${JOBS_SCHEMA}.job SET start_after = now() - interval '120 seconds' WHERE name = 'metrics-probe'`,
    );
    await getJobQueue().enqueue("metrics-failing", {});
    const before = await jobCountsByKind();
    const of = (counts: typeof before, kind: string) => counts.find((c) => c.kind === kind)!;
    expect(of(before, "metrics-probe")).toMatchObject({ queued: 2, active: 0, failed: 0 });
    expect(of(before, "metrics-probe").oldestQueuedSeconds).toBeGreaterThanOrEqual(119);
    expect(of(before, "metrics-failing")).toMatchObject({ queued: 1, failed: 0 });
    // Every known kind is listed, with zeros when it has nothing.
    expect(before.map((c) => c.kind)).toContain("stop-renewal");

    await drainJobs();
    const after = await jobCountsByKind();
    expect(of(after, "metrics-probe")).toMatchObject({ queued: 0, failed: 0, oldestQueuedSeconds: 0 });
    expect(of(after, "metrics-failing")).toMatchObject({ queued: 0, failed: 1 });
  });
});
