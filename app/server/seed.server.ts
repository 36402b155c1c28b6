import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "./db/client.server";
import { getPlan, isPlanId, refundAmountCents } from "~/domain/plans";
import { demoId, demoShapes } from "./billing/demo/demo-shapes.server";
import { configuredPriceIds } from "./billing/price-ids.server";
import type { Transaction } from "./db/client.server";
import {
  accounts,
  demo_billing,
  licenses,
  payments,
  profiles,
  releases,
  user_roles,
  users,
  type License,
  type NewLicense,
} from "./db/schema";
import { licenseKeys } from "./license-keys/keys.server";
import { enrolWithSecret } from "./auth/two-factor.server";

/** The demo accounts created in embedded mode (printed by the start-up banner). */
export const DEMO_ACCOUNTS = [
  {
    role: "admin",
    email: "admin@forgekit.example",
    password: "admin-demo-1",
    fullName: "Avery Admin",
    company: "ForgeKit Ltd.",
    /** Enrolled in two-factor (admins must be): any authenticator app takes this base32 secret. */
    twoFactorSecret: "FORGEKITDEMOADMIN2FASECRET234567",
  },
  {
    role: "user",
    email: "demo@forgekit.example",
    password: "user-demo-1",
    fullName: "Dana Developer",
    company: "Northwind Tools",
    twoFactorSecret: null,
  },
] as const;

export const SEED_RELEASES = [
  {
    version: "2.4.0",
    title: "Batch generation",
    release_date: "2026-11-03",
    installer_size_bytes: 48_211_968,
    installer_sha256: "3f5a2c7e9b1d4068a2c5e7f90b3d6a18c4e2f7a9b0d3c6e815f4a7b2c9d0e3f6",
    release_notes: [
      "Generate several components from one template in a single run, with a summary of every file written.",
      "The preview pane now shows a side-by-side diff of each generated file before it is saved.",
      "Templates can declare required parameters; the run stops early with a clear list of what is missing.",
      "Fixed a crash when a component folder contained a read-only file.",
    ],
  },
  {
    version: "2.3.2",
    title: "Stability fixes",
    release_date: "2026-09-18",
    release_notes: [
      "Fixed project loading on paths longer than 260 characters.",
      "Offline license activation now accepts computer names with lowercase letters.",
      "Reduced memory use when previewing solutions with more than 500 components.",
    ],
  },
  {
    version: "2.3.0",
    title: "Change sets",
    release_date: "2026-08-05",
    release_notes: [
      "Save a set of changes under a name and apply it to other components later.",
      "Change sets can be exported to a file and shared with your team.",
      "New keyboard shortcut Ctrl+Shift+P opens the preview for the current change set.",
    ],
  },
  {
    version: "2.2.0",
    title: "Visual Studio 2026 support",
    release_date: "2026-05-21",
    release_notes: [
      "Loads solutions and project files created with Visual Studio 2026.",
      "Generated components keep the original file encoding and line endings.",
      "The component tree can be filtered by name, type and last-modified date.",
    ],
  },
  {
    version: "2.1.0",
    title: "Faster previews",
    release_date: "2026-03-02",
    release_notes: [
      "Previews render up to three times faster on large components.",
      "Undo and redo now cover every change in the definition editor.",
      "Fixed the preview not refreshing after a template file was renamed.",
    ],
  },
  {
    version: "2.0.0",
    title: "A new engine",
    release_date: "2026-01-12",
    release_notes: [
      "Rewritten generation engine with support for custom template functions.",
      "Projects open in the background, so you can start defining changes at once.",
      "Settings moved to a per-project file that can be committed with your code.",
      "Windows 10 version 1809 or later is now required.",
    ],
  },
];

const DAY = 24 * 60 * 60 * 1000;

/** One license for each state the licenses page distinguishes (spec.md section 4). */
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

/**
 * Demo content for embedded mode: releases, an admin and an ordinary user (e-mail
 * verified), and the ordinary user's licenses. Idempotent: what exists is left alone.
 */
export async function seedDemoData(db: Database, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    // Serialise concurrent seeds (several app servers on one PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(727372002)`);
    for (const release of SEED_RELEASES) {
      const existing = await tx.select({ id: releases.id }).from(releases).where(eq(releases.version, release.version));
      if (existing.length === 0) await tx.insert(releases).values(release);
    }
    for (const account of DEMO_ACCOUNTS) {
      const existing = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${account.email}`);
      if (existing.length > 0) continue;
      const [user] = await tx
        .insert(users)
        .values({ name: account.fullName, email: account.email, emailVerified: true })
        .returning({ id: users.id });
      const userId = user!.id;
      await tx.insert(accounts).values({
        accountId: userId,
        providerId: "credential",
        userId,
        password: await hashPassword(account.password),
      });
      await tx.insert(profiles).values({ id: userId, full_name: account.fullName, company_name: account.company });
      await tx.insert(user_roles).values({ user_id: userId, role: account.role });
      if (account.twoFactorSecret) await enrolWithSecret(tx, userId, account.twoFactorSecret);
      if (account.role === "user") {
        const rows = await tx
          .insert(licenses)
          .values(demoLicenses(userId, account.email, now))
          .returning();
        for (const license of rows) await seedDemoBilling(tx, license);
      }
    }
  });
}

/**
 * What the demo provider would hold for a seeded license bought through it: the subscription
 * (in the state the license shows), the purchase transaction and its payment, and the refund
 * adjustment of a refund-requested or refunded license. So cancel, re-enable, refund and
 * renewal work on the seeded licenses as on bought ones.
 */
async function seedDemoBilling(tx: Transaction, license: License): Promise<void> {
  const subscriptionId = license.paddle_subscription_id;
  if (!subscriptionId || !isPlanId(license.license_type) || !license.purchase_date) return;
  const planId = license.license_type;
  const priceId = configuredPriceIds().regular[planId];
  const period = { starts_at: license.start_date.toISOString(), ends_at: license.end_date.toISOString() };
  const live = license.status === "active" || license.status === "refund_requested";
  const ended = !live || license.end_date <= new Date();
  const sub = demoShapes.subscription({
    id: subscriptionId,
    userId: license.user_id,
    planId,
    priceId,
    trial: false,
    start: license.start_date,
  });
  Object.assign(sub, {
    status: ended ? "canceled" : "active",
    current_billing_period: ended ? null : period,
    next_billed_at: ended || license.cancellation_requested ? null : period.ends_at,
    canceled_at: ended ? period.ends_at : null,
    scheduled_change: license.cancellation_requested
      ? { action: "cancel", effective_at: period.ends_at, resume_at: null }
      : null,
  });
  const txn = demoShapes.transaction({
    subscriptionId,
    customData: { user_id: license.user_id, plan_type: planId },
    priceId,
    months: null,
    amountCents: getPlan(planId).priceCents,
    period,
    origin: "web",
    at: license.purchase_date,
  });
  await tx.insert(demo_billing).values([
    { id: sub.id, kind: "subscription", subscription_id: sub.id, data: sub },
    { id: txn.id, kind: "transaction", subscription_id: sub.id, data: txn },
  ]);
  await tx.insert(payments).values({
    id: txn.id,
    license_id: license.id,
    user_id: license.user_id,
    kind: "purchase",
    subscription_id: sub.id,
    item_id: txn.details.line_items[0]!.id,
    amount_cents: getPlan(planId).priceCents,
    billed_at: license.purchase_date,
    refunded_cents: license.refunded ? (license.refund_amount ?? refundAmountCents(planId)) : 0,
  });
  if (license.status === "refund_requested" || license.refunded) {
    const amount = license.refund_amount ?? refundAmountCents(planId);
    const adjustment = {
      id: demoId("adj"),
      action: "refund",
      type: "partial",
      transaction_id: txn.id,
      subscription_id: sub.id,
      status: license.refunded ? "approved" : "pending_approval",
      totals: { subtotal: String(amount), tax: "0", total: String(amount), currency_code: "USD" },
      created_at: license.purchase_date.toISOString(),
    };
    await tx
      .insert(demo_billing)
      .values({ id: adjustment.id, kind: "adjustment", subscription_id: sub.id, data: adjustment });
  }
}
