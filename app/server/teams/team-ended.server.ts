import { and, eq, gt, isNotNull, lte } from "drizzle-orm";
import { JOB_PAYLOADS, type TEAM_END_REASONS } from "../jobs/job-payloads.server";
import { licenseFacts } from "~/domain/license-status";
import { licenseState } from "~/domain/license-state";
import { PAST_DUE_GRACE_DAYS } from "~/domain/past-due";
import { teamEmail } from "~/emails/team-emails.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { licenses, profiles, team_members, teams, users } from "../db/schema";
import { enqueue, type JobDefinition } from "../jobs/jobs.server";
import { getLogger } from "../logger.server";
import { getMailer } from "../mail/mailer.server";
import { mailBrand } from "../mail/recipient.server";

/**
 * "Team ended": when a team's subscription ends — cancelled and at its end, cancelled by
 * the provider after failed payments, its grace period run out, refunded, or revoked by an admin —
 * every member with a seat is told. The e-mails are durable jobs queued in the transaction that
 * ended it (they exist if and only if it commits), once per team and member (job key), so a
 * replayed webhook, the hourly scan and the event that ended it never send two.
 */

export const TEAM_ENDED_MAIL_JOB = "team-ended-mail";

export type TeamEndReason = (typeof TEAM_END_REASONS)[number];

interface TeamEndedMail {
  teamId: string;
  userId: string;
  reason: TeamEndReason;
}

/** Queues the "team ended" e-mail to every member holding a seat, in `tx`. Returns how many were new. */
export async function queueTeamEnded(tx: Transaction, teamId: string, reason: TeamEndReason): Promise<number> {
  const members = await tx
    .select({ userId: team_members.user_id })
    .from(team_members)
    .where(and(eq(team_members.team_id, teamId), isNotNull(team_members.seat_license_id)));
  let queued = 0;
  for (const { userId } of members) {
    const data: TeamEndedMail = { teamId, userId, reason };
    if (await enqueue(TEAM_ENDED_MAIL_JOB, data, { tx, key: `team-ended:${teamId}:${userId}` })) queued++;
  }
  getLogger().info({ team: teamId, reason, members: members.length, queued }, "team subscription ended");
  return queued;
}

/** Composes the e-mail when the job runs (the team's name and the member's address as they are then). */
async function sendTeamEnded({ teamId, userId, reason }: TeamEndedMail) {
  const [row] = await getDb()
    .select({
      teamName: teams.name,
      email: users.email,
      deletedAt: users.deletedAt,
      name: users.name,
      fullName: profiles.full_name,
    })
    .from(teams)
    .innerJoin(users, eq(users.id, userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(teams.id, teamId));
  if (!row) return { skipped: "the team or the member no longer exists" };
  if (row.deletedAt) return { skipped: "the member deleted their account" };
  const mail = await teamEmail(mailBrand(), {
    kind: "team-ended",
    to: row.email,
    name: row.fullName || row.name,
    teamName: row.teamName,
    reason,
  });
  await getMailer().send(mail);
  return { sent: "team-ended", team: teamId };
}

/** Sends one queued "team ended" e-mail; a failing mail server is retried for about a day. */
export const teamEndedMailJob: JobDefinition<TeamEndedMail> = {
  payload: JOB_PAYLOADS["team-ended-mail"],
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
  handle: sendTeamEnded,
};

const DAY = 24 * 60 * 60 * 1000;
/** How far back the scan looks for an end it has not told: a week, beyond the longest grace period. */
const LOOK_BACK_MS = (PAST_DUE_GRACE_DAYS + 7) * DAY;

/**
 * A team's subscription also ends by the clock, with no event: its grace period after a failed
 * payment ran out, or it was not renewed and its period ended. The hourly housekeeping finds the
 * team subscriptions whose state became expired lately and queues their members' e-mails (the
 * keys make a second run, or the provider's later subscription.canceled, send nothing new).
 */
export async function queueEndedTeams(now: Date = new Date()): Promise<number> {
  const candidates = await getDb()
    .select()
    .from(licenses)
    .where(
      and(
        eq(licenses.team_role, "billing"),
        isNotNull(licenses.team_id),
        eq(licenses.status, "active"),
        eq(licenses.refunded, false),
        gt(licenses.end_date, new Date(now.getTime() - LOOK_BACK_MS)),
        lte(licenses.end_date, now),
      ),
    );
  let queued = 0;
  for (const billing of candidates) {
    if (licenseState(licenseFacts(billing), now).code !== "EXPIRED") continue;
    queued += await getDb().transaction((tx) => queueTeamEnded(tx, billing.team_id!, "cancelled"));
  }
  return queued;
}
