import { teamPlanChangeRefusal, teamPlanOptions } from "~/domain/team-plan-change";
import type { TeamView } from "~/domain/team-page";
import { subscriptionChangesRefused } from "~/domain/past-due";
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { licenseState } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { invitationState, type InvitationState } from "~/domain/team-invitations";
import { freeSeats, invitableSeats, type SeatFacts } from "~/domain/team-seats";
import type { TeamRoleName } from "~/domain/team-roles";
import { getDb } from "../db/db.server";
import { licenses, payments, team_invitations, team_members, teams, users, type Team } from "../db/schema";
import { authorizeTeam } from "./team-access.server";

/** The teams a user belongs to, with their role and whether they hold a seat (the /team list, admin user page). */
export async function teamsOfUser(userId: string) {
  return getDb()
    .select({
      id: teams.id,
      name: teams.name,
      role: team_members.role,
      seatLicenseId: team_members.seat_license_id,
      seatsPaid: teams.seats_paid,
      planType: teams.plan_type,
    })
    .from(team_members)
    .innerJoin(teams, eq(teams.id, team_members.team_id))
    .where(eq(team_members.user_id, userId))
    .orderBy(asc(teams.name));
}

export interface TeamPageView {
  id: string;
  name: string;
  planType: string;
  viewerRole: TeamRoleName;
  seats: SeatFacts & { free: number; invitable: number };
  domainClaim: boolean;
  domain: string | null;
  /** The subscription's state by the licenses page's one state function. */
  subscription: TeamView["subscription"];
  members: {
    userId: string;
    name: string;
    email: string;
    role: TeamRoleName;
    seatLicenseId: string | null;
    seatShortId: string | null;
    since: string;
  }[];
  invitations: { id: string; email: string; state: InvitationState; expiresAt: string; createdAt: string }[];
}

async function membersOf(teamId: string) {
  const rows = await getDb()
    .select({
      userId: team_members.user_id,
      name: users.name,
      email: users.email,
      role: team_members.role,
      seatLicenseId: team_members.seat_license_id,
      seatShortId: licenses.short_id,
      since: team_members.created_at,
    })
    .from(team_members)
    .innerJoin(users, eq(users.id, team_members.user_id))
    .leftJoin(licenses, eq(licenses.id, team_members.seat_license_id))
    .where(eq(team_members.team_id, teamId))
    .orderBy(asc(team_members.created_at));
  return rows.map((row) => ({ ...row, since: row.since.toISOString() }));
}

async function invitationsOf(teamId: string, now: Date, all: boolean) {
  const rows = await getDb()
    .select()
    .from(team_invitations)
    .where(and(eq(team_invitations.team_id, teamId), all ? undefined : eq(team_invitations.status, "pending")))
    .orderBy(desc(team_invitations.created_at))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    state: invitationState(row, now),
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  }));
}

async function subscriptionOf(team: Team, now: Date): Promise<TeamPageView["subscription"]> {
  const [billing] = await getDb()
    .select()
    .from(licenses)
    .where(and(eq(licenses.team_id, team.id), eq(licenses.team_role, "billing")));
  if (!billing) return null;
  const renewal_seats = team.seats_next_renewal ?? team.seats_paid;
  const state = licenseState({ ...licenseFacts(billing), renewal_seats }, now);
  return {
    licenseId: billing.id,
    state: state.state,
    label: state.badge.label,
    endDate: billing.end_date.toISOString(),
    active: state.code === "VALID",
    overdue: subscriptionChangesRefused(billing)
      ? { graceEnd: state.state === "payment-failed" && state.date ? state.date.toISOString() : null }
      : null,
    plan: {
      options: teamPlanOptions("owner", licenseFacts(billing), now, team.seats_next_renewal),
      refusal: teamPlanChangeRefusal("owner", licenseFacts(billing), now, team.seats_next_renewal),
      nextRenewal: billing.plan_next_renewal,
    },
  };
}

/**
 * The /team page of a team for its owner or a manager (a member: 403, anyone else: 404): seats used
 * and total, members with their seat license's short id, open invitations, the subscription's state.
 */
export async function teamPage(teamId: string, viewerId: string, now = new Date()): Promise<TeamPageView> {
  const { team, role, facts } = await getDb().transaction((tx) =>
    authorizeTeam(tx, teamId, viewerId, "view-team", now),
  );
  return {
    id: team.id,
    name: team.name,
    planType: team.plan_type,
    viewerRole: role,
    seats: { ...facts, free: freeSeats(facts), invitable: invitableSeats(facts) },
    domainClaim: team.domain_claim,
    domain: team.domain_claim ? team.domain : null,
    subscription: await subscriptionOf(team, now),
    members: await membersOf(team.id),
    invitations: await invitationsOf(team.id, now, false),
  };
}

/**
 * How many members a refund (or revoke) of the team's subscription would leave without their seat:
 * the seats not already revoked. The owner is told this before confirming a refund.
 */
export async function affectedMembers(teamId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(team_members)
    .innerJoin(licenses, eq(licenses.id, team_members.seat_license_id))
    .where(
      and(eq(team_members.team_id, teamId), isNotNull(team_members.seat_license_id), ne(licenses.status, "revoked")),
    );
  return Number(row?.n ?? 0);
}

/**
 * For the licenses page: which of these licenses belong to a team, with its name and the license's
 * role there ("seat": "provided by <team>", no billing actions; "billing": the owner's subscription).
 */
export async function teamOfLicenses(
  licenseIds: readonly string[],
): Promise<Map<string, { teamId: string; teamName: string; role: "billing" | "seat" }>> {
  if (licenseIds.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: licenses.id, teamId: teams.id, teamName: teams.name, role: licenses.team_role })
    .from(licenses)
    .innerJoin(teams, eq(teams.id, licenses.team_id))
    .where(inArray(licenses.id, [...licenseIds]));
  return new Map(rows.map((row) => [row.id, { teamId: row.teamId, teamName: row.teamName, role: row.role! }]));
}

/** Admin search: teams whose name contains the text (case-insensitive), with owner and seats. */
export async function searchTeams(text: string, limit = 20) {
  const q = text.trim().slice(0, 100);
  if (!q) return [];
  return getDb()
    .select({
      id: teams.id,
      name: teams.name,
      ownerEmail: users.email,
      seatsPaid: teams.seats_paid,
      createdAt: teams.created_at,
    })
    .from(teams)
    .innerJoin(users, eq(users.id, teams.owner_id))
    .where(ilike(teams.name, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`))
    .orderBy(asc(teams.name))
    .limit(limit);
}

/** The admin's team page (the caller checked the admin): seats, members, all invitations, payments. */
export async function adminTeamView(teamId: string, now = new Date()) {
  const [team] = await getDb().select().from(teams).where(eq(teams.id, teamId));
  if (!team) return null;
  const [owner] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, team.owner_id));
  const subscription = await subscriptionOf(team, now);
  const teamPayments = subscription
    ? await getDb()
        .select()
        .from(payments)
        .where(eq(payments.license_id, subscription.licenseId))
        .orderBy(desc(payments.billed_at))
    : [];
  const members = await membersOf(team.id);
  const [pending] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(team_invitations)
    .where(
      and(
        eq(team_invitations.team_id, team.id),
        eq(team_invitations.status, "pending"),
        gt(team_invitations.expires_at, now),
      ),
    );
  const facts: SeatFacts = {
    paid: team.seats_paid,
    assigned: members.filter((m) => m.seatLicenseId).length,
    pending: Number(pending?.n ?? 0),
    nextRenewal: team.seats_next_renewal,
  };
  return {
    team,
    ownerEmail: owner?.email ?? null,
    seats: { ...facts, free: freeSeats(facts) },
    subscription,
    members,
    invitations: await invitationsOf(team.id, now, true),
    payments: teamPayments,
  };
}
