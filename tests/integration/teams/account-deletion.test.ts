import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teamMembersKeepSeats } from "~/domain/account-texts";
import { licenseState } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { deleteAccount, subscriptionsToCancel } from "~/server/auth/delete-account.server";
import { licenses, team_invitations, team_members } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { flushMail } from "~/server/mail/outbox.server";
import { INVITATION_ERRORS } from "~/domain/team-invitations";
import { acceptInvitation, claimDomainSeat, takeSeat } from "~/server/teams/team-accept.server";
import { ACCOUNT_DELETED } from "~/server/teams/seat-license.server";
import { inviteMembers, resendInvitation } from "~/server/teams/team-invitations.server";
import { setDomainClaim, setMemberRole } from "~/server/teams/team-members.server";
import { teamPage } from "~/server/teams/team-views.server";
import { buyTeam, invitationToken, refusal, teamApp } from "../../support/team";
import { teams } from "~/server/db/schema";
import { testEngines } from "../../support/test-app";

const HOUR = 3_600_000;

/**
 * Decision 0049: deleting the account of a team's owner cancels the team's subscription
 * at its period's end, as it cancels a personal one (listed first, by the team's name and the
 * members it affects); the members keep their seats until then and are told when it ends. A
 * member (or the owner) deleting their account frees their seat.
 */
describe.each(testEngines())("deleting an account in a team on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  const license = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;

  async function team() {
    const owner = await newUser("owner");
    const members = [await newUser("ann"), await newUser("bob")];
    const bought = await buyTeam(db(), demo(), owner, 4);
    const own = await takeSeat({ teamId: bought.team.id, actorId: owner.id });
    await inviteMembers({ teamId: bought.team.id, actorId: owner.id, emails: members.map((m) => m.email) });
    const seats = [];
    for (const m of members)
      seats.push(await acceptInvitation({ token: await invitationToken(app().mails, m.email), userId: m.id }));
    return { owner, members, seats, own, ...bought };
  }

  it("the owner: the team's subscription is listed, cancelled at its end; members keep seats until then", async () => {
    const { owner, members, seats, own, team: t, billing, subscriptionId } = await team();
    const late = await newUser("late");
    await inviteMembers({ teamId: t.id, actorId: owner.id, emails: late.email });
    expect(await subscriptionsToCancel(owner.id)).toEqual([
      {
        planName: "Monthly team subscription for Acme",
        shortId: billing.short_id,
        renewsOn: billing.end_date.toISOString(),
        teamMembers: 2,
      },
    ]);
    expect(teamMembersKeepSeats(2, billing.end_date)).toMatch(
      /^its 2 members keep their seats until .+, then the team ends$/,
    );
    expect(teamMembersKeepSeats(0, billing.end_date)).toMatch(/^no other member holds a seat; the team ends on /);
    await deleteAccount(owner.id);
    await flushMail();
    const confirmation = app().mails.findLast((m) => m.to === owner.email)!;
    expect(confirmation.text).toContain(`Monthly team subscription for Acme (${billing.short_id})`);

    expect(await license(billing.id)).toMatchObject({ auto_renew: false, cancellation_requested: true });
    const ownSeat = await license(own.licenseId);
    expect(ownSeat).toMatchObject({ status: "revoked", revoked_reason: ACCOUNT_DELETED });
    for (const seat of seats) {
      const row = await license(seat.licenseId);
      expect(licenseState(licenseFacts(row), new Date())).toMatchObject({ state: "renewal-cancelled", code: "VALID" });
    }
    const open = await db()
      .select()
      .from(team_invitations)
      .where(and(eq(team_invitations.team_id, t.id), eq(team_invitations.status, "pending")));
    expect(open).toEqual([]);

    app().mails.length = 0;
    await demo().renew(subscriptionId, new Date(billing.end_date.getTime() + HOUR));
    await drainJobs({ skipDelays: true });
    await flushMail();
    const ended = app()
      .mails.filter((m) => /team's subscription ended/.test(m.subject))
      .map((m) => m.to);
    expect(ended.sort()).toEqual(members.map((m) => m.email).sort());
  });

  it("a member: their seat is freed (revoked, membership gone) and the team can hand it out again", async () => {
    const { owner, members, seats, team: t } = await team();
    const before = (await teamPage(t.id, owner.id)).seats;
    expect(await subscriptionsToCancel(members[0]!.id)).toEqual([]);
    await deleteAccount(members[0]!.id);
    expect(await license(seats[0]!.licenseId)).toMatchObject({ status: "revoked", revoked_reason: ACCOUNT_DELETED });
    const membership = await db()
      .select()
      .from(team_members)
      .where(and(eq(team_members.team_id, t.id), eq(team_members.user_id, members[0]!.id)));
    expect(membership).toEqual([]);
    const after = (await teamPage(t.id, owner.id)).seats;
    expect(after.assigned).toBe(before.assigned - 1);
    expect(after.free).toBe(before.free + 1);
    expect((await license(seats[1]!.licenseId)).status).toBe("active");
  });

  it("after the owner's deletion the team takes nobody new: a manager's invitation, a resend, an acceptance, a domain claim", async () => {
    const { owner, members, team: t } = await team();
    await setMemberRole({ teamId: t.id, actorId: owner.id, userId: members[0]!.id, role: "manager" });
    const late = await newUser("late");
    const invited = await inviteMembers({ teamId: t.id, actorId: members[0]!.id, emails: late.email });
    const token = await invitationToken(app().mails, late.email);
    await deleteAccount(owner.id);
    const closed = { status: 409, message: INVITATION_ERRORS.ownerGone };

    const newcomer = await newUser("newcomer");
    expect(await refusal(inviteMembers({ teamId: t.id, actorId: members[0]!.id, emails: newcomer.email }))).toEqual(
      closed,
    );
    // The invitation sent before the deletion was withdrawn by it; neither a resend nor its link seats anyone.
    expect(
      await refusal(resendInvitation({ teamId: t.id, actorId: members[0]!.id, invitationId: invited.invited[0]!.id })),
    ).toMatchObject({ status: 409 });
    expect(await refusal(acceptInvitation({ token, userId: late.id }))).toMatchObject({ status: 409 });
    // Even an invitation left open (written before this rule) and a domain claim turned back on are refused.
    await db()
      .update(team_invitations)
      .set({ status: "pending" })
      .where(eq(team_invitations.id, invited.invited[0]!.id));
    expect(await refusal(acceptInvitation({ token, userId: late.id }))).toEqual(closed);
    expect(
      await refusal(resendInvitation({ teamId: t.id, actorId: members[0]!.id, invitationId: invited.invited[0]!.id })),
    ).toEqual(closed);
    await db().update(teams).set({ domain_claim: true, domain: "example.com" }).where(eq(teams.id, t.id));
    expect(await refusal(claimDomainSeat({ teamId: t.id, userId: newcomer.id }))).toEqual(closed);
    expect(await refusal(setDomainClaim({ teamId: t.id, actorId: members[0]!.id, enabled: true }))).toMatchObject({
      status: 403,
    });
    const seated = await db().select().from(team_members).where(eq(team_members.team_id, t.id));
    expect(seated.map((m) => m.user_id)).not.toContain(late.id);
    expect(seated.map((m) => m.user_id)).not.toContain(newcomer.id);
  });
});
