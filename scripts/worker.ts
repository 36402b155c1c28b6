// npm run worker: a process that only runs background jobs (app/server/jobs), beside app servers
// that also run them, for operators who want job work off the web servers. PostgreSQL only
// (DATABASE_URL): on the embedded PGlite one process holds the data directory, and the site
// already runs the jobs itself. Stops gracefully on SIGTERM/SIGINT (running jobs finish or are
// released for a retry).
import { openDatabase } from "../app/server/db/client.server";
import { setDatabase } from "../app/server/db/db.server";
import { getEnv } from "../app/server/env.server";
import { JOB_DEFINITIONS } from "../app/server/jobs/definitions.server";
import { jobsStatus, startJobs, stopJobs } from "../app/server/jobs/jobs.server";
import { scheduleReminderScans } from "../app/server/mail/reminders.server";
import { scheduleHousekeeping } from "../app/server/housekeeping/housekeeping-job.server";
import { scheduleFallbackBackfill } from "../app/server/licenses/fallback-backfill.server";
import { scheduleMachineInactivity } from "../app/server/machines/machine-jobs.server";
import { flushLogs, getLogger } from "../app/server/logger.server";

async function main() {
  const env = getEnv();
  if (!env.DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database the site runs the jobs " +
        "itself, and a second process must not open its data directory.",
    );
    process.exit(2);
  }
  const database = await openDatabase({ url: env.DATABASE_URL, maxConnections: 5 });
  await database.migrate();
  setDatabase(database);
  await startJobs(database, { definitions: JOB_DEFINITIONS, name: "worker" });
  await scheduleReminderScans();
  await scheduleHousekeeping();
  await scheduleFallbackBackfill();
  await scheduleMachineInactivity();
  const log = getLogger();
  log.info({ jobs: await jobsStatus() }, "worker started");
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "worker stopping");
    await stopJobs();
    setDatabase(undefined);
    await database.close();
    flushLogs();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
