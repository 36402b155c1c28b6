import { and, count, eq, gt, isNotNull } from "drizzle-orm";
import { INVITATION_ERRORS } from "~/domain/team-invitations";
import { refusal, type TeamAction, type TeamRoleName } from "~/domain/team-roles";
import type { SeatFacts } from "~/domain/team-seats";
import { ActionError, isUuid } from "../action-error.server";
import type { Transaction } from "../db/client.server";
import { team_invitations, team_members, teams, users, type Team } from "../db/schema";

/** What a team action runs with: the team (locked), the actor's role, and its seat facts. */
export interface TeamContext {
  team: Team;
  role: TeamRoleName;
  facts: SeatFacts;
}

/** The team's row, locked for the rest of the transaction, or a 404. */
export async function lockTeam(tx: Transaction, teamId: string): Promise<Team> {
  if (!isUuid(teamId)) throw new ActionError(404, "Team not found.");
  const [team] = await tx.select().from(teams).where(eq(teams.id, teamId)).for("update");
  if (!team) throw new ActionError(404, "Team not found.");
  return team;
}

/** A user's role in a team, or null when they are not in it. */
export async function roleIn(tx: Transaction, teamId: string, userId: string): Promise<TeamRoleName | null> {
  const [row] = await tx
    .select({ role: team_members.role })
    .from(team_members)
    .where(and(eq(team_members.team_id, teamId), eq(team_members.user_id, userId)));
  return row?.role ?? null;
}

/** Seats paid, assigned, and promised to open invitations (read under the team's lock). */
export async function seatFacts(tx: Transaction, team: Team, now: Date): Promise<SeatFacts> {
  const [assigned] = await tx
    .select({ n: count() })
    .from(team_members)
    .where(and(eq(team_members.team_id, team.id), isNotNull(team_members.seat_license_id)));
  const [pending] = await tx
    .select({ n: count() })
    .from(team_invitations)
    .where(
      and(
        eq(team_invitations.team_id, team.id),
        eq(team_invitations.status, "pending"),
        gt(team_invitations.expires_at, now),
      ),
    );
  return {
    paid: team.seats_paid,
    assigned: Number(assigned?.n ?? 0),
    pending: Number(pending?.n ?? 0),
    nextRenewal: team.seats_next_renewal,
  };
}

/**
 * Locks the team and checks that the actor may do `action` in it: not a member → 404 (the team is
 * not theirs to know of), a role that may not → 403 with the rule's text.
 */
export async function authorizeTeam(
  tx: Transaction,
  teamId: string,
  actorId: string,
  action: TeamAction,
  now: Date,
): Promise<TeamContext> {
  const team = await lockTeam(tx, teamId);
  const role = await roleIn(tx, team.id, actorId);
  const refused = refusal(role, action);
  if (refused) throw new ActionError(role === null ? 404 : 403, refused);
  return { team, role: role!, facts: await seatFacts(tx, team, now) };
}

/**
 * A team whose owner deleted their account takes nobody new (decision 0049): no invitation is sent,
 * resent or accepted and no seat is claimed through the domain, whoever asks. Read under the team's lock.
 */
export async function refuseNewcomersWhenOwnerGone(tx: Transaction, team: Team): Promise<void> {
  const [owner] = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, team.owner_id));
  if (!owner || owner.deletedAt) throw new ActionError(409, INVITATION_ERRORS.ownerGone);
}
