import { and, eq, gt, isNotNull, lte, or } from "drizzle-orm";
import { dueReminder, reminderHorizon, type ReminderKind } from "~/domain/customer-mail";
import { licenseFacts } from "~/domain/license-status";
import { getDb } from "../db/db.server";
import { licenses, users } from "../db/schema";
import { queueNextHour, scheduleHourly } from "../jobs/hourly.server";
import { JOB_PAYLOADS } from "../jobs/job-payloads.server";
import type { JobDefinition } from "../jobs/jobs.server";
import { queueCustomerMail } from "./customer-mail.server";

/**
 * Reminder e-mails (trial ends soon, renewal coming) are not caused by a request: an hourly scan
 * finds the licenses a reminder is due for and queues each as a keyed customer e-mail (key: the
 * trial end or renewal date), so however often the scan runs, each reminder goes once.
 *
 * The scan schedules itself as a pg-boss job rather than a cron or a timer: each run first queues
 * the next hour's run (startAfter, keyed by the hour), and every app server or worker queues the
 * current and next hour's runs when it starts. The keys make all of that idempotent, so several
 * servers share one scan per hour, and it works the same on PGlite (no cron in the queue).
 */

export const REMINDER_SCAN_JOB = "reminder-scan";

/** Queues the scan of the hour `now` falls in (runs at once) and of the next hour (runs then). */
export const scheduleReminderScans = (now?: Date) => scheduleHourly(REMINDER_SCAN_JOB, now);

export const reminderScanJob: JobDefinition<{ hour: string }> = {
  payload: JOB_PAYLOADS["reminder-scan"],
  retryLimit: 5,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  handle: async ({ hour }) => {
    // The next run is queued first, so a failing scan never breaks the chain.
    await queueNextHour(REMINDER_SCAN_JOB, hour);
    return { queued: (await scanReminders(new Date())).length };
  },
};

/**
 * Queues every reminder due at `now` for customers who keep reminder e-mails on; returns the ones
 * that were new (a reminder queued by an earlier scan is not queued again).
 */
export async function scanReminders(now: Date): Promise<{ licenseId: string; kind: ReminderKind }[]> {
  const horizon = reminderHorizon(now);
  const candidates = await getDb()
    .select({ license: licenses })
    .from(licenses)
    .innerJoin(users, eq(users.id, licenses.user_id))
    .where(
      and(
        eq(users.reminder_emails, true),
        eq(licenses.status, "active"),
        eq(licenses.auto_renew, true),
        eq(licenses.cancellation_requested, false),
        eq(licenses.refunded, false),
        isNotNull(licenses.paddle_subscription_id),
        or(
          and(gt(licenses.end_date, now), lte(licenses.end_date, horizon)),
          and(gt(licenses.trial_ends_at, now), lte(licenses.trial_ends_at, horizon)),
        ),
      ),
    );
  const queued: { licenseId: string; kind: ReminderKind }[] = [];
  for (const { license } of candidates) {
    const due = dueReminder(licenseFacts(license), now);
    if (!due) continue;
    const at = due.at.toISOString();
    const id = await getDb().transaction((tx) =>
      queueCustomerMail(tx, { kind: due.kind, licenseId: license.id, key: at, details: { at } }),
    );
    if (id) queued.push({ licenseId: license.id, kind: due.kind });
  }
  return queued;
}
