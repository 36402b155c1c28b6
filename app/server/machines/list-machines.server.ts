import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { deactivationAllowance, DEACTIVATION_WINDOW_DAYS } from "~/domain/machines";
import type { LicenseLeasesView } from "~/domain/leases";
import type { AdminLicenseMachines, LicenseMachinesView, MachineView } from "~/domain/machine-texts";
import { getDb, preparedPerDatabase } from "../db/db.server";
import { licenses, machine_deactivations, machines, type Lease, type Machine } from "../db/schema";
import { getEnv } from "../env.server";
import { licenseMachineLimit } from "./activate-machine.server";
import { licenseLeaseLimit, userLiveLeases } from "./leases.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export const machineView = (machine: Machine): MachineView => ({
  id: machine.id,
  name: machine.name,
  platform: machine.platform,
  app_version: machine.app_version,
  activated_at: machine.activated_at.toISOString(),
  last_seen_at: machine.last_seen_at.toISOString(),
});

/**
 * A user's active machines, the deactivations that count toward the limit now and the live floating
 * leases (decision 0069): three queries.
 */
export async function userMachineRows(userId: string, now = new Date()) {
  const since = new Date(now.getTime() - DEACTIVATION_WINDOW_DAYS * DAY_MS).toISOString();
  const [active, counted, live] = await Promise.all([
    activeMachinesQuery().execute({ userId }),
    countedDeactivationsQuery().execute({ userId, since }),
    userLiveLeases(userId, now),
  ]);
  return { active, counted, live };
}

const activeMachinesQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.user_id, sql.placeholder("userId")), isNull(machines.deactivated_at)))
    .orderBy(desc(machines.last_seen_at), asc(machines.name))
    .prepare("user_active_machines"),
);

const countedDeactivationsQuery = preparedPerDatabase((db) =>
  db
    .select({ license_id: machine_deactivations.license_id, at: machine_deactivations.created_at })
    .from(machine_deactivations)
    .where(
      and(
        eq(machine_deactivations.user_id, sql.placeholder("userId")),
        eq(machine_deactivations.counts_toward_limit, true),
        gt(machine_deactivations.created_at, sql.placeholder("since")),
      ),
    )
    .prepare("user_counted_deactivations"),
);

/** The machines section of each license, by license id, from `userMachineRows` (one pass over each list). */
export function licenseMachineViews(
  { active, counted, live }: Awaited<ReturnType<typeof userMachineRows>>,
  owned: readonly { id: string; license_type: string; is_trial: boolean }[],
  now = new Date(),
): Map<string, LicenseMachinesView> {
  const perWindow = getEnv().MACHINE_DEACTIVATION_LIMIT;
  const machinesOf = groupBy(active, (m) => m.license_id);
  const deactivationsOf = groupBy(counted, (row) => row.license_id);
  const leasesOf = groupBy(live, (lease) => lease.license_id);
  const views = new Map<string, LicenseMachinesView>();
  for (const license of owned) {
    const allowance = deactivationAllowance(
      (deactivationsOf.get(license.id) ?? []).map((row) => row.at),
      perWindow,
      now,
    );
    views.set(license.id, {
      machines: (machinesOf.get(license.id) ?? []).map(machineView),
      limit: licenseMachineLimit(license),
      deactivationsPerWindow: perWindow,
      deactivationsLeft: allowance.allowed ? allowance.remainingAfter + 1 : 0,
      nextDeactivationAt: allowance.allowed ? null : allowance.nextAt.toISOString(),
      ...floatingView(licenseLeaseLimit(license), leasesOf.get(license.id) ?? []),
    });
  }
  return views;
}

/** A plan with floating use: its limit and the live leases (the card's "N of M floating leases in use"). */
function floatingView(limit: number, live: readonly Lease[]): { floating?: LicenseLeasesView } {
  if (limit === 0) return {};
  return {
    floating: {
      limit,
      leases: live.map((lease) => ({
        id: lease.id,
        name: lease.name,
        taken_at: lease.taken_at.toISOString(),
        expires_at: lease.expires_at.toISOString(),
      })),
    },
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * The machines section of each of a user's licenses, by license id: the active machines (most
 * recently seen first), the license's limit, and the self-service deactivations left now. Two
 * queries for all the user's licenses.
 */
export async function userLicenseMachines(
  userId: string,
  owned: readonly { id: string; license_type: string; is_trial: boolean }[],
  now = new Date(),
): Promise<Map<string, LicenseMachinesView>> {
  return licenseMachineViews(await userMachineRows(userId, now), owned, now);
}

/** Whether the license is the user's (the web's deactivation checks it first). */
export async function ownsLicense(userId: string, licenseId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ id: licenses.id })
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.user_id, userId)));
  return Boolean(row);
}

/** Every license of a user with its machines, for the admin's user page (newest license first). */
export async function adminUserMachines(userId: string, now = new Date()): Promise<AdminLicenseMachines[]> {
  const owned = await getDb()
    .select({
      id: licenses.id,
      short_id: licenses.short_id,
      license_type: licenses.license_type,
      is_trial: licenses.is_trial,
    })
    .from(licenses)
    .where(eq(licenses.user_id, userId))
    .orderBy(desc(licenses.created_at));
  const views = await userLicenseMachines(userId, owned, now);
  return owned.map((license) => ({
    licenseId: license.id,
    shortId: license.short_id,
    licenseType: license.license_type,
    ...views.get(license.id)!,
  }));
}
