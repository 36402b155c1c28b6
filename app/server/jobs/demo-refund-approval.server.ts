import { getDemoProvider } from "../billing/configured-provider.server";
import type { JobDefinition } from "./jobs.server";
import { JOB_PAYLOADS } from "./job-payloads.server";

export interface DemoRefundApprovalData {
  adjustmentId: string;
}

/**
 * The demo provider's approval of a pending refund, as Paddle's staff would give it (decision
 * 0010): queued by the refund request, due refundApprovalMs (10 s) later, in the database, so an app
 * restart before it is due no longer leaves the license refund_requested for ever. An
 * adjustment no longer pending (approved or rejected meanwhile) is left as it is.
 */
export const demoRefundApprovalJob: JobDefinition<DemoRefundApprovalData> = {
  payload: JOB_PAYLOADS["demo-refund-approval"],
  retryLimit: 8,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 60,
  handle: async ({ adjustmentId }) => {
    const demo = getDemoProvider();
    if (!demo) return { skipped: adjustmentId, reason: "payments go through Paddle now" };
    await demo.settleRefund(adjustmentId, "approved");
    return { approved: adjustmentId, at: new Date().toISOString() };
  },
};
