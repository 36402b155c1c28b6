import { eq, sql } from "drizzle-orm";
import { licenseFacts } from "~/domain/license-status";
import type { Transaction } from "../db/client.server";
import { licenses, teams, type License } from "../db/schema";

/**
 * The seats a team subscription's next renewal bills, as a column of a licenses query:
 * the fewer seats scheduled from the next renewal, else the paid seats; null for any license that
 * is not a team's subscription ("billing"). With `team_role`, it is what the one state function
 * (app/domain/license-state.ts) needs to name the renewal's amount: price × these seats.
 */
export const renewalSeatsColumn = sql<
  number | null
>`(select coalesce(${teams.seats_next_renewal}, ${teams.seats_paid}) from ${teams} where ${teams.id} = ${licenses.team_id} and ${licenses.team_role} = 'billing')`;

/** What a licenses query selects beside a license so its state names the right charge. */
export const seatFactColumns = { team_role: licenses.team_role, renewal_seats: renewalSeatsColumn };

/**
 * A license row's facts for the one state function, with a team subscription's renewal seats read
 * from its team (one look-up, only for a team's subscription): for code that already holds the row,
 * such as the audit entries that record the state line the customer sees.
 */
export async function stateFactsOf<T extends License>(
  db: Transaction,
  license: T,
): Promise<T & { has_subscription: boolean; renewal_seats: number | null }> {
  let renewal_seats: number | null = null;
  if (license.team_role === "billing" && license.team_id) {
    const [team] = await db
      .select({ paid: teams.seats_paid, next: teams.seats_next_renewal })
      .from(teams)
      .where(eq(teams.id, license.team_id));
    renewal_seats = team ? (team.next ?? team.paid) : null;
  }
  return { ...licenseFacts(license), renewal_seats };
}
