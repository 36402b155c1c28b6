import { randomUUID } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { DatabaseHandle, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { job_keys } from "../db/schema";
import { getLogger } from "../logger.server";
import { JOB_RETENTION } from "./job-retention.server";

/** pg-boss's tables live in this schema of the app's database. */
export const JOBS_SCHEMA = "pgboss";

/** One kind of job: its queue's retry rules and its handler. */
export interface JobDefinition<T = unknown> {
  /** Attempts after the first (pg-boss retryLimit). */
  retryLimit: number;
  /** Seconds before the first retry; with backoff each later wait about doubles (pg-boss retryDelay/retryBackoff). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** An attempt running longer than this is failed (and retried). */
  expireInSeconds: number;
  /** Does the work; throwing fails the attempt (its error is kept as the job's output). Returns what is recorded. */
  handle: (data: T, job: { id: string; kind: string }) => Promise<unknown>;
}

export type JobDefinitions = Record<string, JobDefinition<never>>;

export interface JobQueueStatus {
  ok: boolean;
  /** Waiting to run (created or waiting for a retry). */
  queued: number;
  active: number;
  /** Out of retries. */
  failed: number;
  /** The newest failed job's kind, time and error, for the admin page. */
  lastFailure: { kind: string; failedAt: string; error: string; key: string | null } | null;
}

export interface EnqueueOptions {
  /**
   * Idempotency key: a job with this key is queued at most once, ever (kept in job_keys, written
   * in the job's transaction); also pg-boss's singletonKey, so the job row shows it.
   */
  key?: string;
  /**
   * Queue the job inside this transaction: it exists if and only if the transaction commits.
   * Inside `db.transaction(tx => …)` always pass tx (PGlite has one connection: using the pool
   * there deadlocks).
   */
  tx?: Transaction;
  /** Not before this moment (a scheduled job, e.g. the next reminder scan). */
  startAfter?: Date;
}

export interface JobQueueOptions {
  definitions: JobDefinitions;
  /** Poll for jobs (false: jobs run only through drain(), for tests and commands). */
  work?: boolean;
  pollingIntervalSeconds?: number;
  /** Jobs a worker fetches at once (run side by side, each completed or failed on its own). */
  batchSize?: number;
  /** For logs: which process this is. */
  name?: string;
}

export interface JobQueue {
  readonly boss: PgBoss;
  start: () => Promise<void>;
  /** Graceful: running jobs get up to timeoutMs to finish, then are released for a retry. */
  stop: (options?: { timeoutMs?: number }) => Promise<void>;
  enqueue: (kind: string, data: object, options?: EnqueueOptions) => Promise<string | null>;
  /**
   * Runs every due job in this process until none is left (tests, commands); returns how many
   * attempts ran. skipDelays first makes the jobs waiting for a retry due, so each call runs one
   * more attempt of a failing job (its next wait is again in the future).
   */
  drain: (options?: { skipDelays?: boolean }) => Promise<number>;
  status: () => Promise<JobQueueStatus>;
  /** Runs SQL on the queue's connection (tests and the status query). */
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * pg-boss's `db` on the embedded engine: the app's one PGlite connection. PGlite runs one query
 * at a time and makes every query wait while a transaction is open, so pg-boss's statements never
 * land inside an app transaction; statements without parameters may be several (pg-boss's
 * locked BEGIN … COMMIT blocks) and go through exec, with a ROLLBACK if one fails so the shared
 * connection is never left in an aborted transaction.
 */
export function pgliteExecutor(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) {
        const result = await client.query(
          text,
          values.map((v) => (v === undefined ? null : v)),
        );
        return { rows: result.rows as Record<string, unknown>[] };
      }
      try {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      } catch (error) {
        await client.exec("ROLLBACK").catch(() => {});
        throw error;
      }
    },
  };
}

/** pg-boss's `db` inside an app transaction (both engines): its statement runs on the transaction. */
export function transactionExecutor(tx: Transaction): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        const value = values[Number(match[1]) - 1];
        chunks.push(sql`${toParam(value)}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: Record<string, unknown>[] };
      return { rows: result.rows };
    },
  };
}

function toParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date))
    return JSON.stringify(value);
  return value;
}

/** A job queue on the app's database: pg-boss with its own pool on PostgreSQL, the app's connection on PGlite. */
export function createJobQueue(database: DatabaseHandle, options: JobQueueOptions): JobQueue {
  const log = getLogger();
  const common = {
    schema: JOBS_SCHEMA,
    // No cron schedules: no clock-skew and cron polling.
    schedule: false,
    // Finished jobs: completed ones archived after 12 hours, failed ones after 30 days, then deleted.
    ...JOB_RETENTION,
  };
  const boss =
    database.engine === "postgres"
      ? new PgBoss({ ...common, connectionString: database.url!, max: 3, application_name: "forgekit-jobs" })
      : new PgBoss({ ...common, db: pgliteExecutor(database.pglite!) });
  boss.on("error", (error: unknown) => log.error({ err: error }, "job queue error"));
  const kinds = Object.keys(options.definitions);
  const executeSql = (text: string, values: unknown[] = []) =>
    (boss.getDb() as PgBoss.Db).executeSql(text, values) as Promise<{ rows: Record<string, unknown>[] }>;
  let started = false;

  async function run(kind: string, job: { id: string; data: unknown }): Promise<unknown> {
    const definition = options.definitions[kind];
    if (!definition) throw new Error(`No handler for job kind ${kind}`);
    try {
      return await (definition.handle as JobDefinition["handle"])(job.data, { id: job.id, kind });
    } catch (error) {
      log.warn({ err: error, job: job.id, kind }, "job attempt failed");
      throw error;
    }
  }

  /** One attempt: the handler, then the job completed with its output or failed with its error. */
  async function settle(kind: string, job: { id: string; data: unknown }): Promise<void> {
    try {
      const output = await run(kind, job);
      await boss.complete(kind, job.id, output === undefined ? undefined : (output as object));
    } catch (error) {
      await boss.fail(kind, job.id, error as object);
    }
  }

  /**
   * Creates or updates a queue. App servers starting together on one PostgreSQL can deadlock or
   * collide doing this at the same moment: such a conflict is retried after a short random wait.
   */
  async function ensureQueue(kind: string, definition: JobDefinition<never>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ensureQueueOnce(kind, definition);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 6 || !["40P01", "40001", "23505"].includes(code ?? "")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  }

  async function ensureQueueOnce(kind: string, definition: JobDefinition<never>): Promise<void> {
    const queueOptions = {
      name: kind,
      policy: "standard" as const,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryBackoff,
      expireInSeconds: definition.expireInSeconds,
    };
    if (await boss.getQueue(kind)) return boss.updateQueue(kind, queueOptions);
    try {
      await boss.createQueue(kind, queueOptions);
    } catch (error) {
      // Another app server created it at the same moment.
      if (!(await boss.getQueue(kind))) throw error;
    }
  }

  return {
    boss,
    executeSql,
    async start() {
      await boss.start();
      for (const kind of kinds) await ensureQueue(kind, options.definitions[kind]!);
      if (options.work !== false) {
        for (const kind of kinds) {
          // pg-boss would complete or fail a whole batch together: each job is settled on its
          // own instead (pg-boss's own completion afterwards only touches jobs still active).
          // A full batch means more may be waiting: fetch again at once instead of after the interval.
          const batchSize = options.batchSize ?? 10;
          const workerId: string = await boss.work(
            kind,
            { batchSize, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
            async (jobs) => {
              await Promise.all(jobs.map((job) => settle(kind, job)));
              if (jobs.length === batchSize) boss.notifyWorker(workerId);
            },
          );
        }
      }
      started = true;
      log.info({ kinds, work: options.work !== false, name: options.name }, "job queue started");
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
    },
    async enqueue(kind, data, { key, tx, startAfter } = {}) {
      if (!options.definitions[kind]) throw new Error(`Unknown job kind ${kind}`);
      const send = async (t: Transaction) => {
        const id = randomUUID();
        if (key) {
          const claimed = await t
            .insert(job_keys)
            .values({ key, queue: kind, job_id: id })
            .onConflictDoNothing()
            .returning({ key: job_keys.key });
          if (claimed.length === 0) return null;
        }
        return boss.send(kind, data, { id, singletonKey: key, startAfter, db: transactionExecutor(t) });
      };
      return tx ? send(tx) : getDb().transaction(send);
    },
    async drain({ skipDelays = false } = {}) {
      let ran = 0;
      if (skipDelays) {
        await executeSql(
          `UPDATE ${JOBS_SCHEMA}.job SET start_after = now() WHERE state = 'retry' AND name = ANY($1::text[])`,
          [kinds],
        );
      }
      for (;;) {
        let round = 0;
        for (const kind of kinds) {
          const jobs = await boss.fetch<object>(kind, { batchSize: 10 });
          for (const job of jobs) {
            round++;
            await settle(kind, job);
          }
        }
        ran += round;
        if (round === 0) return ran;
      }
    },
    async status() {
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
        log.error({ err: error }, "job queue status failed");
        return { ok: false, queued: 0, active: 0, failed: 0, lastFailure: null };
      }
    },
  };
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

// The process's queue, started at boot (server/app.ts), by the worker command or by a test.
let current: JobQueue | undefined;

/** Starts the process's job queue on the open database (after migrations). */
export async function startJobs(database: DatabaseHandle, options: JobQueueOptions): Promise<JobQueue> {
  if (current) throw new Error("The job queue is already started");
  const queue = createJobQueue(database, options);
  await queue.start();
  current = queue;
  return queue;
}

/** Stops the process's job queue (graceful: running jobs finish or are released for a retry). */
export async function stopJobs(options?: { timeoutMs?: number }): Promise<void> {
  const queue = current;
  current = undefined;
  await queue?.stop(options);
}

export function getJobQueue(): JobQueue {
  if (!current) throw new Error("The job queue is not started");
  return current;
}

/** Queues a job of a known kind; with `key`, never twice; with `tx`, only if that transaction commits. */
export function enqueue(kind: string, data: object, options?: EnqueueOptions): Promise<string | null> {
  return getJobQueue().enqueue(kind, data, options);
}

/** Runs the queue to completion in this process (tests, commands). */
export function drainJobs(options?: { skipDelays?: boolean }): Promise<number> {
  return getJobQueue().drain(options);
}

export function jobsStatus(): Promise<JobQueueStatus> {
  return current
    ? current.status()
    : Promise.resolve({ ok: false, queued: 0, active: 0, failed: 0, lastFailure: null });
}
