import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import type { DatabaseHandle, Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { job_keys } from "../db/schema";
import { getLogger } from "../logger.server";
import type { JobKindCounts } from "../metrics/record.server";
import { JOB_RETENTION } from "./job-retention.server";
import type { JobKind, JobPayload } from "./job-payloads.server";
import {
  JOBS_SCHEMA,
  type EnqueueOptions,
  type JobDefinition,
  type JobQueue,
  type JobQueueOptions,
  type JobQueueStatus,
} from "./job-types.server";
import { pgliteExecutor, transactionExecutor } from "./pg-boss-db.server";
import { ensureQueue, startWorkers } from "./queue-setup.server";
import { readKindCounts, readQueueStatus } from "./queue-status.server";

// The queue's types are declared in job-types.server.ts; every caller imports them from here.
export {
  JOBS_SCHEMA,
  type EnqueueOptions,
  type JobDefinition,
  type JobDefinitions,
  type JobQueue,
  type JobQueueOptions,
  type JobQueueStatus,
} from "./job-types.server";

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
      return await definition.handle(checkedPayload(kind, definition, job.data), { id: job.id, kind });
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

  return {
    boss,
    executeSql,
    async start() {
      await boss.start();
      for (const kind of kinds) await ensureQueue(boss, kind, options.definitions[kind]!);
      if (options.work !== false) await startWorkers(boss, kinds, settle, options);
      started = true;
      log.info({ kinds, work: options.work !== false, name: options.name }, "job queue started");
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
    },
    async enqueue(kind, data, enqueueOptions = {}) {
      const payload = checkedPayload(kind, options.definitions[kind], data);
      const send = (t: Transaction) => sendJob(boss, t, kind, payload, enqueueOptions);
      return enqueueOptions.tx ? send(enqueueOptions.tx) : getDb().transaction(send);
    },
    async drain({ skipDelays = false } = {}) {
      if (skipDelays) {
        await executeSql(
          `UPDATE ${JOBS_SCHEMA}.job SET start_after = now() WHERE state = 'retry' AND name = ANY($1::text[])`,
          [kinds],
        );
      }
      let ran = 0;
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
    status: () => readQueueStatus(executeSql, kinds, started),
    countsByKind: () => readKindCounts(executeSql, kinds),
  };
}

/** The payload as the kind's schema reads it; an unknown kind or a payload its schema refuses throws, naming the fields. */
function checkedPayload<T extends object>(kind: string, definition: JobDefinition<T> | undefined, data: unknown): T {
  if (!definition) throw new Error(`Unknown job kind ${kind}`);
  const checked = definition.payload.safeParse(data);
  if (!checked.success) {
    const fields = checked.error.issues.map((issue) => issue.path.join(".") || "(payload)").join(", ");
    throw new Error(`A ${kind} job's payload does not match its schema (${fields})`);
  }
  return checked.data;
}

/** Sends one job in transaction t; with a key already used, sends nothing and returns null. */
async function sendJob(
  boss: PgBoss,
  t: Transaction,
  kind: string,
  data: object,
  { key, startAfter }: EnqueueOptions,
): Promise<string | null> {
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

/**
 * Queues a job of one of the app's kinds with the payload its schema declares (job-payloads.server.ts);
 * with `key`, never twice; with `tx`, only if that transaction commits.
 */
export function enqueue<K extends JobKind>(
  kind: K,
  data: JobPayload<K>,
  options?: EnqueueOptions,
): Promise<string | null> {
  return getJobQueue().enqueue(kind, data, options);
}

/** Runs the queue to completion in this process (tests, commands). */
export function drainJobs(options?: { skipDelays?: boolean }): Promise<number> {
  return getJobQueue().drain(options);
}

/** The queue's counts per kind (metrics); none while the queue is not started. */
export function jobCountsByKind(): Promise<JobKindCounts[]> {
  return current ? current.countsByKind() : Promise.resolve([]);
}

export function jobsStatus(): Promise<JobQueueStatus> {
  return current
    ? current.status()
    : Promise.resolve({ ok: false, queued: 0, active: 0, failed: 0, lastFailure: null });
}
