import { eq } from "drizzle-orm";
import {
  CHARGEBACK_REASON,
  DISPUTE_AUDIT_ACTIONS,
  DISPUTE_OUTCOMES,
  disputeEventWins,
  licenseChargedBack,
  type DisputeStatus,
} from "~/domain/disputes";
import { auditLicenseState } from "~/domain/license-state";
import { recordAudit, WEBHOOK_ACTOR } from "../audit/audit.server";
import type { Transaction } from "../db/client.server";
import { licenses, payments, type License, type Payment } from "../db/schema";
import { getLogger } from "../logger.server";
import { queueCustomerMail } from "../mail/customer-mail.server";
import { queueTeamEnded } from "../teams/team-ended.server";
import { stateFactsOf } from "../teams/renewal-seats.server";
import { licenseEvent, recordEvent } from "../webhooks/events.server";
import type { PaddleAdjustment } from "./paddle-events.server";
import type { FollowUp } from "./payment-provider.server";
import { settleLicenseRefund } from "./settle-refund.server";

/**
 * A dispute adjustment the provider created by itself (decision 0056): the disputed payment keeps
 * it (the newest event by its time wins), then the license follows all its payments: revoked for a
 * chargeback while any payment stands charged back, working again once every chargeback was
 * reversed. A warning only records itself (audit and timeline): the license stays valid.
 */
export async function applyDispute(
  tx: Transaction,
  adjustment: PaddleAdjustment,
  status: DisputeStatus,
  occurredAt: Date,
): Promise<FollowUp[]> {
  const [known] = await tx
    .select({ license_id: payments.license_id })
    .from(payments)
    .where(eq(payments.id, adjustment.transaction_id));
  if (!known) {
    getLogger().warn({ adjustment: adjustment.id }, "dispute adjustment for a transaction we do not know");
    return [];
  }
  // The license first, then its payment: the order every refund and dispute locks them in.
  const [license] = await tx.select().from(licenses).where(eq(licenses.id, known.license_id)).for("update");
  const [paid] = await tx.select().from(payments).where(eq(payments.id, adjustment.transaction_id)).for("update");
  if (!license || !paid) return [];
  // The same adjustment reported again (a redelivery under another event id): nothing new.
  if (paid.dispute_adjustment_id === adjustment.id && paid.dispute_status === status) return [];
  if (!disputeEventWins({ status: paid.dispute_status, at: paid.dispute_at }, { status, at: occurredAt })) return [];
  const cents = Math.abs(Number(adjustment.totals.total));
  await tx
    .update(payments)
    .set({ dispute_status: status, dispute_adjustment_id: adjustment.id, dispute_cents: cents, dispute_at: occurredAt })
    .where(eq(payments.id, paid.id));
  const rows = await tx
    .select({ dispute_status: payments.dispute_status })
    .from(payments)
    .where(eq(payments.license_id, license.id));
  const occasion = { adjustment, payment: paid, status, at: occurredAt, cents };
  if (licenseChargedBack(rows)) return revokeForChargeback(tx, license, occasion);
  if (license.charged_back_at && license.status === "revoked") return restoreAfterReversal(tx, license, occasion);
  if (status === "warning" || status === "reversed") await auditDispute(tx, license, occasion);
  return [];
}

interface DisputeOccasion {
  adjustment: PaddleAdjustment;
  payment: Payment;
  status: DisputeStatus;
  at: Date;
  cents: number;
}

/** Who, what and how much, in the audit log (and on the customer's timeline: the entry names the user). */
async function auditDispute(tx: Transaction, license: License, occasion: DisputeOccasion): Promise<void> {
  await recordAudit(tx, WEBHOOK_ACTOR, {
    action: DISPUTE_AUDIT_ACTIONS[occasion.status],
    target_type: "license",
    target_id: license.id,
    details: {
      user_id: license.user_id,
      short_id: license.short_id,
      email: license.email,
      license_type: license.license_type,
      adjustment_id: occasion.adjustment.id,
      transaction_id: occasion.payment.id,
      amount_cents: occasion.cents,
      currency: occasion.adjustment.totals.currency_code,
      outcome: DISPUTE_OUTCOMES[occasion.status],
      ...auditLicenseState(await stateFactsOf(tx, license), occasion.at),
    },
  });
}

/**
 * Revoked for the chargeback: its own state (charged_back_at), the audit entry, the vendor's
 * `license.revoked` event with the reason, the customer's e-mail, the team's members told, and the
 * subscription's renewal stopped. A license an admin had revoked stays theirs (only recorded).
 */
async function revokeForChargeback(tx: Transaction, license: License, occasion: DisputeOccasion): Promise<FollowUp[]> {
  if (license.status === "revoked") {
    if (occasion.status === "charged_back") await auditDispute(tx, license, occasion);
    return [];
  }
  const [after] = await tx
    .update(licenses)
    .set({ status: "revoked", charged_back_at: occasion.at })
    .where(eq(licenses.id, license.id))
    .returning();
  await auditDispute(tx, after!, { ...occasion, status: "charged_back" });
  await recordEvent(tx, "license.revoked", licenseEvent(after!, { reason: CHARGEBACK_REASON }));
  await queueCustomerMail(tx, {
    kind: "license-revoked",
    licenseId: license.id,
    key: `chargeback:${occasion.adjustment.id}`,
    details: { reason: CHARGEBACK_REASON },
  });
  if (license.team_role === "billing" && license.team_id) await queueTeamEnded(tx, license.team_id, "revoked");
  if (!license.auto_renew || license.cancellation_requested || !license.paddle_subscription_id) return [];
  return [
    {
      kind: "stop-renewal",
      licenseId: license.id,
      subscriptionId: license.paddle_subscription_id,
      occasion: occasion.adjustment.id,
    },
  ];
}

/** Every chargeback reversed: the license works again, in the state its refunds (if any) give it. */
async function restoreAfterReversal(tx: Transaction, license: License, occasion: DisputeOccasion): Promise<FollowUp[]> {
  const [after] = await tx
    .update(licenses)
    .set({ status: "active", charged_back_at: null })
    .where(eq(licenses.id, license.id))
    .returning();
  const followUps = await settleLicenseRefund(tx, license.id);
  await auditDispute(tx, after!, occasion);
  await recordEvent(tx, "license.reinstated", licenseEvent(after!, { reason: "chargeback_reversed" }));
  return followUps;
}
