import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESEND_LIMITS, resendLimited } from "~/domain/team-invitations";
import { flushMail } from "~/server/mail/outbox.server";
import { inviteMembers, resendInvitation } from "~/server/teams/team-invitations.server";
import { buyTeam, refusal, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

// Resending an invitation e-mails whatever address was invited: rate-limited by the project's
// database-backed limiter, per person and invitation and per person overall (decision 0055).

describe.each(testEngines())("resending team invitations on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  const mailsTo = async (address: string) => {
    await flushMail();
    return app().mails.filter((mail) => mail.to === address).length;
  };

  it("20 resends at once send the invitation 1 + 3 times; the rest are refused with 429 and when to try again", async () => {
    const owner = await newUser("owner");
    const { team } = await buyTeam(db(), demo(), owner, 5);
    const target = "victim@example.com";
    const { invited } = await inviteMembers({ teamId: team.id, actorId: owner.id, emails: target });
    const resend = () => resendInvitation({ teamId: team.id, actorId: owner.id, invitationId: invited[0]!.id });
    const answers = await Promise.all(Array.from({ length: 20 }, () => refusal(resend())));
    expect(answers.filter((answer) => answer === null)).toHaveLength(RESEND_LIMITS.perInvitation);
    const refused = answers.filter((answer) => answer !== null);
    expect(refused).toHaveLength(20 - RESEND_LIMITS.perInvitation);
    for (const answer of refused) expect(answer).toEqual({ status: 429, message: resendLimited(10) });
    expect(await mailsTo(target)).toBe(1 + RESEND_LIMITS.perInvitation);
  });

  it("counts a person's resends of all invitations, and nobody else's clicks use them up", async () => {
    const owner = await newUser("owner");
    const stranger = await newUser("stranger");
    const { team } = await buyTeam(db(), demo(), owner, 25);
    const emails = Array.from({ length: 8 }, (_, i) => `invitee-${engine}-${i}@example.com`);
    const { invited } = await inviteMembers({ teamId: team.id, actorId: owner.id, emails });
    // Someone outside the team is refused (403), and counts against nobody but themselves.
    for (let i = 0; i < 5; i++) {
      const answer = await refusal(
        resendInvitation({ teamId: team.id, actorId: stranger.id, invitationId: invited[0]!.id }),
      );
      expect(answer?.status).toBeGreaterThanOrEqual(403);
    }
    const results: (number | null)[] = [];
    for (const invitation of [...invited, ...invited, ...invited]) {
      const answer = await refusal(
        resendInvitation({ teamId: team.id, actorId: owner.id, invitationId: invitation.id }),
      );
      results.push(answer?.status ?? null);
    }
    expect(results.slice(0, RESEND_LIMITS.perPerson).every((status) => status === null)).toBe(true);
    expect(results.slice(RESEND_LIMITS.perPerson).every((status) => status === 429)).toBe(true);
  });
});
