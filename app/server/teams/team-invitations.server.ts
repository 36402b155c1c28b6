import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import {
  INVITATION_ERRORS,
  invitationExpiry,
  invitationPath,
  parseAddresses,
  RESEND_LIMITS,
  resendLimited,
} from "~/domain/team-invitations";
import { checkInvite } from "~/domain/team-seats";
import { ActionError, isUuid } from "../action-error.server";
import { hitRateLimit } from "../auth/rate-limit.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { team_invitations, team_members, users } from "../db/schema";
import { getEnv } from "../env.server";
import { authorizeTeam, refuseNewcomersWhenOwnerGone } from "./team-access.server";
import { auditTeamChange } from "./team-audit.server";
import { sendTeamMail } from "./team-mail.server";

export const hashInvitationToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

async function actorOf(userId: string) {
  const [row] = await getDb().select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  return { name: row?.name || row?.email || "A colleague" };
}

function mailInvitation(to: string, token: string, teamName: string, inviterName: string, expiresAt: Date) {
  const acceptUrl = `${getEnv().PUBLIC_URL}${invitationPath(token)}`;
  sendTeamMail({ kind: "invitation", to, teamName, inviterName, acceptUrl, expiresAt });
}

/**
 * Invites several addresses at once (owner or manager): each a valid address, none already seated in
 * the team or already invited, and no more than the seats free and not promised to an open
 * invitation. All or nothing; each invited address gets an e-mail with a link valid 7 days.
 */
export async function inviteMembers(input: {
  teamId: string;
  actorId: string;
  emails: string | readonly string[];
  now?: Date;
}): Promise<{ invited: { id: string; email: string; expiresAt: Date }[] }> {
  const now = input.now ?? new Date();
  const parsed = parseAddresses(input.emails);
  if (!parsed.ok) throw new ActionError(422, parsed.error);
  const actor = await actorOf(input.actorId);
  const tokens = new Map(parsed.emails.map((email) => [email, newToken()]));
  const { team, rows } = await getDb().transaction(async (tx) => {
    const { team, facts } = await authorizeTeam(tx, input.teamId, input.actorId, "invite", now);
    await refuseNewcomersWhenOwnerGone(tx, team);
    const seated = await tx
      .select({ email: users.email })
      .from(team_members)
      .innerJoin(users, eq(users.id, team_members.user_id))
      .where(
        and(
          eq(team_members.team_id, team.id),
          isNotNull(team_members.seat_license_id),
          inArray(sql`lower(${users.email})`, parsed.emails),
        ),
      );
    if (seated[0]) throw new ActionError(409, INVITATION_ERRORS.hasSeat(seated[0].email.toLowerCase()));
    // An expired invitation of the same address is replaced by the new one.
    await tx
      .update(team_invitations)
      .set({ status: "withdrawn", updated_at: now })
      .where(
        and(
          eq(team_invitations.team_id, team.id),
          eq(team_invitations.status, "pending"),
          inArray(team_invitations.email, parsed.emails),
          sql`${team_invitations.expires_at} <= ${now}`,
        ),
      );
    const open = await tx
      .select({ email: team_invitations.email })
      .from(team_invitations)
      .where(
        and(
          eq(team_invitations.team_id, team.id),
          eq(team_invitations.status, "pending"),
          inArray(team_invitations.email, parsed.emails),
        ),
      );
    if (open[0]) throw new ActionError(409, INVITATION_ERRORS.alreadyInvited(open[0].email));
    const decision = checkInvite(facts, parsed.emails.length);
    if (!decision.ok) throw new ActionError(409, decision.error);
    const expires_at = invitationExpiry(now);
    const rows = await tx
      .insert(team_invitations)
      .values(
        parsed.emails.map((email) => ({
          team_id: team.id,
          email,
          token_hash: hashInvitationToken(tokens.get(email)!),
          invited_by: input.actorId,
          expires_at,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning();
    await auditTeamChange(tx, input.actorId, team, "team.invite", { emails: parsed.emails });
    return { team, rows };
  });
  for (const row of rows) mailInvitation(row.email, tokens.get(row.email)!, team.name, actor.name, row.expires_at);
  return { invited: rows.map((row) => ({ id: row.id, email: row.email, expiresAt: row.expires_at })) };
}

/** Loads an invitation of the team for resend or withdraw (a 404 when it is not the team's). */
async function invitationOf(tx: Transaction, teamId: string, invitationId: string) {
  if (!isUuid(invitationId)) throw new ActionError(404, "Invitation not found.");
  const [row] = await tx
    .select()
    .from(team_invitations)
    .where(and(eq(team_invitations.id, invitationId), eq(team_invitations.team_id, teamId)))
    .for("update");
  if (!row) throw new ActionError(404, "Invitation not found.");
  return row;
}

/**
 * Counts a resend against RESEND_LIMITS (the project's database-backed rate limiter, as for
 * sign-in): by the person for this invitation and for all, so nobody else's clicks use them up.
 */
async function limitResends(actorId: string, invitationId: string): Promise<void> {
  const windowSeconds = RESEND_LIMITS.windowMinutes * 60;
  const results = [
    await hitRateLimit([`team-resend:${actorId}:${isUuid(invitationId) ? invitationId : "not-an-id"}`], {
      attempts: RESEND_LIMITS.perInvitation,
      windowSeconds,
    }),
    await hitRateLimit([`team-resend:${actorId}`], { attempts: RESEND_LIMITS.perPerson, windowSeconds }),
  ];
  const limited = results.filter((result) => result.limited);
  if (limited.length === 0) return;
  const retryAfter = Math.max(...limited.map((result) => result.retryAfter));
  throw new ActionError(429, resendLimited(Math.ceil(retryAfter / 60)));
}

/**
 * Sends an open (or expired) invitation again with a new link valid 7 days from now; the old link
 * stops working. An expired one needs a seat not promised to another open invitation.
 */
export async function resendInvitation(input: {
  teamId: string;
  actorId: string;
  invitationId: string;
  now?: Date;
}): Promise<{ id: string; email: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  await limitResends(input.actorId, input.invitationId);
  const token = newToken();
  const actor = await actorOf(input.actorId);
  const { team, row } = await getDb().transaction(async (tx) => {
    const { team, facts } = await authorizeTeam(tx, input.teamId, input.actorId, "invite", now);
    const invitation = await invitationOf(tx, team.id, input.invitationId);
    if (invitation.status !== "pending") throw new ActionError(409, INVITATION_ERRORS[invitation.status]);
    await refuseNewcomersWhenOwnerGone(tx, team);
    if (invitation.expires_at <= now) {
      const decision = checkInvite(facts, 1);
      if (!decision.ok) throw new ActionError(409, decision.error);
    }
    const [row] = await tx
      .update(team_invitations)
      .set({ token_hash: hashInvitationToken(token), expires_at: invitationExpiry(now), updated_at: now })
      .where(eq(team_invitations.id, invitation.id))
      .returning();
    await auditTeamChange(tx, input.actorId, team, "team.invitation_resend", { email: invitation.email });
    return { team, row: row! };
  });
  mailInvitation(row.email, token, team.name, actor.name, row.expires_at);
  return { id: row.id, email: row.email, expiresAt: row.expires_at };
}

/** Withdraws an open invitation: its link stops working and its seat is free to invite to again. */
export async function withdrawInvitation(input: {
  teamId: string;
  actorId: string;
  invitationId: string;
  now?: Date;
}): Promise<void> {
  const now = input.now ?? new Date();
  await getDb().transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, input.teamId, input.actorId, "withdraw-invitation", now);
    const invitation = await invitationOf(tx, team.id, input.invitationId);
    if (invitation.status !== "pending") throw new ActionError(409, INVITATION_ERRORS.notPending);
    await tx
      .update(team_invitations)
      .set({ status: "withdrawn", updated_at: now })
      .where(eq(team_invitations.id, invitation.id));
    await auditTeamChange(tx, input.actorId, team, "team.invitation_withdraw", { email: invitation.email });
  });
}
