import { eq } from "drizzle-orm";
import { subscriptionChangesRefused } from "~/domain/past-due";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";
import { getPaymentProvider } from "../billing/configured-provider.server";
import { markCancellationRequested } from "../licenses/renewal.server";
import type { StopRenewalData } from "./enqueue-stop-renewal.server";
import { JOB_PAYLOADS } from "./job-payloads.server";
import type { JobDefinition } from "./jobs.server";

/**
 * Tells the payment provider to stop renewing a subscription, retried until it agrees: about
 * four days of attempts (12 retries, the wait doubling from a minute), then the job is failed
 * and shown on the admin page.
 */
export const stopRenewalJob: JobDefinition<StopRenewalData> = {
  payload: JOB_PAYLOADS["stop-renewal"],
  retryLimit: 12,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: async ({ licenseId, subscriptionId, record }) => {
    // A past-due subscription refuses a cancel at the period's end (subscription_update_when_past_due);
    // it accepts an immediate one, which also stops the retries of the failed renewal (decision 0056).
    const [license] = await getDb()
      .select({ past_due_since: licenses.past_due_since })
      .from(licenses)
      .where(eq(licenses.id, licenseId));
    const pastDue = license ? subscriptionChangesRefused(license) : false;
    if (pastDue) await getPaymentProvider().cancelNow(subscriptionId);
    else await getPaymentProvider().cancelAtPeriodEnd(subscriptionId);
    if (record) await markCancellationRequested(licenseId);
    return { stopped: subscriptionId, at: new Date().toISOString(), ...(pastDue ? { immediately: true } : {}) };
  },
};
