import type { AdminLicenseView } from "~/domain/admin-user";
import type { License } from "../db/schema";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A license as the admin pages carry it: every fact the one state function and support details read
 * (a team subscription's renewal seats come from `seatFactColumns`).
 */
export function adminLicenseView(l: License & { renewal_seats?: number | null }): AdminLicenseView {
  return {
    id: l.id,
    short_id: l.short_id,
    email: l.email,
    license_type: l.license_type,
    status: l.status,
    license_key: l.license_key,
    windows_username: l.windows_username,
    computer_name: l.computer_name,
    start_date: l.start_date.toISOString(),
    end_date: l.end_date.toISOString(),
    is_trial: l.is_trial,
    trial_ends_at: iso(l.trial_ends_at),
    auto_renew: l.auto_renew,
    cancellation_requested: l.cancellation_requested,
    paddle_subscription_id: l.paddle_subscription_id,
    purchase_date: iso(l.purchase_date),
    refund_eligible_until: iso(l.refund_eligible_until),
    refunded: l.refunded,
    refund_amount: l.refund_amount,
    refunded_at: iso(l.refunded_at),
    created_at: l.created_at.toISOString(),
    past_due_since: iso(l.past_due_since),
    charged_back_at: iso(l.charged_back_at),
    payment_card_brand: l.payment_card_brand,
    payment_card_last4: l.payment_card_last4,
    team_role: l.team_role,
    renewal_seats: l.renewal_seats ?? null,
  };
}
