import { desc, eq } from "drizzle-orm";
import { subscriptionIds, type AdminUserView } from "~/domain/admin-user";
import { getDb } from "../db/db.server";
import { licenses, payments, profiles, user_roles, users } from "../db/schema";
import { isUuid } from "../action-error.server";
import { userAuditEntries } from "./audit-log.server";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Everything a user's admin page shows; null when there is no such user. */
export async function getUserDetails(userId: string): Promise<AdminUserView | null> {
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
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(users.id, userId));
  if (!user) return null;
  const [licenseRows, paymentRows, audit] = await Promise.all([
    db.select().from(licenses).where(eq(licenses.user_id, userId)).orderBy(desc(licenses.created_at)),
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
      })
      .from(payments)
      .innerJoin(licenses, eq(licenses.id, payments.license_id))
      .where(eq(payments.user_id, userId))
      .orderBy(desc(payments.billed_at)),
    userAuditEntries(userId),
  ]);
  const licenseViews = licenseRows.map((l) => ({
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
  }));
  const paymentViews = paymentRows.map((p) => ({ ...p, billed_at: p.billed_at.toISOString() }));
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
  };
}
