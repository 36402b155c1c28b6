import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userTimeline } from "~/server/admin/user-timeline.server";
import { audit_log } from "~/server/db/schema";
import { acceptInvitation, claimDomainSeat, takeSeat } from "~/server/teams/team-accept.server";
import { inviteMembers, resendInvitation, withdrawInvitation } from "~/server/teams/team-invitations.server";
import { removeMember, renameTeam, setDomainClaim, setMemberRole } from "~/server/teams/team-members.server";
import { changeSeats } from "~/server/teams/team-seats.server";
import { buyTeam, invitationToken, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

/**
 * Every team change is in the audit log, with who made it, when, and the team; and it is on
 * the timeline of the person it happened to and of the person who made it (the admin's user page).
 */
describe.each(testEngines())("team changes are audited on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  it("invite, resend, withdraw, accept, take a seat, claim a seat, role, rename, domain claim, seats, removal", async () => {
    const owner = await newUser("owner");
    const [ann, bob, cyd] = [await newUser("ann"), await newUser("bob"), await newUser("cyd")];
    const { team } = await buyTeam(db(), demo(), owner, 5);
    const t = team.id;
    await takeSeat({ teamId: t, actorId: owner.id });
    const sent = await inviteMembers({ teamId: t, actorId: owner.id, emails: [ann.email, bob.email] });
    const bobInvitation = sent.invited.find((i) => i.email === bob.email)!;
    await resendInvitation({ teamId: t, actorId: owner.id, invitationId: bobInvitation.id });
    await withdrawInvitation({ teamId: t, actorId: owner.id, invitationId: bobInvitation.id });
    await acceptInvitation({ token: await invitationToken(app().mails, ann.email), userId: ann.id });
    await setMemberRole({ teamId: t, actorId: owner.id, userId: ann.id, role: "manager" });
    await setMemberRole({ teamId: t, actorId: owner.id, userId: ann.id, role: "manager" });
    await renameTeam({ teamId: t, actorId: owner.id, name: "Acme Tools" });
    await setDomainClaim({ teamId: t, actorId: owner.id, enabled: true });
    await claimDomainSeat({ teamId: t, userId: cyd.id });
    await setDomainClaim({ teamId: t, actorId: owner.id, enabled: false });
    await changeSeats({ teamId: t, actorId: owner.id, seats: 6 });
    await removeMember({ teamId: t, actorId: ann.id, userId: cyd.id });

    const rows = await db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.target_type, "team"), eq(audit_log.target_id, t)))
      .orderBy(asc(audit_log.created_at), asc(audit_log.id));
    const details = (row: (typeof rows)[number]) => row.details as Record<string, unknown>;
    const entries = rows.map((r) => [r.action, r.actor_email, details(r).user_id]);
    expect(entries).toEqual([
      ["team.take_seat", owner.email, owner.id],
      ["team.invite", owner.email, owner.id],
      ["team.invitation_resend", owner.email, owner.id],
      ["team.invitation_withdraw", owner.email, owner.id],
      ["team.invitation_accept", ann.email, ann.id],
      // The second, unchanged role is not a change: one entry.
      ["team.role", owner.email, ann.id],
      ["team.rename", owner.email, owner.id],
      ["team.domain_claim_on", owner.email, owner.id],
      ["team.seat_claim", cyd.email, cyd.id],
      ["team.domain_claim_off", owner.email, owner.id],
      ["team.seats", owner.email, owner.id],
      ["team.remove_member", ann.email, cyd.id],
    ]);
    for (const row of rows) {
      expect(row.actor_id).not.toBeNull();
      expect(row.created_at).toBeInstanceOf(Date);
    }
    const byAction = Object.fromEntries(rows.map((r) => [r.action, details(r)]));
    expect(byAction["team.invite"]).toMatchObject({ team_name: "Acme", emails: [ann.email, bob.email].sort() });
    expect(byAction["team.invitation_withdraw"]).toMatchObject({ email: bob.email });
    expect(byAction["team.role"]).toMatchObject({ email: ann.email, role: "manager" });
    expect(byAction["team.rename"]).toMatchObject({ team_name: "Acme Tools", from: "Acme" });
    expect(byAction["team.domain_claim_on"]).toMatchObject({ domain: "example.com" });
    expect(byAction["team.remove_member"]).toMatchObject({ email: cyd.email, team_name: "Acme Tools" });

    // On the admin's timeline: the removed member sees who removed them; the manager who removed sees it too.
    const cydTimeline = (await userTimeline(cyd.id, 1)).entries.map((e) => `${e.title} — ${e.detail}`);
    expect(cydTimeline).toContain(`Removed a team member — by ${ann.email} · team Acme Tools · ${cyd.email}`);
    expect(cydTimeline).toContain(
      `Took a team seat offered to their domain — by ${cyd.email} · team Acme Tools · ${
        details(rows.find((r) => r.action === "team.seat_claim")!).short_id as string
      }`,
    );
    const annTimeline = (await userTimeline(ann.id, 1)).entries.map((e) => e.title);
    expect(annTimeline).toEqual(
      expect.arrayContaining(["Removed a team member", "Changed a team member's role", "Accepted a team invitation"]),
    );
    const ownerTimeline = (await userTimeline(owner.id, 1)).entries.map((e) => `${e.title} — ${e.detail}`);
    expect(ownerTimeline).toContain(`Renamed a team — by ${owner.email} · team Acme Tools · was Acme`);
    expect(ownerTimeline).toContain(
      `Changed a team member's role — by ${owner.email} · team Acme · ${ann.email} · now manager`,
    );
  });
});
