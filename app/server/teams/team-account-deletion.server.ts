import { and, count, eq, isNotNull, ne } from "drizzle-orm";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { team_invitations, team_members, teams } from "../db/schema";
import { ACCOUNT_DELETED, revokeSeat } from "./seat-license.server";
import { lockTeam } from "./team-access.server";

/**
 * Account deletion and teams (decision 0049). The deletion cancels the owner's team subscription at
 * its period's end like any renewing subscription (app/server/auth/delete-account.server.ts): the
 * members keep the seats that were paid for until then, and are told when it ends (team-ended).
 * Here: what the deletion page says about a team subscription, and, in the deletion's transaction,
 * the person's seats freed, their memberships left, and the teams they own closed to newcomers.
 */

/** The members (other than the owner) who hold a seat in the team: those its end affects. */
export async function otherSeatedMembers(teamId: string, ownerId: string): Promise<number> {
  const [row] = await getDb()
    .select({ members: count() })
    .from(team_members)
    .where(
      and(eq(team_members.team_id, teamId), isNotNull(team_members.seat_license_id), ne(team_members.user_id, ownerId)),
    );
  return row?.members ?? 0;
}

/**
 * In the deletion's transaction: every seat the person holds is revoked ("account deleted") and so
 * freed; they leave every team they do not own. A team they own keeps its owner row (the anonymised
 * account) until it ends, but its open invitations are withdrawn and its domain claim is turned off:
 * nobody new joins a team whose owner and billing contact is gone and whose subscription will not renew.
 */
export async function leaveTeamsOnDeletion(tx: Transaction, userId: string): Promise<void> {
  const memberships = await tx.select().from(team_members).where(eq(team_members.user_id, userId));
  for (const membership of memberships) {
    const team = await lockTeam(tx, membership.team_id);
    if (membership.seat_license_id) await revokeSeat(tx, team.id, membership.seat_license_id, ACCOUNT_DELETED);
    if (membership.role !== "owner") {
      await tx.delete(team_members).where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, userId)));
      continue;
    }
    await tx
      .update(team_invitations)
      .set({ status: "withdrawn", updated_at: new Date() })
      .where(and(eq(team_invitations.team_id, team.id), eq(team_invitations.status, "pending")));
    await tx.update(teams).set({ domain_claim: false, updated_at: new Date() }).where(eq(teams.id, team.id));
  }
}
