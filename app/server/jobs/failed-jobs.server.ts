import { JOB_TEXTS, JOBS_LIST_LIMIT, type AdminJobsPage, type AdminJobView } from "~/domain/admin-jobs";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { getDb } from "../db/db.server";
import { getLogger } from "../logger.server";
import { JOBS_SCHEMA } from "./job-types.server";
import { getJobQueue, jobsStatus } from "./jobs.server";
import { transactionExecutor } from "./pg-boss-db.server";

/**
 * The admin's jobs page (decision 0038): jobs waiting to run and jobs out of retries, and what support
 * can do about a failed one — run it again (pg-boss `retry`: one more attempt) or discard it
 * (`deleteJob`). Each is audited in the transaction that changes the job.
 */

function errorText(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  const value = typeof output === "string" ? safeParse(output) : output;
  if (value && typeof value === "object" && "message" in value) return String((value as { message: unknown }).message);
  return typeof value === "string" ? value : JSON.stringify(value);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * pg-boss passes its id lists as one array parameter (`$2::uuid[]`); the transaction's executor
 * would spread a JS array into several parameters, so arrays go as Postgres array literals.
 */
function withArrayLiterals(db: ReturnType<typeof transactionExecutor>): ReturnType<typeof transactionExecutor> {
  const literal = (items: unknown[]) =>
    `{${items.map((item) => `"${String(item).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
  return {
    executeSql: (text: string, values: unknown[] = []) =>
      db.executeSql(
        text,
        values.map((value) => (Array.isArray(value) ? literal(value) : value)),
      ),
  };
}

const iso = (value: unknown) => (value ? new Date(value as string | Date).toISOString() : null);

function view(row: Record<string, unknown>): AdminJobView {
  const failed = row.state === "failed";
  return {
    id: String(row.id),
    kind: String(row.name),
    state: String(row.state),
    error: failed || row.state === "retry" ? errorText(row.output) : null,
    attempts: Number(row.retry_count ?? 0) + (failed ? 1 : 0),
    at: failed ? iso(row.completed_on) : iso(row.start_after),
    key: (row.singleton_key as string | null) ?? null,
  };
}

/** The waiting and failed jobs, newest first; a queue that is not running reads as not ok. */
export async function listAdminJobs(): Promise<AdminJobsPage> {
  const status = await jobsStatus();
  if (!status.ok) return { ok: false, waiting: [], failed: [] };
  try {
    const { rows } = await getJobQueue().executeSql(
      `(SELECT id, name, state::text AS state, output, retry_count, completed_on, start_after, singleton_key
          FROM ${JOBS_SCHEMA}.job WHERE state = 'failed' ORDER BY completed_on DESC LIMIT $1)
       UNION ALL
       (SELECT id, name, state::text, output, retry_count, completed_on, start_after, singleton_key
          FROM ${JOBS_SCHEMA}.job WHERE state IN ('created', 'retry') ORDER BY start_after LIMIT $1)`,
      [JOBS_LIST_LIMIT],
    );
    const jobs = rows.map(view);
    return {
      ok: true,
      failed: jobs.filter((j) => j.state === "failed"),
      waiting: jobs.filter((j) => j.state !== "failed"),
    };
  } catch (error) {
    getLogger().error({ err: error }, "listing jobs failed");
    return { ok: false, waiting: [], failed: [] };
  }
}

/** Retries or discards one failed job, audited; a job that is not (or no longer) failed is a 404. */
export async function actOnFailedJob({
  admin,
  jobId,
  action,
}: {
  admin: AuditActor;
  jobId: string;
  action: "retry" | "discard";
}): Promise<void> {
  if (!isUuid(jobId)) throw new ActionError(404, JOB_TEXTS.notFound);
  const boss = getJobQueue().boss;
  await getDb().transaction(async (tx) => {
    const db = withArrayLiterals(transactionExecutor(tx));
    const { rows } = await db.executeSql(
      `SELECT name, output, retry_count, singleton_key FROM ${JOBS_SCHEMA}.job WHERE id = $1 AND state = 'failed' FOR UPDATE`,
      [jobId],
    );
    const job = rows[0];
    if (!job) throw new ActionError(404, JOB_TEXTS.notFound);
    const kind = String(job.name);
    if (action === "retry") await boss.retry(kind, jobId, { db });
    else await boss.deleteJob(kind, jobId, { db });
    await recordAudit(tx, admin, {
      action: action === "retry" ? "job.retry" : "job.discard",
      target_type: "job",
      target_id: jobId,
      details: {
        kind,
        key: job.singleton_key ?? null,
        error: errorText(job.output),
        attempts: Number(job.retry_count) + 1,
      },
    });
  });
}
