import { gte, isNull, sql } from "drizzle-orm";
import { utcDay, windowStart } from "~/domain/admin-overview";
import { MACHINE_OVERVIEW_DAYS, type MachinesOverviewView } from "~/domain/machine-texts";
import { getDb } from "../db/db.server";
import { machines } from "../db/schema";

const DAY = 86_400_000;
const activationDay = sql`((${machines.activated_at} at time zone 'UTC')::date)`;

/** The admin overview's machines (decision 0041): the active machines, and activations per day for 30 days. */
export async function machinesOverview(now = new Date()): Promise<MachinesOverviewView> {
  const db = getDb();
  const since = windowStart(now, MACHINE_OVERVIEW_DAYS);
  const [[active], perDay] = await Promise.all([
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(machines)
      .where(isNull(machines.deactivated_at)),
    db
      .select({ day: sql<string>`to_char(${activationDay}, 'YYYY-MM-DD')`, count: sql<number>`count(*)::int` })
      .from(machines)
      .where(gte(machines.activated_at, since))
      .groupBy(activationDay),
  ]);
  const counts = new Map(perDay.map((row) => [row.day, Number(row.count)]));
  const activationsPerDay = Array.from({ length: MACHINE_OVERVIEW_DAYS }, (_, i) => {
    const day = utcDay(new Date(since.getTime() + i * DAY));
    return { day, count: counts.get(day) ?? 0 };
  });
  return { active: Number(active?.count ?? 0), activationsPerDay };
}
