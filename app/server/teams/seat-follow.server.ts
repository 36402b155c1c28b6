import type { licenses } from "../db/schema";

/** A column of the licenses table. */
type LicenseColumn = keyof typeof licenses.$inferSelect;

/**
 * What a team's seat licenses copy from their subscription's license on every change of it: the
 * database trigger `team_seats_follow_billing` (latest definition: drizzle/0030_chargebacks.sql) sets
 * exactly these on every seat not revoked (end_date never before the seat's own start). The seats
 * then show and validate as the subscription does: state, dates, renewal, payment trouble, refunds.
 */
export const SEAT_FOLLOWS_BILLING = [
  "status",
  "end_date",
  "license_type",
  "is_trial",
  "trial_starts_at",
  "trial_ends_at",
  "auto_renew",
  "cancellation_requested",
  "cancellation_requested_at",
  "past_due_since",
  "payment_state_at",
  "refunded",
  "refunded_at",
  "charged_back_at",
] as const satisfies readonly LicenseColumn[];

/**
 * What each seat keeps of its own: who holds it and its key, its machines' data, its place in the
 * team, and what only the paying license has (the subscription id, the purchase and refund window,
 * the card, the ordering guards of the provider's events, extensions).
 */
export const SEAT_KEEPS_OWN = [
  "id",
  "short_id",
  "user_id",
  "email",
  "license_key",
  "start_date",
  "created_at",
  "windows_username",
  "computer_name",
  "paddle_subscription_id",
  "purchase_date",
  "refund_eligible_until",
  "refund_amount",
  "extended_months",
  "subscription_synced_at",
  "payment_card_brand",
  "payment_card_last4",
  "payment_card_at",
  "team_id",
  "team_role",
  "revoked_reason",
  // A personal license's waiting plan switch (decision 0061); a team's plan is changed on /team.
  "plan_next_renewal",
  // The cancel step's once-only offer (decision 0065): a seat makes none; a team's subscription neither.
  "retention_offer_outcome",
  "retention_offer_at",
  "renewal_discount_percent",
  // The perpetual fallback (decision 0070) is earned by a license's own payments; a seat has none.
  "fallback_version",
  // The checkout's quote of every plan (decision 0072): a seat's plan is the team's, priced on /team.
  "quoted_prices",
] as const satisfies readonly LicenseColumn[];

/**
 * Every license column is in one of the two lists, or this line does not compile: a new column is a
 * decision (does a seat follow it?), then a migration that redefines the trigger when it does
 * (tests/unit/teams/seat-follow-columns.test.ts compares the trigger's list with SEAT_FOLLOWS_BILLING).
 */
type Undecided = Exclude<LicenseColumn, (typeof SEAT_FOLLOWS_BILLING)[number] | (typeof SEAT_KEEPS_OWN)[number]>;
const _everyLicenseColumnDecided: [Undecided] extends [never] ? true : Undecided = true;
