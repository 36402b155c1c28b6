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
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The database. The original tables (licenses, profiles, user_roles, releases) keep the
 * old backend's names and columns so data exported from the old backend loads as is; the auth
 * tables (users, sessions, accounts, verifications) are Better Auth's, in snake_case.
 */

const timestamps = {
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
};

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

export const LICENSE_TYPES = ["trial", "tester", "monthly", "6_months", "yearly"] as const;
export const LICENSE_STATUSES = ["active", "revoked", "refund_requested", "refunded"] as const;
export const ROLES = ["admin", "user"] as const;

export type LicenseType = (typeof LICENSE_TYPES)[number];
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
export type Role = (typeof ROLES)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    full_name: text("full_name").notNull().default(""),
    company_name: text("company_name"),
    ...timestamps,
    /** When the user last signed in: set by a database trigger on sessions (migration 0012). */
    last_sign_in_at: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (t) => [
    index("profiles_full_name_trgm_idx").using("gin", t.full_name.op("gin_trgm_ops")),
    // Admin search reads matches in name order and stops after a page (see search-users).
    index("profiles_full_name_id_idx").on(t.full_name, t.id),
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
  },
  (t) => [
    index("licenses_user_id_created_at_idx").on(t.user_id, t.created_at.desc()),
    index("licenses_email_idx").on(t.email),
    index("licenses_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
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
    check("licenses_status_check", sql`${t.status} in (${inList(LICENSE_STATUSES)})`),
    check("licenses_refund_amount_check", sql`${t.refund_amount} is null or ${t.refund_amount} >= 0`),
    check("licenses_dates_check", sql`${t.end_date} >= ${t.start_date}`),
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
    ...timestamps,
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("releases_release_date_idx").on(t.release_date.desc(), t.created_at.desc()),
    check("releases_version_check", sql`length(trim(${t.version})) > 0`),
    check("releases_installer_size_check", sql`${t.installer_size_bytes} > 0`),
    check("releases_installer_sha256_check", sql`${t.installer_sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const PAYMENT_KINDS = ["purchase", "renewal", "extension"] as const;
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
    billed_at: timestamp("billed_at", { withTimezone: true }).notNull(),
    ...timestamps,
    /** What approved refunds gave back of this payment (billing history: paid, partially refunded, refunded). */
    refunded_cents: integer("refunded_cents").notNull().default(0),
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

export const CHECKOUT_KINDS = ["plan", "extension"] as const;
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
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
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
  ],
);

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
