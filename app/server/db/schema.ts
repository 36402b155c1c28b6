import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
// Relative, not ~/: drizzle-kit loads this file without the app's path aliases.
import { FREE_LICENSE_TYPES, PLAN_IDS, type LicenseType, type PlanId, type QuotedPrices } from "../../domain/plans";
import {
  CANCEL_NOTE_MAX,
  CANCEL_REASONS,
  RETENTION_OFFER_KINDS,
  type CancelReason,
  type RetentionOfferKind,
} from "../../domain/retention-offer";

/**
 * The database. The original tables (licenses, profiles, user_roles, releases) keep the
 * old backend's names and columns so data exported from the old backend loads as is; the auth
 * tables (users, sessions, accounts, verifications) are Better Auth's, in snake_case.
 */

const timestamps = {
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
};

/**
 * An address's local part read backwards, lower case, for `LIKE 'prefix%'` ranges whatever the
 * database's collation: the admin search finds addresses by how their local part ends (decision 0052).
 */
const emailLocalEnd = (email: AnyPgColumn) => sql`reverse(lower(split_part(${email}, '@', 1))) text_pattern_ops`;

// ---------------------------------------------------------------- auth (Better Auth)

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull().default(""),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    /** Reminder e-mails (trial ends soon, renewal coming) wanted; transactional e-mails always go. */
    reminder_emails: boolean("reminder_emails").notNull().default(true),
    /** Better Auth's two-factor plugin: set once a TOTP secret is confirmed with a code. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** Set when the person deleted the account: the row stays for the licenses it holds, anonymised. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    index("users_created_at_id_idx").on(t.createdAt.desc(), t.id.desc()),
    index("users_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
    // Admin search by an address's part before its @ (decision 0052; the expression is localEnd in search-users).
    index("users_email_local_end_idx").on(emailLocalEnd(t.email)),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    token: text("token").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/** Better Auth's two-factor plugin: the encrypted TOTP secret and recovery codes of a user. */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    // The 30-second time-step of the last authenticator code accepted for this secret: a code of
    // that step or an earlier one is refused, so each code works once (two-factor.server.ts).
    lastTotpStep: integer("last_totp_step"),
  },
  (t) => [uniqueIndex("two_factors_user_id_key").on(t.userId)],
);

// ---------------------------------------------------------------- the original tables

/**
 * The license types the check constraint allows: the plan table's (app/domain/plans.ts), the free
 * kinds first, the order migration 0000 wrote them in. A plan added to the table changes the
 * constraint's text, so `drizzle-kit generate` writes its migration (docs/CONTRIBUTING.md).
 */
const LICENSE_TYPES: readonly LicenseType[] = [...FREE_LICENSE_TYPES, ...PLAN_IDS];
export const LICENSE_STATUSES = ["active", "revoked", "refund_requested", "refunded"] as const;
export const ROLES = ["admin", "user"] as const;

export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
/** A payment's dispute as the provider reported it (a chargeback warning, a chargeback, its reversal). */
export type DisputeStatus = "warning" | "charged_back" | "reversed";
export type Role = (typeof ROLES)[number];
export const LICENSE_TEAM_ROLES = ["billing", "seat"] as const;
export type LicenseTeamRole = (typeof LICENSE_TEAM_ROLES)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    full_name: text("full_name").notNull().default(""),
    company_name: text("company_name"),
    /** The buyer's billing details printed on the demo provider's invoices (decision 0040); null when not given. */
    billing_name: text("billing_name"),
    billing_address: text("billing_address"),
    billing_tax_id: text("billing_tax_id"),
    ...timestamps,
    /** When the user last signed in: set by a database trigger on sessions (migration 0012). */
    last_sign_in_at: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (t) => [
    index("profiles_full_name_trgm_idx").using("gin", t.full_name.op("gin_trgm_ops")),
    // Admin search reads matches in name order and stops after a page (see search-users).
    index("profiles_full_name_id_idx").on(t.full_name, t.id),
    // A one-word search term equal to the surname (the last word of the name) finds its users in
    // name order straight from this index (decision 0048; the expression is SURNAME in search-users).
    index("profiles_surname_idx").on(
      sql`lower(regexp_replace(${t.full_name}, '^.*[[:space:]]', ''))`,
      t.full_name,
      t.id,
    ),
    // A search term of several words equal to a whole name, case aside, finds its users in name order
    // from this index (decision 0052).
    index("profiles_full_name_lower_idx").on(sql`lower(${t.full_name})`, t.full_name, t.id),
  ],
);

export const user_roles = pgTable(
  "user_roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<Role>().notNull().default("user"),
    ...timestamps,
  },
  (t) => [check("user_roles_role_check", sql`${t.role} in (${inList(ROLES)})`)],
);

export const licenses = pgTable(
  "licenses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Short, stable id a customer can read to support (FK-XXXX-XXXX), filled by the database. */
    short_id: text("short_id")
      .notNull()
      .unique()
      .default(sql`new_license_short_id()`),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    license_key: text("license_key").notNull(),
    license_type: text("license_type").$type<LicenseType>().notNull(),
    status: text("status").$type<LicenseStatus>().notNull().default("active"),
    start_date: timestamp("start_date", { withTimezone: true }).notNull().defaultNow(),
    end_date: timestamp("end_date", { withTimezone: true }).notNull(),
    windows_username: text("windows_username"),
    computer_name: text("computer_name"),
    is_trial: boolean("is_trial").notNull().default(false),
    trial_starts_at: timestamp("trial_starts_at", { withTimezone: true }),
    trial_ends_at: timestamp("trial_ends_at", { withTimezone: true }),
    auto_renew: boolean("auto_renew").notNull().default(false),
    cancellation_requested: boolean("cancellation_requested").notNull().default(false),
    cancellation_requested_at: timestamp("cancellation_requested_at", { withTimezone: true }),
    paddle_subscription_id: text("paddle_subscription_id"),
    purchase_date: timestamp("purchase_date", { withTimezone: true }),
    refund_eligible_until: timestamp("refund_eligible_until", { withTimezone: true }),
    refunded: boolean("refunded").notNull().default(false),
    refund_amount: integer("refund_amount"),
    refunded_at: timestamp("refunded_at", { withTimezone: true }),
    ...timestamps,
    /** Months bought as extensions: the license ends this long after the paid billing period. */
    extended_months: integer("extended_months").notNull().default(0),
    /** occurred_at of the newest provider event applied to the subscription fields (ordering guard). */
    subscription_synced_at: timestamp("subscription_synced_at", { withTimezone: true }),
    /** A renewal payment failed and the subscription is past due since then (null: paid up). Decision 0023. */
    past_due_since: timestamp("past_due_since", { withTimezone: true }),
    /** occurred_at of the newest payment failure or success applied to past_due_since (ordering guard). */
    payment_state_at: timestamp("payment_state_at", { withTimezone: true }),
    /** The card the provider last charged for this license, when it said (support sees "Visa •••• 4242"). */
    payment_card_brand: text("payment_card_brand"),
    payment_card_last4: text("payment_card_last4"),
    /** occurred_at of the event the stored card came from (ordering guard: an older event never replaces it). */
    payment_card_at: timestamp("payment_card_at", { withTimezone: true }),
    /** The team this license belongs to (decision 0046): its subscription's license ("billing") or a member's seat. */
    team_id: uuid("team_id").references((): AnyPgColumn => teams.id, { onDelete: "set null" }),
    team_role: text("team_role").$type<LicenseTeamRole>(),
    /** Why the license was revoked, when the site says ("removed from team"). */
    revoked_reason: text("revoked_reason"),
    /**
     * When a payment of this license was charged back (the customer disputed it with their bank and
     * won): the license is revoked for it, until a reversal of the chargeback. Null otherwise.
     */
    charged_back_at: timestamp("charged_back_at", { withTimezone: true }),
    /**
     * A switch to a shorter plan the provider agreed to, waiting for the next renewal (decision 0061):
     * the renewal's transaction bills that plan and the license takes it then. Null: none pending.
     */
    plan_next_renewal: text("plan_next_renewal").$type<PlanId>(),
    /**
     * The cancel step's one offer (decision 0065): "taken" or "declined" once it was made, so it is
     * never made again; null while it was not. When: retention_offer_at.
     */
    retention_offer_outcome: text("retention_offer_outcome").$type<"taken" | "declined">(),
    retention_offer_at: timestamp("retention_offer_at", { withTimezone: true }),
    /** The percent the cancel step's discount takes off the next renewal (decision 0065), cleared by that renewal. */
    renewal_discount_percent: integer("renewal_discount_percent"),
    /**
     * The version the license keeps after its subscription ends (decision 0066, perpetual fallback):
     * `fallbackFor` of its paid periods and the releases, stored by the transaction of every payment,
     * refund, dispute or release change that can move it (decision 0070), so the desktop API reads
     * it with the license. Null: none earned.
     */
    fallback_version: text("fallback_version"),
    /**
     * Every plan's price in the subscription's currency, as the provider quoted it for the buyer's country
     * at checkout (decision 0072), copied from the checkout: what a trial's first charge, a switch's plan
     * and the cancel step's offers cost outside US dollars, where the plan table says nothing. Null when
     * bought before it was kept or without a quote; in US dollars the plan table is the price.
     */
    quoted_prices: jsonb("quoted_prices").$type<QuotedPrices>(),
  },
  (t) => [
    index("licenses_user_id_created_at_idx").on(t.user_id, t.created_at.desc()),
    index("licenses_email_idx").on(t.email),
    index("licenses_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
    index("licenses_email_local_end_idx").on(emailLocalEnd(t.email)),
    // Admin search by any part of a short id, hyphens left out (migration 0017).
    index("licenses_short_id_trgm_idx").using("gin", sql`replace(${t.short_id}, '-', '') gin_trgm_ops`),
    // One license per provider subscription: concurrent webhook deliveries cannot make two.
    uniqueIndex("licenses_paddle_subscription_id_key")
      .on(t.paddle_subscription_id)
      .where(sql`${t.paddle_subscription_id} is not null`),
    // The admin overview (migration 0012).
    index("licenses_active_overview_idx")
      .on(t.end_date, t.license_type, t.is_trial, t.auto_renew)
      .where(sql`${t.status} = 'active'`),
    index("licenses_trial_ends_at_idx")
      .on(t.trial_ends_at, t.is_trial)
      .where(sql`${t.trial_starts_at} is not null`),
    index("licenses_refunded_at_idx")
      .on(t.refunded_at)
      .where(sql`${t.refunded_at} is not null`),
    check("licenses_extended_months_check", sql`${t.extended_months} >= 0`),
    check("licenses_license_type_check", sql`${t.license_type} in (${inList(LICENSE_TYPES)})`),
    check(
      "licenses_renewal_discount_percent_check",
      sql`${t.renewal_discount_percent} is null or ${t.renewal_discount_percent} between 1 and 99`,
    ),
    check(
      "licenses_plan_next_renewal_check",
      sql`${t.plan_next_renewal} is null or ${t.plan_next_renewal} in (${inList(PLAN_IDS)})`,
    ),
    check("licenses_status_check", sql`${t.status} in (${inList(LICENSE_STATUSES)})`),
    check(
      "licenses_retention_offer_outcome_check",
      sql`${t.retention_offer_outcome} is null or ${t.retention_offer_outcome} in ('taken', 'declined')`,
    ),
    // The overview's churn: renewals cancelled, by the end date they stop at (migration 0034).
    index("licenses_cancelled_end_date_idx")
      .on(t.end_date)
      .where(sql`${t.cancellation_requested}`),
    check("licenses_refund_amount_check", sql`${t.refund_amount} is null or ${t.refund_amount} >= 0`),
    check("licenses_dates_check", sql`${t.end_date} >= ${t.start_date}`),
    index("licenses_team_id_idx")
      .on(t.team_id)
      .where(sql`${t.team_id} is not null`),
    // One subscription license per team.
    uniqueIndex("licenses_team_billing_key")
      .on(t.team_id)
      .where(sql`${t.team_role} = 'billing'`),
    check(
      "licenses_team_role_check",
      sql`(${t.team_role} is null and ${t.team_id} is null) or ${t.team_role} in (${inList(LICENSE_TEAM_ROLES)})`,
    ),
  ],
);

export const releases = pgTable(
  "releases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    version: text("version").notNull(),
    title: text("title"),
    release_date: date("release_date", { mode: "string" }).notNull(),
    release_notes: text("release_notes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The installer's size and SHA-256 (lowercase hex), when known; the download page shows them. */
    installer_size_bytes: bigint("installer_size_bytes", { mode: "number" }),
    installer_sha256: text("installer_sha256"),
    /** "stable" or "beta" (decision 0039): the download page shows stable; the beta channel also gets stable. */
    channel: text("channel").notNull().default("stable"),
    /** The installer's own address; null: the site's DOWNLOAD_URL. Size and SHA-256 describe this file. */
    download_url: text("download_url"),
    /** Null while a draft: a draft is on no public page and never offered by the update check. */
    published_at: timestamp("published_at", { withTimezone: true }),
    /** A yanked release is never offered again; its entry in the release notes says so. */
    yanked_at: timestamp("yanked_at", { withTimezone: true }),
    /** The percentage of machines the update check offers it to (decision 0062): 100 is everyone. */
    rollout_percent: integer("rollout_percent").notNull().default(100),
    /** The tool should install it (decision 0062). */
    critical: boolean("critical").notNull().default(false),
    /** A tool below this version must update before it runs on; never above the release's own version. */
    minimum_version: text("minimum_version"),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("releases_release_date_idx").on(t.release_date.desc(), t.created_at.desc()),
    uniqueIndex("releases_version_key").on(t.version),
    check("releases_channel_check", sql`${t.channel} in ('stable', 'beta')`),
    check("releases_version_check", sql`length(trim(${t.version})) > 0`),
    check("releases_installer_size_check", sql`${t.installer_size_bytes} > 0`),
    check("releases_installer_sha256_check", sql`${t.installer_sha256} ~ '^[0-9a-f]{64}$'`),
    check("releases_rollout_percent_check", sql`${t.rollout_percent} between 0 and 100`),
  ],
);

export const PAYMENT_KINDS = ["purchase", "renewal", "extension", "seats", "plan_change"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/** Completed provider transactions that paid for a license (what a refund refunds). */
export const payments = pgTable(
  "payments",
  {
    /** The provider's transaction id (txn_…). */
    id: text("id").primaryKey(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<PaymentKind>().notNull(),
    subscription_id: text("subscription_id"),
    /** The provider's customer (ctm_…) who paid, when the transaction named one (admin search). */
    customer_id: text("customer_id"),
    /** The transaction's line item (txnitm_…), which a partial refund names. */
    item_id: text("item_id"),
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    /**
     * The units the transaction billed (its item's quantity: a team's seats, 1 for a personal license),
     * so that a team's renewal in another currency can be priced per seat (decision 0072); null for
     * payments recorded before it was kept.
     */
    quantity: integer("quantity"),
    billed_at: timestamp("billed_at", { withTimezone: true }).notNull(),
    ...timestamps,
    /**
     * The discount the transaction was charged with (decision 0073): the provider's id (dsc_…) and the
     * code the buyer typed (custom_data.discount_code); null without a discount. Shown to admins.
     */
    discount_id: text("discount_id"),
    discount_code: text("discount_code"),
    /** What approved refunds gave back of this payment (billing history: paid, partially refunded, refunded). */
    refunded_cents: integer("refunded_cents").notNull().default(0),
    /** What a refund requested and not yet approved will give back of it (decision 0036): "Refund of $8.55 pending". */
    pending_refund_cents: integer("pending_refund_cents").notNull().default(0),
    /**
     * The refund adjustment of this transaction as last reported (decision 0036): one per
     * transaction (a second refund of it is refused), the newest event by its time wins.
     */
    refund_adjustment_id: text("refund_adjustment_id"),
    refund_cents: integer("refund_cents"),
    refund_status: text("refund_status").$type<"pending_approval" | "approved" | "rejected" | "reversed">(),
    refund_status_at: timestamp("refund_status_at", { withTimezone: true }),
    /**
     * The site's own request of that refund: `requesting` while the provider is being asked (its
     * events wait), `requested` once every adjustment of the request was accepted, `abandoned` when
     * one failed (nothing is shown as refunded; a retry reuses the adjustments already made).
     */
    refund_request: text("refund_request").$type<"requesting" | "requested" | "abandoned">(),
    /**
     * A dispute of this payment as last reported by the provider: `warning` (a chargeback is coming),
     * `charged_back` (the customer won it), `reversed` (the provider won it back). The newest event by
     * its time wins (dispute_at), as for refunds.
     */
    dispute_status: text("dispute_status").$type<DisputeStatus>(),
    dispute_adjustment_id: text("dispute_adjustment_id"),
    dispute_cents: integer("dispute_cents"),
    dispute_at: timestamp("dispute_at", { withTimezone: true }),
    /**
     * The period the payment paid for (the provider's billing_period; an extension's added months),
     * what the perpetual fallback counts (decision 0066). Null: not known (a one-time charge without
     * one, a row older than migration 0036 that could not be read back).
     */
    period_start: timestamp("period_start", { withTimezone: true }),
    period_end: timestamp("period_end", { withTimezone: true }),
  },
  (t) => [
    index("payments_license_id_billed_at_idx").on(t.license_id, t.billed_at.desc()),
    index("payments_billed_at_idx").on(t.billed_at, t.kind, t.amount_cents),
    index("payments_user_id_billed_at_idx").on(t.user_id, t.billed_at.desc()),
    index("payments_subscription_id_idx").on(t.subscription_id),
    index("payments_customer_id_idx")
      .on(t.customer_id)
      .where(sql`${t.customer_id} is not null`),
    check("payments_kind_check", sql`${t.kind} in (${inList(PAYMENT_KINDS)})`),
    check("payments_amount_check", sql`${t.amount_cents} >= 0`),
    check("payments_refunded_cents_check", sql`${t.refunded_cents} >= 0`),
    check("payments_pending_refund_cents_check", sql`${t.pending_refund_cents} >= 0`),
    check(
      "payments_dispute_status_check",
      sql`${t.dispute_status} is null or ${t.dispute_status} in ('warning', 'charged_back', 'reversed')`,
    ),
    index("payments_dispute_status_idx")
      .on(t.dispute_status)
      .where(sql`${t.dispute_status} is not null`),
    check(
      "payments_refund_request_check",
      sql`${t.refund_request} is null or ${t.refund_request} in ('requesting', 'requested', 'abandoned')`,
    ),
  ],
);

/** Every verified provider webhook event, stored by id before it is applied (idempotence). */
export const webhook_events = pgTable(
  "webhook_events",
  {
    event_id: text("event_id").primaryKey(),
    event_type: text("event_type").notNull(),
    occurred_at: timestamp("occurred_at", { withTimezone: true }).notNull(),
    payload: jsonb("payload").notNull(),
    received_at: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_events_received_at_idx").on(t.received_at.desc()),
    // Refund events look up earlier events about the same adjustment (ordering guard).
    index("webhook_events_data_id_idx").on(sql`(${t.payload} -> 'data' ->> 'id')`),
  ],
);

export const CHECKOUT_KINDS = ["plan", "extension", "team"] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];
export const CHECKOUT_STATUSES = ["creating", "open", "completed", "failed", "superseded"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * Every checkout the server created with the provider: what it sells (a plan, with or without
 * the trial, or an extension of one license), at which price, for whom. The webhook applies a
 * trial or an extension only when its transaction is one of these.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CheckoutKind>().notNull(),
    /** The provider's transaction (txn_…), once it exists. */
    transaction_id: text("transaction_id").unique(),
    status: text("status").$type<CheckoutStatus>().notNull().default("creating"),
    plan_type: text("plan_type"),
    /** Decided on the server: the user had no license when this checkout was created. */
    trial: boolean("trial").notNull().default(false),
    price_id: text("price_id"),
    license_id: uuid("license_id").references(() => licenses.id, { onDelete: "cascade" }),
    months: integer("months").notNull().default(0),
    /** Seats of a team checkout; 1 for every other checkout. */
    quantity: integer("quantity").notNull().default(1),
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    /** Every plan's price as the provider quoted it for the buyer's country (decision 0072); given to the license. */
    quoted_prices: jsonb("quoted_prices").$type<QuotedPrices>(),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("checkouts_user_id_idx").on(t.user_id, t.created_at.desc()),
    // At most one live trial checkout per user: the database settles concurrent attempts.
    uniqueIndex("checkouts_one_trial_per_user_idx")
      .on(t.user_id)
      .where(sql`${t.trial} and ${t.status} in ('creating', 'open', 'completed')`),
    check("checkouts_kind_check", sql`${t.kind} in (${inList(CHECKOUT_KINDS)})`),
    check("checkouts_status_check", sql`${t.status} in (${inList(CHECKOUT_STATUSES)})`),
    check("checkouts_amount_check", sql`${t.amount_cents} >= 0`),
    check("checkouts_quantity_check", sql`${t.quantity} between 1 and 100`),
  ],
);
export type Checkout = typeof checkouts.$inferSelect;

export const DEMO_BILLING_KINDS = ["subscription", "transaction", "adjustment"] as const;
export type DemoBillingKind = (typeof DEMO_BILLING_KINDS)[number];

/**
 * The demo provider's own records, in Paddle's shapes (it plays Paddle's part in embedded
 * mode): subscriptions, transactions and adjustments, as Paddle would hold them.
 */
export const demo_billing = pgTable(
  "demo_billing",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<DemoBillingKind>().notNull(),
    subscription_id: text("subscription_id"),
    data: jsonb("data").notNull(),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("demo_billing_subscription_id_idx").on(t.subscription_id),
    check("demo_billing_kind_check", sql`${t.kind} in (${inList(DEMO_BILLING_KINDS)})`),
  ],
);

/** Who did what to which record, and when: admin actions and refund requests. */
export const audit_log = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actor_id: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actor_email: text("actor_email").notNull(),
    action: text("action").notNull(),
    target_type: text("target_type").notNull(),
    target_id: text("target_id").notNull(),
    details: jsonb("details")
      .notNull()
      .default(sql`'{}'::jsonb`),
    ...timestamps,
  },
  (t) => [
    index("audit_log_created_at_idx").on(t.created_at.desc()),
    index("audit_log_action_created_at_idx").on(t.action, t.created_at),
    index("audit_log_target_id_idx").on(t.target_id),
    index("audit_log_actor_id_idx").on(t.actor_id),
    index("audit_log_details_user_id_idx").on(sql`(${t.details} ->> 'user_id')`),
  ],
);

/**
 * Every license key the site ever issued, by hash, against its license: a desktop tool holding a
 * key that was since regenerated (offline data, renewal, extension) still finds its license. Filled
 * by a trigger on licenses (migration 0007), so every code path that writes a key is recorded.
 */
export const license_keys = pgTable(
  "license_keys",
  {
    /** Hex SHA-256 of the key string. */
    key_hash: text("key_hash").primaryKey(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [index("license_keys_license_id_idx").on(t.license_id)],
);

/**
 * The e-mail addresses a user had before a change (admin search finds a customer by an old one).
 * Written by a trigger on users (migration 0016), so every path that changes the address records it;
 * a deleted account's history is erased with its address.
 */
export const user_email_history = pgTable(
  "user_email_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** When the address stopped being the account's. */
    changed_at: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("user_email_history_user_id_idx").on(t.user_id, t.changed_at.desc()),
    index("user_email_history_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
    index("user_email_history_email_local_end_idx").on(emailLocalEnd(t.email)),
  ],
);

/**
 * What happened to a customer (the timeline of decision 0038), written by the code that causes it in the
 * transaction of the change: registration, confirmation, sign-ins, payments, refunds, extensions,
 * offline data, e-mails sent. Admin actions stay in audit_log; the timeline reads both (decision 0038).
 */
export const user_events = pgTable(
  "user_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    details: jsonb("details")
      .notNull()
      .default(sql`'{}'::jsonb`),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("user_events_user_id_at_idx").on(t.user_id, t.at.desc()),
    // The overview's plan switches by month (expansion and contraction, migration 0034).
    index("user_events_plan_changed_at_idx")
      .on(t.at)
      .where(sql`${t.kind} = 'license.plan_changed'`),
  ],
);

/**
 * The cancel step's answers (decision 0065): why the customer cancelled renewal (a reason of the list,
 * free text, both optional), the offer made, if any, and whether it was taken (then the renewal stayed
 * on). The admin overview counts them by month.
 */
export const cancel_answers = pgTable(
  "cancel_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    reason: text("reason").$type<CancelReason>(),
    note: text("note"),
    offer: text("offer").$type<RetentionOfferKind>(),
    outcome: text("outcome").$type<"taken" | "declined">(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("cancel_answers_created_at_idx").on(t.created_at),
    index("cancel_answers_license_id_idx").on(t.license_id),
    check("cancel_answers_reason_check", sql`${t.reason} is null or ${t.reason} in (${inList(CANCEL_REASONS)})`),
    check(
      "cancel_answers_note_check",
      sql`${t.note} is null or char_length(${t.note}) <= ${sql.raw(String(CANCEL_NOTE_MAX))}`,
    ),
    check("cancel_answers_offer_check", sql`${t.offer} is null or ${t.offer} in (${inList(RETENTION_OFFER_KINDS)})`),
    check(
      "cancel_answers_outcome_check",
      sql`(${t.offer} is null) = (${t.outcome} is null) and (${t.outcome} is null or ${t.outcome} in ('taken', 'declined'))`,
    ),
  ],
);

/**
 * The admin overview's summaries (decision 0078): counts kept by triggers in the transaction of every
 * write to licenses, payments, cancel_answers and user_events (migration 0041), so the overview adds
 * up a few hundred rows instead of counting millions. Each is a grouped count of its table, exactly:
 * `admin_summaries_rebuild()` recomputes them all from scratch.
 */
/** Licenses by the UTC day they end and what the overview filters them on. */
export const admin_license_days = pgTable(
  "admin_license_days",
  {
    end_day: date("end_day").notNull(),
    license_type: text("license_type").notNull(),
    status: text("status").notNull(),
    is_trial: boolean("is_trial").notNull(),
    auto_renew: boolean("auto_renew").notNull(),
    cancellation_requested: boolean("cancellation_requested").notNull(),
    /** Not a team's license (team_role null). */
    personal: boolean("personal").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [
    primaryKey({
      name: "admin_license_days_pk",
      columns: [t.end_day, t.license_type, t.status, t.is_trial, t.auto_renew, t.cancellation_requested, t.personal],
    }),
  ],
);

/** Trials (trial_starts_at set) by the UTC day their trial ends, and whether still a trial. */
export const admin_trial_days = pgTable(
  "admin_trial_days",
  {
    trial_end_day: date("trial_end_day").notNull(),
    is_trial: boolean("is_trial").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.trial_end_day, t.is_trial] })],
);

/** Refunded licenses by the UTC day of their refund. */
export const admin_refund_days = pgTable("admin_refund_days", {
  day: date("day").primaryKey(),
  count: integer("count").notNull(),
});

/** Paid (amount above zero) purchases and renewals by UTC day. */
export const admin_payment_days = pgTable(
  "admin_payment_days",
  {
    day: date("day").notNull(),
    kind: text("kind").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

/**
 * A personal license's new subscription: the month of its first paid payment and its plan now, with
 * how many purchases or renewals were billed at that first moment (none: no row).
 */
export const admin_license_first_paid = pgTable("admin_license_first_paid", {
  license_id: uuid("license_id").primaryKey(),
  month: text("month").notNull(),
  license_type: text("license_type").notNull(),
  count: integer("count").notNull(),
});

/** admin_license_first_paid summed by month and plan. */
export const admin_new_months = pgTable(
  "admin_new_months",
  {
    month: text("month").notNull(),
    license_type: text("license_type").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.license_type] })],
);

/** The cancel step's answers by UTC month, reason and offer outcome. */
export const admin_cancel_months = pgTable(
  "admin_cancel_months",
  {
    month: text("month").notNull(),
    reason: text("reason"),
    outcome: text("outcome"),
    count: integer("count").notNull(),
  },
  (t) => [unique("admin_cancel_months_key").on(t.month, t.reason, t.outcome).nullsNotDistinct()],
);

/** Plan switches (`license.plan_changed` on the timeline) by UTC month and plans. */
export const admin_plan_change_months = pgTable(
  "admin_plan_change_months",
  {
    month: text("month").notNull(),
    from_plan: text("from_plan"),
    to_plan: text("to_plan"),
    count: integer("count").notNull(),
  },
  (t) => [unique("admin_plan_change_months_key").on(t.month, t.from_plan, t.to_plan).nullsNotDistinct()],
);

/**
 * Tokens for the vendor's systems on the API (decision 0039): only the SHA-256 of the token is kept (the
 * token is shown once), with its scopes, expiry, last use and revocation.
 */
export const api_tokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole token string. */
    token_hash: text("token_hash").notNull(),
    /** The token's first characters, to tell tokens apart in the list. */
    token_prefix: text("token_prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    created_by: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    last_used_at: timestamp("last_used_at", { withTimezone: true }),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_key").on(t.token_hash),
    index("api_tokens_created_at_idx").on(t.created_at.desc()),
    check("api_tokens_scopes_check", sql`cardinality(${t.scopes}) > 0`),
  ],
);

export type ApiToken = typeof api_tokens.$inferSelect;
export type License = typeof licenses.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type NewLicense = typeof licenses.$inferInsert;
export type Release = typeof releases.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type User = typeof users.$inferSelect;

// ---------------------------------------------------------------- operations

/** Attempt counters for rate limits, shared by every app server. */
export const rate_limits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  window_start: timestamp("window_start", { withTimezone: true }).notNull(),
});

/**
 * Failed sign-ins per address and client IP (app/server/auth/sign-in-guard.server.ts): only
 * failures count, so wrong passwords from one client slow that client down, never the owner
 * signing in from elsewhere (decision 0014).
 */
export const sign_in_failures = pgTable(
  "sign_in_failures",
  {
    email: text("email").notNull(),
    client_ip: text("client_ip").notNull(),
    failures: integer("failures").notNull(),
    last_failure_at: timestamp("last_failure_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.client_ip] }),
    index("sign_in_failures_last_failure_at_idx").on(t.last_failure_at),
  ],
);

/** Embedded mode's mailbox: e-mails kept instead of sent (no SMTP_URL). */
export const dev_mails = pgTable(
  "dev_mails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    from: text("from").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    ...timestamps,
  },
  (t) => [index("dev_mails_created_at_idx").on(t.created_at.desc())],
);

/**
 * Idempotency keys of background jobs (app/server/jobs/jobs.server.ts): a key is written in the
 * same transaction as its job, so a job with a given key is queued at most once, ever — also
 * after pg-boss has archived or deleted the job itself.
 */
export const job_keys = pgTable("job_keys", {
  key: text("key").primaryKey(),
  queue: text("queue").notNull(),
  job_id: uuid("job_id"),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- machines (decision 0041)

/**
 * The computers a license is activated on, by the hash of the fingerprint the tool sends (the site
 * never stores the fingerprint itself). A deactivated machine keeps its row (deactivated_at,
 * deactivated_by); activating it again makes a new row. At most one active row per license and
 * fingerprint; activations take the license's row lock, so two racing for the last seat cannot both win.
 * user_id is the license's owner, for the change trigger of the cached licenses page.
 */
export const machines = pgTable(
  "machines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of the fingerprint. */
    fingerprint_hash: text("fingerprint_hash").notNull(),
    name: text("name").notNull(),
    platform: text("platform"),
    app_version: text("app_version"),
    activated_at: timestamp("activated_at", { withTimezone: true }).notNull().defaultNow(),
    last_seen_at: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    deactivated_at: timestamp("deactivated_at", { withTimezone: true }),
    /** web (the owner), tool, admin or inactivity. */
    deactivated_by: text("deactivated_by").$type<"web" | "tool" | "admin" | "inactivity">(),
  },
  (t) => [
    uniqueIndex("machines_active_fingerprint_key")
      .on(t.license_id, t.fingerprint_hash)
      .where(sql`${t.deactivated_at} is null`),
    index("machines_user_id_idx").on(t.user_id),
    index("machines_active_last_seen_idx")
      .on(t.last_seen_at)
      .where(sql`${t.deactivated_at} is null`),
    index("machines_activated_at_idx").on(t.activated_at),
  ],
);

export type Machine = typeof machines.$inferSelect;

/**
 * Every deactivation, by whom: the owner's and the tool's count toward the self-service limit
 * (3 per license per 30 days by default); an admin's and the inactivity job's do not.
 */
export const machine_deactivations = pgTable(
  "machine_deactivations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    machine_id: uuid("machine_id")
      .notNull()
      .references(() => machines.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    source: text("source").$type<"web" | "tool" | "admin" | "inactivity">().notNull(),
    counts_toward_limit: boolean("counts_toward_limit").notNull(),
    ...timestamps,
  },
  (t) => [index("machine_deactivations_license_created_at_idx").on(t.license_id, t.created_at)],
);

/**
 * Floating leases (decision 0069): a machine that comes and goes (a build server, a virtual desktop)
 * holds one of its license's leases until `expires_at`; a heartbeat moves it on, a return ends it
 * (`returned_at`, and `expires_at` set to the moment of return). A lease counts only while
 * `expires_at` is in the future: nothing needs to free an abandoned one. Taking and heartbeating
 * hold the license's row lock, so the limit is exact on several servers. Apart from machines: a
 * lease never uses a seat or a deactivation. user_id is the license's owner, for the change trigger
 * of the cached licenses page (a heartbeat announces nothing: the page shows the count, which only a
 * take, a return or the clock changes).
 */
export const leases = pgTable(
  "leases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of the fingerprint. */
    fingerprint_hash: text("fingerprint_hash").notNull(),
    /** The name the tool sent (a build agent's), shown to the owner and support; null when none. */
    name: text("name"),
    ttl_minutes: integer("ttl_minutes").notNull(),
    taken_at: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeat_at: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    returned_at: timestamp("returned_at", { withTimezone: true }),
  },
  (t) => [
    index("leases_license_expires_at_idx").on(t.license_id, t.expires_at),
    index("leases_user_expires_at_idx").on(t.user_id, t.expires_at),
    check("leases_ttl_minutes_check", sql`${t.ttl_minutes} between 1 and 1440`),
  ],
);

export type Lease = typeof leases.$inferSelect;

/**
 * Offline activations (decision 0071): each activation request a signed-in owner uploaded and the
 * machine it activated. The request's nonce is kept so the same request is never used twice (a
 * replay is refused); the activation file the page hands out carries it back to the tool. Written
 * with the machine, in one transaction; a refused request writes nothing.
 */
export const offline_activations = pgTable(
  "offline_activations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    license_id: uuid("license_id")
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    machine_id: uuid("machine_id")
      .notNull()
      .references(() => machines.id, { onDelete: "cascade" }),
    /** Who uploaded the request (the license's owner or its seat holder). */
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    nonce: text("nonce").notNull(),
    /** The request's own created_at, as the tool wrote it. */
    requested_at: timestamp("requested_at", { withTimezone: true }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("offline_activations_license_nonce_key").on(t.license_id, t.nonce),
    index("offline_activations_machine_id_idx").on(t.machine_id),
    index("offline_activations_user_id_idx").on(t.user_id),
  ],
);

export type OfflineActivation = typeof offline_activations.$inferSelect;

/**
 * The desktop API's rate-limit counters (rate-limiter-flexible's PostgreSQL store, its own layout):
 * one row per client IP or license key and window, shared by every app server. UNLOGGED in the
 * migration (drizzle has no word for it): counters need no write-ahead log.
 */
export const api_rate_limits = pgTable("api_rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

// ---------------------------------------------------------------- teams (decision 0046)

export const TEAM_ROLES = ["owner", "manager", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const INVITATION_STATUSES = ["pending", "accepted", "withdrawn"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * A team: seats bought on one subscription (its license has team_role "billing"), handed out as
 * seat licenses (team_role "seat") to members. seats_paid is what the provider bills now;
 * seats_next_renewal a reduction that takes effect when the subscription renews.
 */
export const teams = pgTable(
  "teams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The owner and billing contact (the buyer). */
    owner_id: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    plan_type: text("plan_type").$type<LicenseType>().notNull(),
    /** The provider subscription (sub_…) the seats are billed on. */
    subscription_id: text("subscription_id").notNull(),
    /** The subscription item's price (pri_…), which a seat change names. */
    price_id: text("price_id"),
    seats_paid: integer("seats_paid").notNull(),
    /** Fewer seats from the next renewal; null when no reduction is scheduled. */
    seats_next_renewal: integer("seats_next_renewal"),
    /** Anyone with a confirmed address at `domain` may claim a free seat (off by default). */
    domain_claim: boolean("domain_claim").notNull().default(false),
    domain: text("domain"),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("teams_subscription_id_key").on(t.subscription_id),
    index("teams_owner_id_idx").on(t.owner_id),
    index("teams_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    check("teams_seats_paid_check", sql`${t.seats_paid} between 1 and 100`),
    check(
      "teams_seats_next_renewal_check",
      sql`${t.seats_next_renewal} is null or ${t.seats_next_renewal} between 1 and 100`,
    ),
    check("teams_name_check", sql`length(trim(${t.name})) between 1 and 100`),
  ],
);
export type Team = typeof teams.$inferSelect;

/** Who belongs to a team and with which role; a member with a seat has its seat license. */
export const team_members = pgTable(
  "team_members",
  {
    team_id: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<TeamRole>().notNull(),
    seat_license_id: uuid("seat_license_id").references(() => licenses.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.team_id, t.user_id] }),
    index("team_members_user_id_idx").on(t.user_id),
    uniqueIndex("team_members_seat_license_id_key")
      .on(t.seat_license_id)
      .where(sql`${t.seat_license_id} is not null`),
    check("team_members_role_check", sql`${t.role} in (${inList(TEAM_ROLES)})`),
  ],
);
export type TeamMember = typeof team_members.$inferSelect;

/** Invitations by e-mail: only the token's SHA-256 is kept; a link is valid until expires_at (7 days). */
export const team_invitations = pgTable(
  "team_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    team_id: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** The invited address, lower-case. */
    email: text("email").notNull(),
    token_hash: text("token_hash").notNull(),
    status: text("status").$type<InvitationStatus>().notNull().default("pending"),
    invited_by: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    accepted_by: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("team_invitations_token_hash_key").on(t.token_hash),
    // One open invitation per address and team.
    uniqueIndex("team_invitations_pending_email_key")
      .on(t.team_id, t.email)
      .where(sql`${t.status} = 'pending'`),
    index("team_invitations_team_id_idx").on(t.team_id, t.created_at.desc()),
    check("team_invitations_status_check", sql`${t.status} in (${inList(INVITATION_STATUSES)})`),
  ],
);
export type TeamInvitation = typeof team_invitations.$inferSelect;

// ---------------------------------------------------------------- events for the vendor's systems (decision 0044)

/**
 * The outbox of events for the vendor's systems: each row is written in the transaction of the change
 * it reports (no event without its change, no change without its event), with the delivery jobs of
 * the endpoints subscribed to it. `key` makes an event that a scan finds (license.expired) once only.
 */
export const outbound_events = pgTable(
  "outbound_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    type: text("type").notNull(),
    occurred_at: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    data: jsonb("data").notNull(),
    key: text("key"),
  },
  (t) => [
    index("outbound_events_occurred_at_idx").on(t.occurred_at.desc()),
    uniqueIndex("outbound_events_key_key")
      .on(t.key)
      .where(sql`${t.key} is not null`),
  ],
);

/**
 * Admin-managed webhook endpoints: the address, the event types it receives and the secret that
 * signs each delivery (kept to sign; shown to the admin once). `failing_since`: the first failed
 * attempt since the last success; 24 hours of failing disables the endpoint (`disabled_reason`).
 */
export const webhook_endpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabled_reason: text("disabled_reason").$type<"admin" | "failing">(),
    failing_since: timestamp("failing_since", { withTimezone: true }),
    created_by: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_endpoints_created_at_idx").on(t.created_at.desc()),
    check("webhook_endpoints_events_check", sql`cardinality(${t.events}) > 0`),
  ],
);

/** Every delivery attempt of an event to an endpoint: status, time, an excerpt of the answer. */
export const webhook_deliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    event_id: uuid("event_id")
      .notNull()
      .references(() => outbound_events.id, { onDelete: "cascade" }),
    endpoint_id: uuid("endpoint_id")
      .notNull()
      .references(() => webhook_endpoints.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** An admin's "Redeliver" (one attempt, no retries of its own). */
    manual: boolean("manual").notNull().default(false),
    ok: boolean("ok").notNull(),
    status_code: integer("status_code"),
    error: text("error"),
    response_excerpt: text("response_excerpt"),
    duration_ms: integer("duration_ms").notNull(),
    attempted_at: timestamp("attempted_at", { withTimezone: true }).notNull(),
    /** When the next attempt is due (null: none; delivered, given up, or manual). */
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_endpoint_attempted_idx").on(t.endpoint_id, t.attempted_at.desc()),
    index("webhook_deliveries_event_id_idx").on(t.event_id),
  ],
);

export type WebhookEndpoint = typeof webhook_endpoints.$inferSelect;
export type OutboundEvent = typeof outbound_events.$inferSelect;

// ---------------------------------------------------------------- e-mail changes (decision 0059)

export const EMAIL_CHANGE_LINK_KINDS = ["confirm", "undo"] as const;
export type EmailChangeLinkKind = (typeof EMAIL_CHANGE_LINK_KINDS)[number];

/**
 * The one-time links of a change of e-mail address: `confirm` goes to the new address (24 hours) and
 * makes the change; `undo` goes to the old address once it is made (7 days) and puts it back, ending
 * every session. Only the token's SHA-256 is kept; `used_at` is set once, in the transaction that acts.
 */
export const email_change_links = pgTable(
  "email_change_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<EmailChangeLinkKind>().notNull(),
    token_hash: text("token_hash").notNull(),
    old_email: text("old_email").notNull(),
    new_email: text("new_email").notNull(),
    /** The session that asked for the change: it stays signed in when the change ends the others. */
    keep_session_id: uuid("keep_session_id"),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("email_change_links_token_hash_key").on(t.token_hash),
    index("email_change_links_user_id_idx").on(t.user_id),
    check("email_change_links_kind_check", sql`${t.kind} in (${inList(EMAIL_CHANGE_LINK_KINDS)})`),
  ],
);
export type EmailChangeLink = typeof email_change_links.$inferSelect;
