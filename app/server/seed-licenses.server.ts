import type { NewLicense } from "./db/schema";
import { licenseKeys } from "./license-keys/keys.server";

const DAY = 24 * 60 * 60 * 1000;

/** One license for each state the licenses page distinguishes (docs/product.md, "License states and types"). */
// eslint-disable-next-line max-lines-per-function -- data, not code: one literal row per license state
export function demoLicenses(userId: string, email: string, now = new Date()): NewLicense[] {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const base = { user_id: userId, email };
  const rows: Omit<NewLicense, "license_key">[] = [
    {
      ...base,
      license_type: "monthly",
      status: "active",
      start_date: at(-10),
      end_date: at(20),
      auto_renew: true,
      paddle_subscription_id: "sub_demo_seed_renewing",
      purchase_date: at(-10),
      refund_eligible_until: at(4),
      created_at: at(-10),
    },
    {
      ...base,
      license_type: "yearly",
      status: "active",
      start_date: at(-40),
      end_date: at(325),
      auto_renew: false,
      cancellation_requested: true,
      cancellation_requested_at: at(-2),
      paddle_subscription_id: "sub_demo_seed_cancelling",
      purchase_date: at(-40),
      refund_eligible_until: at(-26),
      created_at: at(-40),
    },
    {
      ...base,
      license_type: "trial",
      status: "active",
      start_date: at(-2),
      end_date: at(5),
      is_trial: true,
      trial_starts_at: at(-2),
      trial_ends_at: at(5),
      created_at: at(-2),
    },
    {
      ...base,
      license_type: "trial",
      status: "active",
      start_date: at(-120),
      end_date: at(-113),
      is_trial: true,
      trial_starts_at: at(-120),
      trial_ends_at: at(-113),
      created_at: at(-120),
    },
    {
      ...base,
      license_type: "6_months",
      status: "active",
      start_date: at(-200),
      end_date: at(-17),
      auto_renew: false,
      paddle_subscription_id: "sub_demo_seed_expired",
      purchase_date: at(-200),
      refund_eligible_until: at(-186),
      created_at: at(-200),
    },
    {
      ...base,
      license_type: "monthly",
      status: "revoked",
      start_date: at(-15),
      end_date: at(15),
      paddle_subscription_id: "sub_demo_seed_revoked",
      purchase_date: at(-15),
      refund_eligible_until: at(-1),
      created_at: at(-15),
    },
    {
      // A refund request stops renewal (as requestRefund does): its subscription is cancelling.
      ...base,
      license_type: "yearly",
      status: "refund_requested",
      start_date: at(-5),
      end_date: at(360),
      auto_renew: false,
      cancellation_requested: true,
      cancellation_requested_at: at(-1),
      paddle_subscription_id: "sub_demo_seed_refund_requested",
      purchase_date: at(-5),
      refund_eligible_until: at(9),
      created_at: at(-5),
    },
    {
      ...base,
      license_type: "6_months",
      status: "refunded",
      start_date: at(-30),
      end_date: at(152),
      paddle_subscription_id: "sub_demo_seed_refunded",
      purchase_date: at(-30),
      refund_eligible_until: at(-16),
      refunded: true,
      refund_amount: 4703,
      refunded_at: at(-25),
      created_at: at(-30),
    },
    {
      ...base,
      license_type: "tester",
      status: "active",
      start_date: at(-1),
      end_date: at(29),
      created_at: at(-1),
    },
  ];
  return rows.map((row) => ({
    ...row,
    license_key: licenseKeys().generate({ email, start_date: row.start_date!, end_date: row.end_date }),
  }));
}
