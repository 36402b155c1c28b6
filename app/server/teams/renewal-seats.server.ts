import { sql } from "drizzle-orm";
import { licenses, teams } from "../db/schema";

/**
 * The seats a team subscription's next renewal bills (issue 30), as a column of a licenses query:
 * the fewer seats scheduled from the next renewal, else the paid seats; null for any license that
 * is not a team's subscription ("billing"). With `team_role`, it is what the one state function
 * (app/domain/license-state.ts) needs to name the renewal's amount: price × these seats.
 */
export const renewalSeatsColumn = sql<
  number | null
>`(select coalesce(${teams.seats_next_renewal}, ${teams.seats_paid}) from ${teams} where ${teams.id} = ${licenses.team_id} and ${licenses.team_role} = 'billing')`;

/** What a licenses query selects beside a license so its state names the right charge. */
export const seatFactColumns = { team_role: licenses.team_role, renewal_seats: renewalSeatsColumn };
