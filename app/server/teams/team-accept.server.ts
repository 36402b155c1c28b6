import { and, eq, sql } from "drizzle-orm";
import { emailDomain, INVITATION_ERRORS, invitationState, type InvitationState } from "~/domain/team-invitations";
import { CLAIM_ERRORS, type ClaimableTeamView } from "~/domain/team-claim-texts";
import { checkTakeSeat } from "~/domain/team-seats";
import { ActionError } from "../action-error.server";
import type { Transaction } from "../db/client.server";
import { getDb, preparedPerDatabase } from "../db/db.server";
import { team_invitations, team_members, teams, users, type Team } from "../db/schema";
import { issueSeatLicense } from "./seat-license.server";
import { authorizeTeam, lockTeam, refuseNewcomersWhenOwnerGone, seatFacts } from "./team-access.server";
import { auditTeamChange } from "./team-audit.server";
import { hashInvitationToken } from "./team-invitations.server";
import { sendTeamMail } from "./team-mail.server";

/** What the accept page shows for a link: the team, the invited address and the invitation's state. */
export async function invitationByToken(
  token: string,
  now = new Date(),
): Promise<{ state: InvitationState; teamId: string; teamName: string; email: string; expiresAt: Date } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await getDb()
    .select({ invitation: team_invitations, teamName: teams.name })
    .from(team_invitations)
    .innerJoin(teams, eq(teams.id, team_invitations.team_id))
    .where(eq(team_invitations.token_hash, hashInvitationToken(token)));
  if (!row) return null;
  const { invitation } = row;
  return {
    state: invitationState(invitation, now),
    teamId: invitation.team_id,
    teamName: row.teamName,
    email: invitation.email,
    expiresAt: invitation.expires_at,
  };
}

/** The signed-in user as acceptance reads them: the address and whether it is confirmed. */
async function userOf(tx: Transaction, userId: string) {
  const [user] = await tx
    .select({ id: users.id, email: users.email, verified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new ActionError(404, "Account not found.");
  return user;
}

/**
 * Gives a user a seat in a locked team: a member row (role member unless they already have one) and
 * a seat license, when a seat is free. The team's lock makes two takers of the last seat wait for
 * each other; the second sees no free seat.
 */
async function seatUser(tx: Transaction, team: Team, user: { id: string; email: string }, now: Date) {
  const [member] = await tx
    .select()
    .from(team_members)
    .where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, user.id)));
  if (member?.seat_license_id) throw new ActionError(409, INVITATION_ERRORS.alreadySeated);
  const decision = checkTakeSeat(await seatFacts(tx, team, now));
  if (!decision.ok) throw new ActionError(409, decision.error);
  if (!member)
    await tx.insert(team_members).values({ team_id: team.id, user_id: user.id, role: "member", created_at: now });
  return issueSeatLicense(tx, team, { userId: user.id, email: user.email }, now);
}

/**
 * Accepts an invitation for the signed-in user: the link open (not expired, withdrawn or used), the
 * user's address the invited one and confirmed, a seat free. The seat license is the member's from
 * now on (and on /licenses); the member gets the "seat assigned" e-mail.
 */
export async function acceptInvitation(input: {
  token: string;
  userId: string;
  now?: Date;
}): Promise<{ teamId: string; teamName: string; licenseId: string; shortId: string }> {
  const now = input.now ?? new Date();
  if (!input.token || input.token.length > 200) throw new ActionError(404, INVITATION_ERRORS.unknown);
  const result = await getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ id: team_invitations.id, team_id: team_invitations.team_id })
      .from(team_invitations)
      .where(eq(team_invitations.token_hash, hashInvitationToken(input.token)));
    if (!found) throw new ActionError(404, INVITATION_ERRORS.unknown);
    // The team first, then the invitation: the order every team action locks in.
    const team = await lockTeam(tx, found.team_id);
    const [invitation] = await tx
      .select()
      .from(team_invitations)
      .where(eq(team_invitations.id, found.id))
      .for("update");
    const state = invitationState(invitation!, now);
    if (state !== "open") throw new ActionError(409, INVITATION_ERRORS[state]);
    const user = await userOf(tx, input.userId);
    if (user.email.toLowerCase() !== invitation!.email)
      throw new ActionError(403, INVITATION_ERRORS.wrongAddress(invitation!.email));
    if (!user.verified) throw new ActionError(403, INVITATION_ERRORS.unconfirmed);
    await refuseNewcomersWhenOwnerGone(tx, team);
    const seat = await seatUser(tx, team, user, now);
    await tx
      .update(team_invitations)
      .set({ status: "accepted", accepted_by: user.id, updated_at: now })
      .where(eq(team_invitations.id, invitation!.id));
    await auditTeamChange(tx, user.id, team, "team.invitation_accept", {
      license_id: seat.id,
      short_id: seat.short_id,
    });
    return { team, seat, email: user.email };
  });
  sendTeamMail({
    kind: "seat-assigned",
    to: result.email,
    teamName: result.team.name,
    licenseShortId: result.seat.short_id,
  });
  return {
    teamId: result.team.id,
    teamName: result.team.name,
    licenseId: result.seat.id,
    shortId: result.seat.short_id,
  };
}

/** Teams whose domain claim is on for the user's confirmed address and where they have no seat yet. */
export async function claimableTeams(
  user: string | { id: string; email: string; emailVerified: boolean },
): Promise<ClaimableTeamView[]> {
  // The signed-in user's address and whether it is confirmed come with the session (no second look-up).
  const { id: userId, email, emailVerified } = typeof user === "string" ? await addressOf(user) : user;
  if (!emailVerified) return [];
  const domain = emailDomain(email);
  const rows = await claimableTeamsQuery().execute({ userId, domain });
  return rows.filter((row) => !row.seat).map(({ id, name }) => ({ id, name, domain }));
}

const claimableTeamsQuery = preparedPerDatabase((db) =>
  db
    .select({ id: teams.id, name: teams.name, seat: team_members.seat_license_id })
    .from(teams)
    .leftJoin(
      team_members,
      and(eq(team_members.team_id, teams.id), eq(team_members.user_id, sql.placeholder("userId"))),
    )
    .where(and(eq(teams.domain_claim, true), eq(teams.domain, sql.placeholder("domain"))))
    .orderBy(teams.name)
    .prepare("claimable_teams"),
);

async function addressOf(userId: string) {
  const [row] = await getDb()
    .select({ email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  return { id: userId, email: row?.email ?? "", emailVerified: row?.emailVerified ?? false };
}

/**
 * Claims a free seat without an invitation: the team's domain claim is on and the user's confirmed
 * address is at its domain.
 */
export async function claimDomainSeat(input: {
  teamId: string;
  userId: string;
  now?: Date;
}): Promise<{ licenseId: string; shortId: string; teamName: string }> {
  const now = input.now ?? new Date();
  const result = await getDb().transaction(async (tx) => {
    const team = await lockTeam(tx, input.teamId);
    const user = await userOf(tx, input.userId);
    if (!team.domain_claim || !team.domain || emailDomain(user.email) !== team.domain)
      throw new ActionError(403, CLAIM_ERRORS.notOffered);
    if (!user.verified) throw new ActionError(403, CLAIM_ERRORS.unconfirmed);
    await refuseNewcomersWhenOwnerGone(tx, team);
    const seat = await seatUser(tx, team, user, now);
    await auditTeamChange(tx, user.id, team, "team.seat_claim", { license_id: seat.id, short_id: seat.short_id });
    return { team, email: user.email, seat };
  });
  sendTeamMail({
    kind: "seat-assigned",
    to: result.email,
    teamName: result.team.name,
    licenseShortId: result.seat.short_id,
  });
  return { licenseId: result.seat.id, shortId: result.seat.short_id, teamName: result.team.name };
}

/** The owner (or a manager) takes one of the team's free seats for themselves. */
export async function takeSeat(input: {
  teamId: string;
  actorId: string;
  now?: Date;
}): Promise<{ licenseId: string; shortId: string }> {
  const now = input.now ?? new Date();
  return getDb().transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, input.teamId, input.actorId, "take-seat", now);
    const user = await userOf(tx, input.actorId);
    const seat = await seatUser(tx, team, user, now);
    await auditTeamChange(tx, user.id, team, "team.take_seat", { license_id: seat.id, short_id: seat.short_id });
    return { licenseId: seat.id, shortId: seat.short_id };
  });
}
