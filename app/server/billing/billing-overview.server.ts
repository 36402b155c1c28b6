import type { BillingEntryView } from "~/domain/billing";
import {
  failedAttempts,
  keptVersions,
  refundEntries,
  upcomingCharges,
  type BillingOverview,
  type RefundablePayment,
} from "~/domain/billing-overview";
import { coveredPayments, refundOfCharge } from "~/domain/refund-ledger";
import type { LicenseView } from "~/domain/views";

/**
 * /billing's overview (decision 0030) from the user's licenses and payments, as the page loaded them:
 * the charges to come and the failed renewals from the one license state, and the refunds. A refund
 * still waiting for the provider's approval is shown for the payments the refund ledger says it
 * covers (the newest plan payment and every extension), at 95% of each, as the request asked.
 */
export function billingOverview(licenses: LicenseView[], entries: BillingEntryView[], now: Date): BillingOverview {
  const waiting = new Set(licenses.filter((l) => l.status === "refund_requested").map((l) => l.short_id));
  const pending = new Map<string, number>();
  for (const shortId of waiting) {
    const open = entries.filter((e) => e.license_short_id === shortId && e.refunded_cents === 0);
    for (const payment of coveredPayments(open)) pending.set(payment.id, refundOfCharge(payment.amount_cents));
  }
  const payments: RefundablePayment[] = entries.map((entry) => ({
    ...entry,
    pending_refund_cents: pending.get(entry.id) ?? 0,
  }));
  return {
    upcoming: upcomingCharges(licenses, now),
    failed: failedAttempts(licenses, now),
    refunds: refundEntries(payments),
    keeps: keptVersions(licenses, now),
  };
}
