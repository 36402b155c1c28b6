import { housekeepingJob } from "../housekeeping/housekeeping-job.server";
import { customerMailJob } from "../mail/customer-mail.server";
import { reminderScanJob } from "../mail/reminders.server";
import { demoRefundApprovalJob } from "./demo-refund-approval.server";
import type { JobDefinitions } from "./jobs.server";
import { stopRenewalJob } from "./stop-renewal.server";

/** Every kind of background job the app runs, by queue name. */
export const JOB_DEFINITIONS: JobDefinitions = {
  "stop-renewal": stopRenewalJob as JobDefinitions[string],
  "customer-mail": customerMailJob as JobDefinitions[string],
  "reminder-scan": reminderScanJob as JobDefinitions[string],
  "demo-refund-approval": demoRefundApprovalJob as JobDefinitions[string],
  housekeeping: housekeepingJob as JobDefinitions[string],
};
