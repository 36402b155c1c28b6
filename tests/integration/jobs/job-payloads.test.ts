import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_DEFINITIONS } from "~/server/jobs/definitions.server";
import { JOB_PAYLOADS } from "~/server/jobs/job-payloads.server";
import { drainJobs, enqueue, getJobQueue, JOBS_SCHEMA } from "~/server/jobs/jobs.server";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

describe("every job kind declares its payload once", () => {
  it("the queue's definitions are the kinds of job-payloads.server.ts, each with its schema", () => {
    expect(Object.keys(JOB_DEFINITIONS).sort()).toEqual(Object.keys(JOB_PAYLOADS).sort());
    for (const kind of Object.keys(JOB_PAYLOADS) as (keyof typeof JOB_PAYLOADS)[]) {
      expect(JOB_DEFINITIONS[kind].payload).toBe(JOB_PAYLOADS[kind]);
    }
  });
});

describe.each(testEngines())("enqueue checks the payload on %s", (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => app?.close());

  const queued = async (kind: string) =>
    Number(
      (
        (await app.database.db.execute(
          sql`SELECT count(*)::int AS n FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE name = ${kind}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n,
    );

  it("a payload its kind's schema refuses throws, naming the fields, and nothing is queued", async () => {
    const before = await queued("team-ended-mail");
    const wrong = { teamId: "t-1", userId: "u-1", reason: "forgotten" };
    // @ts-expect-error -- the reason is not one the "team ended" e-mail knows: a type error, and refused at run time
    await expect(enqueue("team-ended-mail", wrong)).rejects.toThrow(
      "A team-ended-mail job's payload does not match its schema (reason)",
    );
    // @ts-expect-error -- an unknown kind is a type error too
    await expect(enqueue("no-such-kind", {})).rejects.toThrow("Unknown job kind no-such-kind");
    expect(await queued("team-ended-mail")).toBe(before);
  });

  it("a job stored with a malformed payload fails its attempt instead of reaching the handler", async () => {
    const id = await getJobQueue().boss.send("demo-refund-approval", { adjustment: "typo" }, { retryLimit: 0 });
    await drainJobs();
    const rows = (await app.database.db.execute(
      sql`SELECT state::text AS state, output FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE id = ${id}::uuid`,
    )) as unknown as { rows: { state: string; output: { message?: string } }[] };
    expect(rows.rows[0]!.state).toBe("failed");
    expect(rows.rows[0]!.output.message).toContain("payload does not match its schema (adjustmentId)");
  });
});
