import { housekeepingJob } from "../housekeeping/housekeeping-job.server";
import { MACHINE_INACTIVITY_JOB, machineActivatedMailJob, machineInactivityJob } from "../machines/machine-jobs.server";
import { MACHINE_ACTIVATED_MAIL_JOB } from "../machines/activate-machine.server";
import { customerMailJob } from "../mail/customer-mail.server";
import { reminderScanJob } from "../mail/reminders.server";
import { demoRefundApprovalJob } from "./demo-refund-approval.server";
import type { JobKind, JobPayload } from "./job-payloads.server";
import type { JobDefinition } from "./jobs.server";
import { stopRenewalJob } from "./stop-renewal.server";
import { WEBHOOK_DELIVERY_JOB } from "../webhooks/events.server";
import { webhookDeliveryJob } from "../webhooks/deliver.server";
import { TEAM_ENDED_MAIL_JOB, teamEndedMailJob } from "../teams/team-ended.server";
import { FALLBACK_BACKFILL_JOB, fallbackBackfillJob } from "../licenses/fallback-backfill.server";

/** Every kind of background job the app runs, by queue name: each handler takes its kind's payload (job-payloads.server.ts). */
export const JOB_DEFINITIONS: { [K in JobKind]: JobDefinition<JobPayload<K>> } = {
  "stop-renewal": stopRenewalJob,
  "customer-mail": customerMailJob,
  "reminder-scan": reminderScanJob,
  "demo-refund-approval": demoRefundApprovalJob,
  housekeeping: housekeepingJob,
  [MACHINE_INACTIVITY_JOB]: machineInactivityJob,
  [MACHINE_ACTIVATED_MAIL_JOB]: machineActivatedMailJob,
  [WEBHOOK_DELIVERY_JOB]: webhookDeliveryJob,
  [TEAM_ENDED_MAIL_JOB]: teamEndedMailJob,
  [FALLBACK_BACKFILL_JOB]: fallbackBackfillJob,
};
