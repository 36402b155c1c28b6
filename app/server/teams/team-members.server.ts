import { and, eq } from "drizzle-orm";
import { emailDomain } from "~/domain/team-invitations";
import { removalRefusal, ROLE_ERRORS } from "~/domain/team-roles";
import { ActionError, isUuid } from "../action-error.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { team_members, teams, users } from "../db/schema";
import { revokeSeat } from "./seat-license.server";
import { authorizeTeam, lockTeam, roleIn } from "./team-access.server";
import { auditTeamChange } from "./team-audit.server";
import { sendTeamMail } from "./team-mail.server";

/** The user's address, read through `db` (the transaction, inside one: PGlite has one connection). */
async function emailOf(userId: string, db: Pick<Transaction, "select"> = getDb()): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? "";
}

/**
 * Removes a member (owner or manager; a manager only plain members; anyone may leave): the seat is
 * freed and its license revoked with the reason "removed from team". The owner is never removed; the
 * owner "removing" themselves gives up their own seat. The removed member gets an e-mail.
 */
export async function removeMember(input: {
  teamId: string;
  actorId: string;
  userId: string;
  now?: Date;
}): Promise<{ seatFreed: boolean }> {
  if (!isUuid(input.userId)) throw new ActionError(404, "No such member in this team.");
  const result = await getDb().transaction(async (tx) => {
    const team = await lockTeam(tx, input.teamId);
    const actorRole = await roleIn(tx, team.id, input.actorId);
    if (!actorRole) throw new ActionError(404, ROLE_ERRORS.notMember);
    const [target] = await tx
      .select()
      .from(team_members)
      .where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, input.userId)));
    if (!target) throw new ActionError(404, "No such member in this team.");
    const refused = removalRefusal(actorRole, target.role, input.actorId === input.userId);
    if (refused) throw new ActionError(403, refused);
    if (target.seat_license_id) await revokeSeat(tx, team.id, target.seat_license_id);
    if (target.role !== "owner") {
      await tx
        .delete(team_members)
        .where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, target.user_id)));
    }
    await auditTeamChange(tx, input.actorId, team, "team.remove_member", {
      user_id: target.user_id,
      email: await emailOf(target.user_id, tx),
      license_id: target.seat_license_id,
    });
    return { team, seatFreed: Boolean(target.seat_license_id) };
  });
  const to = await emailOf(input.userId);
  if (to && input.actorId !== input.userId) sendTeamMail({ kind: "removed-from-team", to, teamName: result.team.name });
  return { seatFreed: result.seatFreed };
}

/** The owner makes a member a manager or a manager a member again (never changes the owner). */
export async function setMemberRole(input: {
  teamId: string;
  actorId: string;
  userId: string;
  role: "manager" | "member";
  now?: Date;
}): Promise<void> {
  if (input.role !== "manager" && input.role !== "member") throw new ActionError(422, "Choose manager or member.");
  if (!isUuid(input.userId)) throw new ActionError(404, "No such member in this team.");
  await getDb().transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, input.teamId, input.actorId, "set-role", input.now ?? new Date());
    const target = await roleIn(tx, team.id, input.userId);
    if (!target) throw new ActionError(404, "No such member in this team.");
    if (target === "owner") throw new ActionError(409, "The owner's role cannot be changed.");
    if (target === input.role) return;
    await tx
      .update(team_members)
      .set({ role: input.role })
      .where(and(eq(team_members.team_id, team.id), eq(team_members.user_id, input.userId)));
    await auditTeamChange(tx, input.actorId, team, "team.role", {
      user_id: input.userId,
      email: await emailOf(input.userId, tx),
      role: input.role,
    });
  });
}

/** The owner renames the team (1–100 characters after trimming). */
export async function renameTeam(input: {
  teamId: string;
  actorId: string;
  name: string;
  now?: Date;
}): Promise<string> {
  const name = (input.name ?? "").trim().replace(/\s+/g, " ");
  if (name.length < 1 || name.length > 100) throw new ActionError(422, "A team's name has 1 to 100 characters.");
  await getDb().transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, input.teamId, input.actorId, "rename", input.now ?? new Date());
    if (team.name === name) return;
    await tx.update(teams).set({ name, updated_at: new Date() }).where(eq(teams.id, team.id));
    await auditTeamChange(tx, input.actorId, { id: team.id, name }, "team.rename", { from: team.name });
  });
  return name;
}

/**
 * The owner turns the domain claim on or off: on, anyone with a confirmed address at the owner's
 * (confirmed) address's domain may claim a free seat without an invitation.
 */
export async function setDomainClaim(input: {
  teamId: string;
  actorId: string;
  enabled: boolean;
  now?: Date;
}): Promise<{ domain: string | null }> {
  return getDb().transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, input.teamId, input.actorId, "domain-claim", input.now ?? new Date());
    const [owner] = await tx
      .select({ email: users.email, verified: users.emailVerified })
      .from(users)
      .where(eq(users.id, team.owner_id));
    if (input.enabled && !owner?.verified)
      throw new ActionError(409, "Confirm your e-mail address before offering seats to its domain.");
    const domain = input.enabled && owner ? emailDomain(owner.email) : team.domain;
    await tx
      .update(teams)
      .set({ domain_claim: input.enabled, domain, updated_at: new Date() })
      .where(eq(teams.id, team.id));
    if (team.domain_claim !== input.enabled)
      await auditTeamChange(tx, input.actorId, team, input.enabled ? "team.domain_claim_on" : "team.domain_claim_off", {
        domain,
      });
    return { domain: input.enabled ? domain : null };
  });
}
