import type { AuditAction } from "~/domain/admin-audit";
import { auditLicenseState } from "~/domain/license-state";
import { renewalResumedBySupportEmail } from "~/emails/support-notices.server";
import type { Transaction } from "../db/client.server";
import type { License } from "../db/schema";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { cancelRenewal, reenableRenewal } from "../licenses/renewal.server";
import { queueMail } from "../mail/outbox.server";
import { mailBrand, recipientOf } from "../mail/recipient.server";
import { stateFactsOf } from "../teams/renewal-seats.server";

/**
 * Support cancels or re-enables a license's automatic renewal on the customer's behalf (issue
 * 25): exactly the customer's own action (the provider first, then the license; refused the same
 * way), with the admin's audit entry in the change's transaction, and the customer e-mailed.
 */

interface SupportRenewalInput {
  admin: AuditActor;
  userId: string;
  licenseId: string;
  reason: string;
}

function auditIn(admin: AuditActor, action: AuditAction, userId: string, reason: string) {
  return async (tx: Transaction, license: License) =>
    recordAudit(tx, admin, {
      action,
      target_type: "license",
      target_id: license.id,
      details: {
        user_id: userId,
        short_id: license.short_id,
        subscription_id: license.paddle_subscription_id,
        reason,
        ...auditLicenseState(await stateFactsOf(tx, license), new Date()),
      },
    });
}

/** Cancels at the period's end; the customer gets the same "subscription cancelled" e-mail as their own. */
export async function cancelRenewalForCustomer({ admin, userId, licenseId, reason }: SupportRenewalInput) {
  return cancelRenewal({ userId, licenseId, record: auditIn(admin, "user.renewal_cancel", userId, reason) });
}

/** Removes the scheduled cancellation; the customer is told that the license renews again and when. */
export async function reenableRenewalForCustomer({ admin, userId, licenseId, reason }: SupportRenewalInput) {
  const license = await reenableRenewal({
    userId,
    licenseId,
    record: auditIn(admin, "user.renewal_reenable", userId, reason),
  });
  queueMail(async () => {
    const owner = await recipientOf(userId);
    return owner
      ? renewalResumedBySupportEmail(mailBrand(), owner.email, owner.name, {
          shortId: license.short_id,
          renewsOn: license.end_date,
        })
      : null;
  }, "renewal re-enabled notice");
  return license;
}
