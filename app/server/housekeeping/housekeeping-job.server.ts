import { getDb } from "../db/db.server";
import { getEnv } from "../env.server";
import { queueNextHour, scheduleHourly } from "../jobs/hourly.server";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import type { JobDefinition } from "../jobs/jobs.server";
import { getLogger } from "../logger.server";
import { REMINDER_SCAN_JOB } from "../mail/reminders.server";
import { MACHINE_INACTIVITY_JOB } from "../machines/machine-jobs.server";
import { recordExpiredLicenses } from "../webhooks/expiry-scan.server";
import { queueEndedTeams } from "../teams/team-ended.server";
import { pruneExpired, type PruneCounts } from "./prune.server";

/**
 * Housekeeping: every hour a durable job deletes expired sessions and verification tokens, past
 * rate-limit windows and sign-in failures, processed webhook events older than
 * WEBHOOK_RETENTION_DAYS, the past hours' keys of hourly jobs and floating leases ended over 7 days
 * ago (prune.server.ts). Completed and
 * failed jobs are pg-boss's own maintenance (jobs/job-retention.server.ts). The audit log and payments are
 * never pruned. It also records license.expired for the licenses that expired since (decision 0044).
 */

export const HOUSEKEEPING_JOB = "housekeeping";

/** The hourly jobs whose past keys housekeeping forgets. */
const HOURLY_KINDS = [HOUSEKEEPING_JOB, REMINDER_SCAN_JOB, MACHINE_INACTIVITY_JOB];

export async function housekeep(now: Date = new Date()): Promise<PruneCounts> {
  return pruneExpired(getDb(), {
    now,
    webhookRetentionDays: getEnv().WEBHOOK_RETENTION_DAYS,
    hourlyKinds: HOURLY_KINDS,
  });
}

/** Queues this hour's and the next hour's run (at start, idempotently). */
export const scheduleHousekeeping = (now?: Date) => scheduleHourly(HOUSEKEEPING_JOB, now);

export const housekeepingJob: JobDefinition<{ hour: string }> = {
  payload: JOB_PAYLOADS["housekeeping"],
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  handle: async ({ hour }) => {
    // The next run is queued first, so a failing run never breaks the chain.
    await queueNextHour(HOUSEKEEPING_JOB, hour);
    const pruned = await housekeep();
    // license.expired for the vendor's systems: expiry happens by the clock (decision 0044).
    const expired = await recordExpiredLicenses();
    // A team's subscription that ended by the clock (grace run out, not renewed): its members are told.
    const teamsEnded = await queueEndedTeams();
    getLogger().info({ pruned, expired, teamsEnded }, "housekeeping");
    return pruned;
  },
};
