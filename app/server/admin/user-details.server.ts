import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { subscriptionIds, type AdminPaymentView, type AdminUserView } from "~/domain/admin-user";
import { paymentStatus } from "~/domain/billing";
import { renewalCharge } from "~/domain/renewal-charge";
import type { SubscriptionCharge } from "~/domain/subscription-prices";
import { getDb } from "../db/db.server";
import { licenses, payments, profiles, user_events, user_roles, users, type License } from "../db/schema";
import { isUuid } from "../action-error.server";
import { userAuditEntries } from "./audit-log.server";
import { adminLicenseView } from "./admin-license-view.server";
import { failedChargeFacts } from "./failed-charge-facts.server";
import { userTimeline } from "./user-timeline.server";
import { renewalSeatsColumn, seatFactColumns } from "../teams/renewal-seats.server";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Everything a user's admin page shows; null when there is no such user. */
export async function getUserDetails(userId: string, timelinePage = 1): Promise<AdminUserView | null> {
  if (!isUuid(userId)) return null;
  const db = getDb();
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      email_verified: users.emailVerified,
      created_at: users.createdAt,
      full_name: profiles.full_name,
      company_name: profiles.company_name,
      last_sign_in_at: profiles.last_sign_in_at,
      role: user_roles.role,
      two_factor_enabled: users.twoFactorEnabled,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(users.id, userId));
  if (!user) return null;
  const [licenseRows, paymentRows, audit, failedRows, timeline] = await Promise.all([
    db
      .select({ ...getTableColumns(licenses), renewal_seats: renewalSeatsColumn })
      .from(licenses)
      .where(eq(licenses.user_id, userId))
      .orderBy(desc(licenses.created_at)),
    db
      .select({
        id: payments.id,
        license_id: payments.license_id,
        license_short_id: licenses.short_id,
        kind: payments.kind,
        amount_cents: payments.amount_cents,
        currency: payments.currency,
        billed_at: payments.billed_at,
        subscription_id: payments.subscription_id,
        refunded_cents: payments.refunded_cents,
        pending_refund_cents: payments.pending_refund_cents,
        dispute_status: payments.dispute_status,
        discount_code: payments.discount_code,
        discount_id: payments.discount_id,
        quantity: payments.quantity,
      })
      .from(payments)
      .innerJoin(licenses, eq(licenses.id, payments.license_id))
      .where(eq(payments.user_id, userId))
      .orderBy(desc(payments.billed_at)),
    userAuditEntries(userId),
    failedChargeRows(userId),
    userTimeline(userId, timelinePage),
  ]);
  const charges = chargesByLicense(paymentRows);
  const licenseViews = (await withFailedCharges(licenseRows)).map((v) => ({ ...v, charges: charges.get(v.id) ?? [] }));
  const paymentViews = [
    ...paymentRows.map(({ discount_id: _id, quantity: _seats, ...p }) => ({
      ...p,
      billed_at: p.billed_at.toISOString(),
      status: paymentStatus(p),
    })),
    ...failedRows.map((row) => failedCharge(row, charges.get(row.license_id) ?? [])),
  ].sort((a, b) => b.billed_at.localeCompare(a.billed_at));
  return {
    id: user.id,
    email: user.email,
    full_name: user.full_name ?? "",
    company_name: user.company_name ?? null,
    created_at: user.created_at.toISOString(),
    email_verified: user.email_verified,
    last_sign_in_at: iso(user.last_sign_in_at),
    role: user.role === "admin" ? "admin" : "user",
    licenses: licenseViews,
    payments: paymentViews,
    subscription_ids: subscriptionIds(licenseViews, paymentViews),
    audit,
    two_factor_enabled: user.two_factor_enabled,
    timeline,
  };
}

/** Each license's payments, oldest first (the rows come newest first): what its renewal is priced from. */
function chargesByLicense(rows: readonly (SubscriptionCharge & { license_id: string })[]) {
  const byLicense = new Map<string, SubscriptionCharge[]>();
  for (const { license_id, kind, amount_cents, currency, quantity, discount_id } of [...rows].reverse()) {
    const list = byLicense.get(license_id) ?? [];
    list.push({ kind, amount_cents, currency, quantity, discount_id });
    byLicense.set(license_id, list);
  }
  return byLicense;
}

/**
 * Renewal charges that failed (the timeline's payment.failed events, written when a license went
 * past due): the payments table shows them as "Failed" beside the transactions that went through.
 */
function failedChargeRows(userId: string) {
  return getDb()
    .select({
      id: user_events.id,
      at: user_events.at,
      license_id: licenses.id,
      short_id: licenses.short_id,
      license_type: licenses.license_type,
      subscription_id: licenses.paddle_subscription_id,
      plan_next_renewal: licenses.plan_next_renewal,
      renewal_discount_percent: licenses.renewal_discount_percent,
      quoted_prices: licenses.quoted_prices,
      // A team's renewal that failed was for every seat it bills.
      ...seatFactColumns,
    })
    .from(user_events)
    .innerJoin(licenses, sql`${licenses.id}::text = ${user_events.details} ->> 'license_id'`)
    .where(and(eq(user_events.user_id, userId), eq(user_events.kind, "payment.failed")));
}

/** A failed renewal as the payments table shows it: what the renewal charges, in the subscription's currency. */
function failedCharge(
  row: Awaited<ReturnType<typeof failedChargeRows>>[number],
  charges: SubscriptionCharge[],
): AdminPaymentView {
  const { cents, currency } = renewalCharge({ ...row, charges });
  return {
    id: `failed-${row.id}`,
    license_id: row.license_id,
    license_short_id: row.short_id,
    kind: "renewal",
    amount_cents: cents ?? 0,
    currency,
    billed_at: row.at.toISOString(),
    subscription_id: row.subscription_id,
    refunded_cents: 0,
    status: "failed",
  };
}

/**
 * The licenses as support sees them; a past-due one with its declined charge explained (decision 0057):
 * the provider's reason and attempts, from the stored failure events.
 */
async function withFailedCharges(rows: (License & { renewal_seats?: number | null })[]) {
  const pastDue = rows.flatMap((l) => (l.past_due_since && l.paddle_subscription_id ? [l.paddle_subscription_id] : []));
  const failures = await failedChargeFacts(pastDue);
  return rows.map((row) => {
    const failure = row.paddle_subscription_id ? failures.get(row.paddle_subscription_id) : undefined;
    return {
      ...adminLicenseView(row),
      decline_reason: failure?.reason ?? null,
      failed_attempts: failure?.attempts ?? null,
      last_failed_attempt_at: failure?.lastAttemptAt ?? null,
    };
  });
}
