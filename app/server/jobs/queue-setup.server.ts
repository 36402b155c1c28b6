import type PgBoss from "pg-boss";
import type { JobDefinition } from "./job-types.server";

/**
 * Creates or updates a queue. App servers starting together on one PostgreSQL can deadlock or
 * collide doing this at the same moment: such a conflict is retried after a short random wait.
 */
export async function ensureQueue(boss: PgBoss, kind: string, definition: JobDefinition): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureQueueOnce(boss, kind, definition);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 6 || !["40P01", "40001", "23505"].includes(code ?? "")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

async function ensureQueueOnce(boss: PgBoss, kind: string, definition: JobDefinition): Promise<void> {
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

/**
 * Polls each kind's queue. pg-boss would complete or fail a whole batch together: each job is
 * settled on its own instead (pg-boss's own completion afterwards only touches jobs still active).
 * A full batch means more may be waiting: fetch again at once instead of after the interval.
 */
export async function startWorkers(
  boss: PgBoss,
  kinds: string[],
  settle: (kind: string, job: { id: string; data: unknown }) => Promise<void>,
  { batchSize = 10, pollingIntervalSeconds = 2 }: { batchSize?: number; pollingIntervalSeconds?: number },
): Promise<void> {
  for (const kind of kinds) {
    const workerId: string = await boss.work(kind, { batchSize, pollingIntervalSeconds }, async (jobs) => {
      await Promise.all(jobs.map((job) => settle(kind, job)));
      if (jobs.length === batchSize) boss.notifyWorker(workerId);
    });
  }
}
