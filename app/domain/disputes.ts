/**
 * Disputes (decision 0056): the adjustments the payment provider creates by itself when a customer
 * disputes a charge with their bank. A `chargeback_warning` says a dispute is coming (the license
 * stays valid: it is only recorded), a `chargeback` says the customer won it (the money went back:
 * the license is revoked, in its own words), a `chargeback_reverse` says the provider won it back
 * (the license works again). Each payment keeps the newest dispute event by its time, so events
 * delivered in any order end alike. Pure: the webhook, the admin pages and the tests share it.
 */

export type DisputeStatus = "warning" | "charged_back" | "reversed";

const ACTIONS: Record<string, DisputeStatus> = {
  chargeback_warning: "warning",
  chargeback: "charged_back",
  chargeback_reverse: "reversed",
};

/** The dispute an adjustment's action reports, or null for any other action (a refund, a credit). */
export function disputeStatusOf(action: string): DisputeStatus | null {
  return ACTIONS[action] ?? null;
}

/** How far along a dispute is: at the same moment, the further one wins. */
const RANK: Record<DisputeStatus, number> = { warning: 0, charged_back: 1, reversed: 2 };

/** Whether a dispute event replaces what the payment holds: newer by its time, or further along at the same time. */
export function disputeEventWins(
  stored: { status: DisputeStatus | null; at: Date | null },
  incoming: { status: DisputeStatus; at: Date },
): boolean {
  if (!stored.status || !stored.at) return true;
  const newer = incoming.at.getTime() - stored.at.getTime();
  return newer !== 0 ? newer > 0 : RANK[incoming.status] >= RANK[stored.status];
}

/** What the license's payments say about it: revoked while any of them stands charged back. */
export function licenseChargedBack(payments: readonly { dispute_status: DisputeStatus | null }[]): boolean {
  return payments.some((p) => p.dispute_status === "charged_back");
}

/** The reason a charged-back license carries on the desktop API and in the vendor's webhook events. */
export const CHARGEBACK_REASON = "chargeback";

/** The audit log's actions for disputes (labels in admin-audit.ts); each names the user, so it is on their timeline too. */
export const DISPUTE_AUDIT_ACTIONS = {
  warning: "license.chargeback_warning",
  charged_back: "license.charged_back",
  reversed: "license.chargeback_reversed",
} as const satisfies Record<DisputeStatus, string>;

/** What the audit entry (and so the timeline) says each dispute did to the license. */
export const DISPUTE_OUTCOMES: Record<DisputeStatus, string> = {
  warning: "A chargeback is coming; the license stays valid until the bank decides.",
  charged_back: "The license was revoked: the payment was charged back.",
  reversed: "The chargeback was reversed; the license works again.",
};
