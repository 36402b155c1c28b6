import type { LicenseView } from "~/domain/views";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { isRefundLocked } from "~/domain/license-status";
import { getDb } from "../db/db.server";
import { licenses, payments } from "../db/schema";
import { userLicenseMachines } from "../machines/list-machines.server";
import { seatFactColumns } from "../teams/renewal-seats.server";

/** What a license card (and the admin's list of a user's licenses) shows: nothing internal. */
const cardColumns = {
  id: licenses.id,
  short_id: licenses.short_id,
  email: licenses.email,
  license_type: licenses.license_type,
  status: licenses.status,
  license_key: licenses.license_key,
  windows_username: licenses.windows_username,
  computer_name: licenses.computer_name,
  start_date: licenses.start_date,
  end_date: licenses.end_date,
  is_trial: licenses.is_trial,
  trial_ends_at: licenses.trial_ends_at,
  auto_renew: licenses.auto_renew,
  cancellation_requested: licenses.cancellation_requested,
  paddle_subscription_id: licenses.paddle_subscription_id,
  purchase_date: licenses.purchase_date,
  refund_eligible_until: licenses.refund_eligible_until,
  refunded: licenses.refunded,
  refund_amount: licenses.refund_amount,
  refunded_at: licenses.refunded_at,
  past_due_since: licenses.past_due_since,
  // A team's subscription renews for its seats; a member's seat is charged nothing (issue 30).
  ...seatFactColumns,
};

/**
 * The user's licenses, newest first, with dates as ISO strings for the page: only what a
 * card shows (the subscription id becomes `has_subscription`). A refunded or refund-requested
 * license's key and offline data are hidden (docs/product.md, "Licenses"), not only in the page but in what is
 * sent to it; admins see them (`reveal`).
 */
export async function listUserLicenses(
  userId: string,
  { reveal = false }: { reveal?: boolean } = {},
): Promise<LicenseView[]> {
  const [rows, charges] = await Promise.all([userLicensesQuery(getDb()).execute({ userId }), licenseCharges(userId)]);
  const machines = await userLicenseMachines(userId, rows);
  return rows.map(({ paddle_subscription_id, ...row }) => ({
    ...row,
    charges: (charges.get(row.id) ?? []).map((p) => ({ ...p, license_type: row.license_type })),
    machines: machines.get(row.id),
    ...(reveal || !isRefundLocked(row) ? {} : { license_key: null, windows_username: null, computer_name: null }),
    has_subscription: Boolean(paddle_subscription_id),
    start_date: row.start_date.toISOString(),
    end_date: row.end_date.toISOString(),
    trial_ends_at: row.trial_ends_at?.toISOString() ?? null,
    purchase_date: row.purchase_date?.toISOString() ?? null,
    refund_eligible_until: row.refund_eligible_until?.toISOString() ?? null,
    refunded_at: row.refunded_at?.toISOString() ?? null,
    past_due_since: row.past_due_since?.toISOString() ?? null,
  }));
}

/** The user's payments by license, oldest first, as the refund ledger reads them (dates as ISO strings). */
async function licenseCharges(userId: string) {
  const rows = await getDb()
    .select({
      id: payments.id,
      license_id: payments.license_id,
      kind: payments.kind,
      amount_cents: payments.amount_cents,
      currency: payments.currency,
      billed_at: payments.billed_at,
      refunded_cents: payments.refunded_cents,
      pending_refund_cents: payments.pending_refund_cents,
    })
    .from(payments)
    .where(eq(payments.user_id, userId))
    .orderBy(asc(payments.billed_at));
  type Charge = Omit<(typeof rows)[number], "billed_at" | "license_id"> & { billed_at: string };
  const byLicense = new Map<string, Charge[]>();
  for (const { license_id, billed_at, ...rest } of rows) {
    const list = byLicense.get(license_id) ?? [];
    list.push({ ...rest, billed_at: billed_at.toISOString() });
    byLicense.set(license_id, list);
  }
  return byLicense;
}

const prepared = new WeakMap<Database, ReturnType<typeof prepareUserLicenses>>();

/** Built once per database (and prepared once per PostgreSQL connection): every signed-in /licenses runs it. */
function userLicensesQuery(db: Database) {
  let query = prepared.get(db);
  if (!query) {
    query = prepareUserLicenses(db);
    prepared.set(db, query);
  }
  return query;
}

function prepareUserLicenses(db: Database) {
  return db
    .select(cardColumns)
    .from(licenses)
    .where(eq(licenses.user_id, sql.placeholder("userId")))
    .orderBy(desc(licenses.created_at))
    .prepare("list_user_licenses");
}
