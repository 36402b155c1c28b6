import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionError } from "~/server/action-error.server";
import { licenses, team_invitations, team_members, users } from "~/server/db/schema";
import { findLicenseByKey } from "~/server/license-api/find-license.server";
import { issueLicenseFile } from "~/server/license-api/license-file.server";
import { licenseCode } from "~/server/license-api/validate-license.server";
import { acceptInvitation, invitationByToken, takeSeat } from "~/server/teams/team-accept.server";
import { inviteMembers, resendInvitation, withdrawInvitation } from "~/server/teams/team-invitations.server";
import { removeMember, setMemberRole } from "~/server/teams/team-members.server";
import { teamOfLicenses, teamPage } from "~/server/teams/team-views.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { flushMail } from "~/server/mail/outbox.server";
import { removedFromTeamAsk, removedFromTeamLine, revokedNote } from "~/domain/license-card";
import { buyTeam, invitationToken, refusal, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

describe.each(testEngines())("team invitations on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  it("invite, accept, see the seat license naming the team, remove: the tool sees REVOKED", async () => {
    const owner = await newUser("owner");
    const [ann, bob] = [await newUser("ann"), await newUser("bob")];
    const { team } = await buyTeam(db(), demo(), owner, 3);
    const { invited } = await inviteMembers({
      teamId: team.id,
      actorId: owner.id,
      emails: `${ann.email}, ${bob.email}`,
    });
    expect(invited.map((i) => i.email)).toEqual([ann.email, bob.email]);
    const token = await invitationToken(app().mails, ann.email);
    // The invitation is the React Email template, linking to the accept page with the token in the query.
    const mail = app().mails.find((m) => m.to === ann.email)!;
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    expect(mail.subject).toContain("Acme");
    expect(mail.text).toContain(`${app().env.PUBLIC_URL}/team/invitation?token=${token}`);
    expect(await invitationByToken(token)).toMatchObject({ state: "open", teamName: "Acme", email: ann.email });
    // Bob cannot take Ann's invitation.
    expect(await refusal(acceptInvitation({ token, userId: bob.id }))).toMatchObject({ status: 403 });
    const seat = await acceptInvitation({ token, userId: ann.id });
    expect(await refusal(acceptInvitation({ token, userId: ann.id }))).toMatchObject({ status: 409 });
    const [row] = await db().select().from(licenses).where(eq(licenses.id, seat.licenseId));
    expect(row).toMatchObject({ user_id: ann.id, team_id: team.id, team_role: "seat", status: "active" });
    const found = await findLicenseByKey(row!.license_key);
    expect(found?.team_name).toBe("Acme");
    const file = issueLicenseFile(found);
    const payload = JSON.parse(Buffer.from(file.file!.payload, "base64url").toString("utf8"));
    expect(payload.team).toEqual({ id: team.id, name: "Acme" });
    const page = await teamPage(team.id, owner.id);
    expect(page.seats).toMatchObject({ paid: 3, assigned: 1, pending: 1, free: 2, invitable: 1 });
    expect(page.members.find((m) => m.userId === ann.id)?.seatShortId).toBe(row!.short_id);

    expect(await removeMember({ teamId: team.id, actorId: owner.id, userId: ann.id })).toEqual({ seatFreed: true });
    const [revoked] = await db().select().from(licenses).where(eq(licenses.id, seat.licenseId));
    expect(revoked).toMatchObject({ status: "revoked", revoked_reason: "removed from team" });
    expect(licenseCode(await findLicenseByKey(row!.license_key))).toBe("REVOKED");
    // Ann's card says what her e-mail says: removed from Acme, ask its owner (decision 0057).
    const [card] = await listUserLicenses(ann.id);
    const seatTeam = (await teamOfLicenses([card!.id])).get(card!.id)!;
    expect(revokedNote({ ...card, team: { name: seatTeam.teamName, role: seatTeam.role } })).toBe(
      removedFromTeamAsk("Acme"),
    );
    expect(removedFromTeamLine("Acme")).toContain(removedFromTeamAsk("Acme"));
    // The e-mail is queued after the removal commits: wait for it (the embedded engine is slower to compose it).
    await flushMail();
    expect(app().mails.find((m) => m.to === ann.email && m.subject.includes("removed"))?.text).toContain(
      removedFromTeamLine("Acme"),
    );
  });

  it("refuses bad invitations with a clear message and changes nothing", async () => {
    const owner = await newUser("owner");
    const [ann, mia] = [await newUser("ann"), await newUser("mia")];
    const { team, billing } = await buyTeam(db(), demo(), owner, 2);
    // The subscription's own key opens nothing.
    expect(await findLicenseByKey(billing.license_key)).toBeNull();
    expect(
      await refusal(inviteMembers({ teamId: team.id, actorId: owner.id, emails: "a@x.io, b@x.io, c@x.io" })),
    ).toEqual({
      status: 409,
      message: "Only 2 free seats: invite at most 2 people.",
    });
    expect(
      await refusal(inviteMembers({ teamId: team.id, actorId: owner.id, emails: "not-an-address" })),
    ).toMatchObject({ status: 422 });
    expect(await refusal(inviteMembers({ teamId: team.id, actorId: owner.id, emails: " " }))).toMatchObject({
      status: 409,
    });
    expect(await refusal(inviteMembers({ teamId: team.id, actorId: ann.id, emails: "a@x.io" }))).toMatchObject({
      status: 404,
    });
    await inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email });
    expect(await refusal(inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email }))).toMatchObject({
      status: 409,
      message: `${ann.email} is already invited: resend the invitation instead.`,
    });
    await acceptInvitation({ token: await invitationToken(app().mails, ann.email), userId: ann.id });
    expect(await refusal(inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email }))).toMatchObject({
      status: 409,
      message: `${ann.email} already has a seat in this team.`,
    });
    // A member acting as owner or manager.
    expect(await refusal(inviteMembers({ teamId: team.id, actorId: ann.id, emails: "z@x.io" }))).toMatchObject({
      status: 403,
    });
    expect(await refusal(removeMember({ teamId: team.id, actorId: ann.id, userId: owner.id }))).toMatchObject({
      status: 403,
    });
    await setMemberRole({ teamId: team.id, actorId: owner.id, userId: ann.id, role: "manager" });
    expect(await refusal(removeMember({ teamId: team.id, actorId: ann.id, userId: owner.id }))).toEqual({
      status: 403,
      message: "The team's owner cannot be removed.",
    });
    // Withdrawn and expired links.
    await inviteMembers({ teamId: team.id, actorId: ann.id, emails: mia.email });
    const [open] = await db()
      .select()
      .from(team_invitations)
      .where(and(eq(team_invitations.team_id, team.id), eq(team_invitations.email, mia.email)));
    const first = await invitationToken(app().mails, mia.email);
    await resendInvitation({ teamId: team.id, actorId: owner.id, invitationId: open!.id });
    const second = await invitationToken(app().mails, mia.email);
    expect(await refusal(acceptInvitation({ token: first, userId: mia.id }))).toMatchObject({ status: 404 });
    const later = new Date(Date.now() + 8 * 24 * 3600 * 1000);
    expect(await refusal(acceptInvitation({ token: second, userId: mia.id, now: later }))).toEqual({
      status: 409,
      message: "This invitation has expired. Ask the team for a new one.",
    });
    await withdrawInvitation({ teamId: team.id, actorId: owner.id, invitationId: open!.id });
    expect(await refusal(acceptInvitation({ token: second, userId: mia.id }))).toEqual({
      status: 409,
      message: "This invitation was withdrawn.",
    });
    // An unconfirmed address cannot accept.
    await inviteMembers({ teamId: team.id, actorId: owner.id, emails: mia.email });
    await db().update(users).set({ emailVerified: false }).where(eq(users.id, mia.id));
    expect(
      await refusal(acceptInvitation({ token: await invitationToken(app().mails, mia.email), userId: mia.id })),
    ).toMatchObject({
      status: 403,
    });
    const members = await db().select().from(team_members).where(eq(team_members.team_id, team.id));
    expect(members).toHaveLength(2);
  });

  it("two accepts at once for the last seat: exactly one succeeds", async () => {
    const owner = await newUser("owner");
    const [ann, bob] = [await newUser("ann"), await newUser("bob")];
    const { team } = await buyTeam(db(), demo(), owner, 2);
    await inviteMembers({ teamId: team.id, actorId: owner.id, emails: [ann.email, bob.email] });
    await takeSeat({ teamId: team.id, actorId: owner.id });
    const tokens = [await invitationToken(app().mails, ann.email), await invitationToken(app().mails, bob.email)];
    const results = await Promise.allSettled([
      acceptInvitation({ token: tokens[0]!, userId: ann.id }),
      acceptInvitation({ token: tokens[1]!, userId: bob.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(ActionError);
    expect(failed.reason.status).toBe(409);
    const seats = await db()
      .select()
      .from(licenses)
      .where(and(eq(licenses.team_id, team.id), eq(licenses.team_role, "seat")));
    expect(seats).toHaveLength(2);
  });
});
