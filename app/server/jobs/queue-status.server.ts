import { getLogger } from "../logger.server";
import type { JobKindCounts } from "../metrics/record.server";
import { JOBS_SCHEMA, type JobQueue, type JobQueueStatus } from "./job-types.server";

/** The queue's counts and newest failure for the admin page; a failing query reads as not ok. */
export async function readQueueStatus(
  executeSql: JobQueue["executeSql"],
  kinds: string[],
  started: boolean,
): Promise<JobQueueStatus> {
  try {
    const counts = await executeSql(
      `SELECT state::text AS state, count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = ANY($1::text[]) GROUP BY state`,
      [kinds],
    );
    const n = (state: string) => Number(counts.rows.find((r) => r.state === state)?.n ?? 0);
    const { rows } = await executeSql(
      `SELECT name, singleton_key, completed_on, output FROM ${JOBS_SCHEMA}.job
       WHERE state = 'failed' AND name = ANY($1::text[]) ORDER BY completed_on DESC LIMIT 1`,
      [kinds],
    );
    const last = rows[0];
    return {
      ok: started,
      queued: n("created") + n("retry"),
      active: n("active"),
      failed: n("failed"),
      lastFailure: last
        ? {
            kind: String(last.name),
            failedAt: new Date(last.completed_on as string | Date).toISOString(),
            error: errorText(last.output),
            key: (last.singleton_key as string | null) ?? null,
          }
        : null,
    };
  } catch (error) {
    getLogger().error({ err: error }, "job queue status failed");
    return { ok: false, queued: 0, active: 0, failed: 0, lastFailure: null };
  }
}

/**
 * Per kind: jobs queued (due or waiting for a retry), active and failed, and how long the oldest due
 * job has waited to start (metrics; every known kind is listed, with zeros when it has none).
 */
export async function readKindCounts(executeSql: JobQueue["executeSql"], kinds: string[]): Promise<JobKindCounts[]> {
  const { rows } = await executeSql(
    `SELECT name, state::text AS state, count(*)::int AS n,
       coalesce(extract(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now())), 0)::float AS oldest
     FROM ${JOBS_SCHEMA}.job WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed')
     GROUP BY name, state`,
    [kinds],
  );
  return kinds.map((kind) => {
    const of = (...states: string[]) => rows.filter((r) => r.name === kind && states.includes(String(r.state)));
    const queued = of("created", "retry");
    return {
      kind,
      queued: queued.reduce((sum, r) => sum + Number(r.n), 0),
      active: of("active").reduce((sum, r) => sum + Number(r.n), 0),
      failed: of("failed").reduce((sum, r) => sum + Number(r.n), 0),
      oldestQueuedSeconds: Math.max(0, ...queued.map((r) => Number(r.oldest))),
    };
  });
}

/** A failed job's output (pg-boss keeps the serialized error: name, message, stack) as one line. */
function errorText(output: unknown): string {
  const value = typeof output === "string" ? safeParse(output) : output;
  if (value && typeof value === "object" && "message" in value) return String((value as { message: unknown }).message);
  return value === null || value === undefined ? "unknown error" : JSON.stringify(value);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
