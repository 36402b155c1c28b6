import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Transaction } from "./db/client.server";
import { accounts, licenses, payments, profiles, user_roles, users, type NewLicense } from "./db/schema";
import { enrolWithSecret } from "./auth/two-factor.server";
import { licenseKeys } from "./license-keys/keys.server";
import { seedDemoBilling } from "./seed-demo-billing.server";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Customers with a support ticket (decision 0038), seeded in embedded mode beside the demo accounts:
 * each brings one state or problem the demo customer does not have, so the back office can be
 * tried (and is tested) on them. Their password is SUPPORT_DEMO_PASSWORD.
 */
export const SUPPORT_DEMO_PASSWORD = "support-demo-1";

export const SUPPORT_DEMO_CUSTOMERS = {
  /** "Cancel my renewal": a monthly license that renews. */
  renewing: { email: "sam.renewal@forgekit.example", fullName: "Sam Renewal", verified: true },
  /** "I typed my e-mail wrong": registered with a typo, never confirmed. */
  typo: { email: "tia.typo@gmial.example", fullName: "Tia Typo", verified: false },
  /** "My payment failed, what happened?": the renewal could not be charged; in the grace period. */
  pastDue: { email: "pat.pastdue@forgekit.example", fullName: "Pat Pastdue", verified: true },
  /** "I lost my phone": two-factor on, no recovery codes left to hand. */
  locked: { email: "lou.locked@forgekit.example", fullName: "Lou Locked", verified: true },
  /** A plan trial that converts into a paid subscription (first charge ahead). */
  converting: { email: "cai.converting@forgekit.example", fullName: "Cai Converting", verified: true },
  /**
   * "Refund me, it is day 20": two monthly licenses bought 20 days ago (one per developer), their
   * 14-day refund window closed, so only support can refund them. Two, so the browser tests can
   * work the ticket once at each screen width on one database.
   */
  lateRefund: { email: "rae.refund@forgekit.example", fullName: "Rae Refund", verified: true },
  /** "My license stopped working": the customer disputed the last charge with the bank and won (a chargeback). */
  disputed: { email: "dee.dispute@forgekit.example", fullName: "Dee Dispute", verified: true },
} as const;

const LOCKED_SECRET = "FORGEKITDEMOLOCKEDCUSTOMER234567";

function supportLicenses(key: keyof typeof SUPPORT_DEMO_CUSTOMERS, userId: string, email: string, now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const base = { user_id: userId, email, license_type: "monthly" as const, status: "active" as const };
  const rows: Omit<NewLicense, "license_key">[] = [];
  if (key === "renewing" || key === "locked")
    rows.push({
      ...base,
      start_date: at(-12),
      end_date: at(18),
      auto_renew: true,
      purchase_date: at(-12),
      paddle_subscription_id: `sub_demo_seed_support_${key}`,
      refund_eligible_until: at(2),
      created_at: at(-12),
    });
  if (key === "lateRefund")
    for (const seat of [1, 2])
      rows.push({
        ...base,
        start_date: at(-20),
        end_date: at(10),
        auto_renew: true,
        purchase_date: at(-20),
        paddle_subscription_id: `sub_demo_seed_support_late_refund_${seat}`,
        refund_eligible_until: at(-6),
        created_at: at(-20),
      });
  if (key === "pastDue")
    rows.push({
      ...base,
      start_date: at(-32),
      end_date: at(-2),
      auto_renew: true,
      purchase_date: at(-32),
      paddle_subscription_id: "sub_demo_seed_support_past_due",
      refund_eligible_until: at(-18),
      past_due_since: at(-2),
      payment_state_at: at(-2),
      created_at: at(-32),
    });
  if (key === "disputed")
    rows.push({
      ...base,
      status: "revoked",
      start_date: at(-10),
      end_date: at(20),
      purchase_date: at(-10),
      paddle_subscription_id: "sub_demo_seed_support_disputed",
      charged_back_at: at(-1),
      created_at: at(-10),
    });
  if (key === "converting")
    rows.push({
      ...base,
      start_date: at(-4),
      end_date: at(3),
      auto_renew: true,
      is_trial: true,
      trial_starts_at: at(-4),
      trial_ends_at: at(3),
      paddle_subscription_id: "sub_demo_seed_support_converting",
      created_at: at(-4),
    });
  return rows.map((row) => ({
    ...row,
    license_key: licenseKeys().generate({ email, start_date: row.start_date!, end_date: row.end_date }),
  }));
}

/**
 * Seeds the ticket customers that do not exist yet (inside the demo seed's transaction). They share
 * one password, hashed once by `hashOf` (a scrypt hash costs about half a second of a core).
 */
export async function seedSupportCustomers(
  tx: Transaction,
  now = new Date(),
  hashOf: (password: string) => Promise<string> = hashPassword,
): Promise<void> {
  for (const [key, customer] of Object.entries(SUPPORT_DEMO_CUSTOMERS) as [
    keyof typeof SUPPORT_DEMO_CUSTOMERS,
    (typeof SUPPORT_DEMO_CUSTOMERS)[keyof typeof SUPPORT_DEMO_CUSTOMERS],
  ][]) {
    const existing = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${customer.email}`);
    if (existing.length > 0) continue;
    const [user] = await tx
      .insert(users)
      .values({
        name: customer.fullName,
        email: customer.email,
        emailVerified: customer.verified,
        createdAt: new Date(now.getTime() - 40 * DAY),
      })
      .returning({ id: users.id });
    const userId = user!.id;
    const password = await hashOf(SUPPORT_DEMO_PASSWORD);
    await tx.insert(accounts).values({ accountId: userId, providerId: "credential", userId, password });
    await tx.insert(profiles).values({ id: userId, full_name: customer.fullName, company_name: null });
    await tx.insert(user_roles).values({ user_id: userId, role: "user" });
    if (key === "locked") await enrolWithSecret(tx, userId, LOCKED_SECRET);
    const rows = supportLicenses(key, userId, customer.email, now);
    if (rows.length === 0) continue;
    const inserted = await tx.insert(licenses).values(rows).returning();
    for (const license of inserted) await seedDemoBilling(tx, license);
    // The charged-back payment, as the provider's chargeback adjustment left it (decision 0056).
    for (const license of inserted.filter((row) => row.charged_back_at))
      await tx
        .update(payments)
        .set({
          dispute_status: "charged_back",
          dispute_adjustment_id: `adj_demo_seed_chargeback_${key}`,
          dispute_cents: sql`${payments.amount_cents}`,
          dispute_at: license.charged_back_at,
        })
        .where(eq(payments.license_id, license.id));
  }
}
