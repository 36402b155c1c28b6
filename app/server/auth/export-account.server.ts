import { and, eq, inArray, or, sql } from "drizzle-orm";
import { describeUserAgent } from "~/domain/user-agent";
import { getDb } from "../db/db.server";
import { audit_log, licenses, payments, profiles, sessions, user_roles, users } from "../db/schema";
import { connectedAccounts } from "./connected-accounts.server";

/** The profile part of the download. */
async function exportProfile(userId: string) {
  const [user] = await getDb()
    .select({
      email: users.email,
      emailVerified: users.emailVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      createdAt: users.createdAt,
      full_name: profiles.full_name,
      company_name: profiles.company_name,
      billing_name: profiles.billing_name,
      billing_address: profiles.billing_address,
      billing_tax_id: profiles.billing_tax_id,
      role: user_roles.role,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(user_roles, eq(user_roles.user_id, users.id))
    .where(eq(users.id, userId));
  if (!user) return null;
  return {
    email: user.email,
    email_verified: user.emailVerified,
    full_name: user.full_name ?? "",
    company_name: user.company_name,
    billing_name: user.billing_name,
    billing_address: user.billing_address,
    billing_tax_id: user.billing_tax_id,
    role: user.role ?? "user",
    two_factor_enabled: user.twoFactorEnabled,
    created_at: user.createdAt.toISOString(),
  };
}

function exportLicenses(userId: string) {
  return getDb()
    .select({
      id: licenses.id,
      short_id: licenses.short_id,
      email: licenses.email,
      license_type: licenses.license_type,
      status: licenses.status,
      start_date: licenses.start_date,
      end_date: licenses.end_date,
      windows_username: licenses.windows_username,
      computer_name: licenses.computer_name,
      auto_renew: licenses.auto_renew,
      cancellation_requested: licenses.cancellation_requested,
      created_at: licenses.created_at,
    })
    .from(licenses)
    .where(eq(licenses.user_id, userId))
    .orderBy(licenses.created_at);
}

function exportPayments(userId: string) {
  return getDb()
    .select({
      id: payments.id,
      license_id: payments.license_id,
      kind: payments.kind,
      amount_cents: payments.amount_cents,
      currency: payments.currency,
      billed_at: payments.billed_at,
    })
    .from(payments)
    .where(eq(payments.user_id, userId))
    .orderBy(payments.billed_at);
}

/** What the audit log says the user did, and what was done to the user or their licenses. */
function exportAudit(userId: string, licenseIds: string[]) {
  return getDb()
    .select({
      action: audit_log.action,
      target_type: audit_log.target_type,
      target_id: audit_log.target_id,
      details: audit_log.details,
      created_at: audit_log.created_at,
    })
    .from(audit_log)
    .where(
      or(
        eq(audit_log.actor_id, userId),
        and(eq(audit_log.target_type, "user"), eq(audit_log.target_id, userId)),
        licenseIds.length > 0
          ? and(eq(audit_log.target_type, "license"), inArray(audit_log.target_id, licenseIds))
          : sql`false`,
      ),
    )
    .orderBy(audit_log.created_at);
}

async function exportSessions(userId: string) {
  const rows = await getDb()
    .select({ userAgent: sessions.userAgent, ipAddress: sessions.ipAddress, createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return rows.map((s) => ({
    browser: describeUserAgent(s.userAgent),
    ip_address: s.ipAddress,
    signed_in_at: s.createdAt.toISOString(),
  }));
}

/** Everything the site holds about the user, as the JSON download gives it. */
export async function exportAccountData(userId: string) {
  const licenseRows = await exportLicenses(userId);
  return {
    exported_at: new Date().toISOString(),
    profile: await exportProfile(userId),
    connected_accounts: (await connectedAccounts(userId)).map((a) => a.name),
    sessions: await exportSessions(userId),
    licenses: licenseRows,
    payments: await exportPayments(userId),
    audit_log: await exportAudit(
      userId,
      licenseRows.map((l) => l.id),
    ),
  };
}
