import type { LicenseView } from "~/domain/views";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { isRefundLocked } from "~/domain/license-status";
import { getDb, preparedPerDatabase } from "../db/db.server";
import { licenses, payments } from "../db/schema";
import { licenseMachineViews, userMachineRows } from "../machines/list-machines.server";
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
  // A switch to a shorter plan waiting for the renewal (decision 0061): the card says so.
  plan_next_renewal: licenses.plan_next_renewal,
  // The cancel step's offer is made once per license (decision 0065).
  retention_offer_outcome: licenses.retention_offer_outcome,
  // The offer's discount taken: the card's next charge is the discounted one.
  renewal_discount_percent: licenses.renewal_discount_percent,
  // Every plan's price in the subscription's currency (decision 0072): a trial's first charge, a switch's plans.
  quoted_prices: licenses.quoted_prices,
  // A chargeback's revocation has its own state and words on the card (decision 0056).
  charged_back_at: licenses.charged_back_at,
  // What the license keeps after its subscription ends (decision 0070): the card and /billing say it.
  fallback_version: licenses.fallback_version,
  // A member removed from their team is told to ask its owner, not support (decision 0057).
  revoked_reason: licenses.revoked_reason,
  // A team's subscription renews for its seats; a member's seat is charged nothing.
  ...seatFactColumns,
};

/**
 * For the licenses page: the team a license belongs to, by name, and on the licenses of a
 * team whose subscription the user holds, how many members a refund (or revoke) would leave without their seat (the seats not
 * already revoked). Read with the licenses, not per license.
 */
// Written out with table names: drizzle leaves columns unqualified in a one-table select, which a
// subquery on licenses again would read as its own.
const teamColumns = {
  team_name: sql<string | null>`(select t.name from teams t where t.id = "licenses"."team_id")`,
  team_seats_held: sql<number | null>`(case when exists (select 1 from licenses b
      where b.team_id = "licenses"."team_id" and b.team_role = 'billing' and b.user_id = "licenses"."user_id")
    then (select count(*)::int from team_members m join licenses seat on seat.id = m.seat_license_id
      where m.team_id = "licenses"."team_id" and seat.status <> 'revoked') end)`,
};

/**
 * The user's licenses, newest first, with dates as ISO strings for the page: only what a
 * card shows (the subscription id becomes `has_subscription`). A refunded or refund-requested
 * license's key and offline data are hidden (docs/product.md, "Licenses"), not only in the page but in what is
 * sent to it; admins see them (`reveal`).
 */
export async function listUserLicenses(
  userId: string,
  { reveal = false, teams = false }: { reveal?: boolean; teams?: boolean } = {},
): Promise<LicenseView[]> {
  const now = new Date();
  const query = teams ? userLicensesWithTeamsQuery(getDb()) : userLicensesQuery(getDb());
  const [rows, charges, machineRows] = await Promise.all([
    query.execute({ userId }) as Promise<(UserLicenseRow & Partial<TeamFacts>)[]>,
    licenseCharges(userId),
    userMachineRows(userId, now),
  ]);
  const machines = licenseMachineViews(machineRows, rows, now);
  return rows.map(({ paddle_subscription_id, team_name, team_seats_held, ...row }) => ({
    ...row,
    // A team's seat is marked "provided by <team>"; the owner's subscription says how many members a refund would leave without their seat.
    ...(team_name && row.team_role
      ? { team: { name: team_name, role: row.team_role, members: team_seats_held ?? undefined } }
      : {}),
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
    charged_back_at: row.charged_back_at?.toISOString() ?? null,
  }));
}

/** The user's payments by license, oldest first, as the refund ledger reads them (dates as ISO strings). */
async function licenseCharges(userId: string) {
  const rows = await chargesQuery().execute({ userId });
  type Charge = Omit<(typeof rows)[number], "billed_at" | "license_id"> & { billed_at: string };
  const byLicense = new Map<string, Charge[]>();
  for (const { license_id, billed_at, ...rest } of rows) {
    const list = byLicense.get(license_id) ?? [];
    list.push({ ...rest, billed_at: billed_at.toISOString() });
    byLicense.set(license_id, list);
  }
  return byLicense;
}

const chargesQuery = preparedPerDatabase((db) =>
  db
    .select({
      id: payments.id,
      license_id: payments.license_id,
      kind: payments.kind,
      amount_cents: payments.amount_cents,
      currency: payments.currency,
      quantity: payments.quantity,
      discount_id: payments.discount_id,
      billed_at: payments.billed_at,
      refunded_cents: payments.refunded_cents,
      pending_refund_cents: payments.pending_refund_cents,
    })
    .from(payments)
    .where(eq(payments.user_id, sql.placeholder("userId")))
    .orderBy(asc(payments.billed_at))
    .prepare("user_license_charges"),
);

type UserLicenseRow = Awaited<ReturnType<ReturnType<typeof prepareUserLicenses>["execute"]>>[number];
type TeamFacts = { team_name: string | null; team_seats_held: number | null };

const prepared = new WeakMap<Database, ReturnType<typeof prepareUserLicenses>>();
const preparedWithTeams = new WeakMap<Database, ReturnType<typeof prepareUserLicensesWithTeams>>();

function userLicensesWithTeamsQuery(db: Database) {
  let query = preparedWithTeams.get(db);
  if (!query) {
    query = prepareUserLicensesWithTeams(db);
    preparedWithTeams.set(db, query);
  }
  return query;
}

function prepareUserLicensesWithTeams(db: Database) {
  return db
    .select({ ...cardColumns, ...teamColumns })
    .from(licenses)
    .where(eq(licenses.user_id, sql.placeholder("userId")))
    .orderBy(desc(licenses.created_at))
    .prepare("list_user_licenses_teams");
}

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
