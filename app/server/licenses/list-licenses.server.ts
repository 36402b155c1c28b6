import { desc, eq } from "drizzle-orm";
import { isRefundLocked } from "~/domain/license-status";
import { getDb } from "../db/db.server";
import { licenses } from "../db/schema";

/**
 * The user's licenses, newest first (spec 7), with dates as ISO strings for the page. A refunded
 * or refund-requested license's key and offline data are hidden (spec section 4), not only in the
 * page but in what is sent to it; admins see them (`reveal`).
 */
export async function listUserLicenses(userId: string, { reveal = false }: { reveal?: boolean } = {}) {
  const rows = await getDb()
    .select()
    .from(licenses)
    .where(eq(licenses.user_id, userId))
    .orderBy(desc(licenses.created_at));
  return rows.map(({ user_id: _user, ...row }) => ({
    ...row,
    ...(reveal || !isRefundLocked(row) ? {} : { license_key: null, windows_username: null, computer_name: null }),
    start_date: row.start_date.toISOString(),
    end_date: row.end_date.toISOString(),
    trial_starts_at: row.trial_starts_at?.toISOString() ?? null,
    trial_ends_at: row.trial_ends_at?.toISOString() ?? null,
    cancellation_requested_at: row.cancellation_requested_at?.toISOString() ?? null,
    purchase_date: row.purchase_date?.toISOString() ?? null,
    refund_eligible_until: row.refund_eligible_until?.toISOString() ?? null,
    refunded_at: row.refunded_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }));
}
export type LicenseView = Awaited<ReturnType<typeof listUserLicenses>>[number];
