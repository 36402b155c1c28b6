import { housekeepingJob } from "../housekeeping/housekeeping-job.server";
import { MACHINE_INACTIVITY_JOB, machineActivatedMailJob, machineInactivityJob } from "../machines/machine-jobs.server";
import { MACHINE_ACTIVATED_MAIL_JOB } from "../machines/activate-machine.server";
import { customerMailJob } from "../mail/customer-mail.server";
import { reminderScanJob } from "../mail/reminders.server";
import { demoRefundApprovalJob } from "./demo-refund-approval.server";
import type { JobDefinitions } from "./jobs.server";
import { stopRenewalJob } from "./stop-renewal.server";
import { WEBHOOK_DELIVERY_JOB } from "../webhooks/events.server";
import { webhookDeliveryJob } from "../webhooks/deliver.server";
import { TEAM_ENDED_MAIL_JOB, teamEndedMailJob } from "../teams/team-ended.server";

/** Every kind of background job the app runs, by queue name. */
export const JOB_DEFINITIONS: JobDefinitions = {
  "stop-renewal": stopRenewalJob as JobDefinitions[string],
  "customer-mail": customerMailJob as JobDefinitions[string],
  "reminder-scan": reminderScanJob as JobDefinitions[string],
  "demo-refund-approval": demoRefundApprovalJob as JobDefinitions[string],
  housekeeping: housekeepingJob as JobDefinitions[string],
  [MACHINE_INACTIVITY_JOB]: machineInactivityJob as JobDefinitions[string],
  [MACHINE_ACTIVATED_MAIL_JOB]: machineActivatedMailJob as JobDefinitions[string],
  [WEBHOOK_DELIVERY_JOB]: webhookDeliveryJob as JobDefinitions[string],
  [TEAM_ENDED_MAIL_JOB]: teamEndedMailJob as JobDefinitions[string],
};
