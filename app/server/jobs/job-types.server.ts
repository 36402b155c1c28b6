import type { JobKindCounts } from "../metrics/record.server";
import type PgBoss from "pg-boss";
import type { z } from "zod";
import type { Transaction } from "../db/client.server";

/** pg-boss's tables live in this schema of the app's database. */
export const JOBS_SCHEMA = "pgboss";

/** One kind of job: its payload's schema (job-payloads.server.ts for the app's kinds), its queue's retry rules and its handler. */
export interface JobDefinition<T extends object = object> {
  /** What a job of this kind carries: checked when it is queued and again before the handler runs. */
  payload: z.ZodType<T>;
  /** Attempts after the first (pg-boss retryLimit). */
  retryLimit: number;
  /** Seconds before the first retry; with backoff each later wait about doubles (pg-boss retryDelay/retryBackoff). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** An attempt running longer than this is failed (and retried). */
  expireInSeconds: number;
  /** Does the work; throwing fails the attempt (its error is kept as the job's output). Returns what is recorded. */
  handle(data: T, job: { id: string; kind: string }): Promise<unknown>;
}

/**
 * A queue's kinds and their definitions. The app's (definitions.server.ts) are typed kind by kind
 * against job-payloads.server.ts; a definition of any payload fits here because `handle` is a
 * method, and the queue hands it only data its own schema accepted.
 */
export type JobDefinitions = Record<string, JobDefinition>;

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
  /** Queues a job of one of this queue's kinds; a payload its schema refuses throws, and nothing is queued. */
  enqueue: (kind: string, data: unknown, options?: EnqueueOptions) => Promise<string | null>;
  /**
   * Runs every due job in this process until none is left (tests, commands); returns how many
   * attempts ran. skipDelays first makes the jobs waiting for a retry due, so each call runs one
   * more attempt of a failing job (its next wait is again in the future).
   */
  drain: (options?: { skipDelays?: boolean }) => Promise<number>;
  status: () => Promise<JobQueueStatus>;
  /** Queued, active and failed jobs and the oldest due job's wait, per kind (metrics). */
  countsByKind: () => Promise<JobKindCounts[]>;
  /** Runs SQL on the queue's connection (tests and the status query). */
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
}
