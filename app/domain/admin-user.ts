import type { AdminAuditEntry } from "./admin-audit";
import type { SubscriptionCharge } from "./subscription-prices";
import type { TimelinePage } from "./user-timeline";

/** A user's page in the admin area (decision 0025): who they are, what they hold and paid, what happened. */

export interface AdminLicenseView {
  id: string;
  short_id: string;
  email: string;
  license_type: string;
  status: "active" | "revoked" | "refund_requested" | "refunded";
  license_key: string;
  windows_username: string | null;
  computer_name: string | null;
  start_date: string;
  end_date: string;
  is_trial: boolean;
  trial_ends_at: string | null;
  auto_renew: boolean;
  cancellation_requested: boolean;
  paddle_subscription_id: string | null;
  purchase_date: string | null;
  refund_eligible_until: string | null;
  refunded: boolean;
  refund_amount: number | null;
  refunded_at: string | null;
  created_at: string;
  /** A renewal payment failed and is still due (decision 0023): support sees "Payment failed" as the owner does. */
  past_due_since: string | null;
  /** While past due: the provider's reason for the last declined charge, from its stored event (decision 0057). */
  decline_reason?: string | null;
  /** While past due: how many attempts of the charge were declined, and the last one's time (decision 0057). */
  failed_attempts?: number | null;
  last_failed_attempt_at?: string | null;
  /** Revoked because a payment was charged back (decision 0056). */
  charged_back_at: string | null;
  /** The card the provider last charged for it (decision 0038), when it said. */
  payment_card_brand: string | null;
  payment_card_last4: string | null;
  /** A team's subscription ("billing") or a member's seat ("seat"); null for a person's own license. */
  team_role: "billing" | "seat" | null;
  /** On a team's subscription: the seats its next renewal bills (what its renewal line prices). */
  renewal_seats: number | null;
  /**
   * The license's payments, oldest first, where the page has them (the user's page): the renewal is
   * priced in their currency, as the customer's card prices it (decision 0072).
   */
  charges?: SubscriptionCharge[];
}

export interface AdminPaymentView {
  id: string;
  license_id: string;
  license_short_id: string;
  kind: string;
  amount_cents: number;
  currency: string;
  billed_at: string;
  subscription_id: string | null;
  /** What approved refunds gave back of it ("Refunded $8.55 (95%)"). */
  refunded_cents: number;
  /** Paid, refunded in part or in full, or a renewal charge that failed (no transaction kept). */
  status: AdminPaymentStatus;
  /** What a refund requested and not yet approved will give back of it (support's refund, decision 0036). */
  pending_refund_cents?: number;
  /** The payment's dispute as the provider reported it (decision 0056): "warning", "charged_back", "reversed". */
  dispute_status?: string | null;
  /** The discount code the payment was charged with (decision 0073), or null. */
  discount_code?: string | null;
}

export type AdminPaymentStatus = "paid" | "failed" | "refunded" | "partially-refunded";

export interface AdminUserView {
  id: string;
  email: string;
  full_name: string;
  company_name: string | null;
  created_at: string;
  email_verified: boolean;
  last_sign_in_at: string | null;
  role: "admin" | "user";
  licenses: AdminLicenseView[];
  payments: AdminPaymentView[];
  subscription_ids: string[];
  audit: AdminAuditEntry[];
  two_factor_enabled: boolean;
  /** The customer's timeline, the page the URL asks for (?timeline=N). */
  timeline: TimelinePage;
}

/** Whether support can reset a license's offline data: some is set, and the license is not revoked or refunded. */
export function canResetOfflineData(
  license: Pick<AdminLicenseView, "windows_username" | "computer_name" | "status" | "refunded">,
): boolean {
  return (
    (license.windows_username !== null || license.computer_name !== null) &&
    license.status === "active" &&
    !license.refunded
  );
}

/** Distinct subscription ids, in order of first appearance. */
export function subscriptionIds(
  licenses: { paddle_subscription_id: string | null }[],
  payments: { subscription_id: string | null }[],
): string[] {
  const ids = [...licenses.map((l) => l.paddle_subscription_id), ...payments.map((p) => p.subscription_id)];
  return [...new Set(ids.filter((id): id is string => !!id))];
}
