import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graceEndsAt } from "~/domain/past-due";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { receiveWebhook } from "~/server/billing/receive-webhook.server";
import { licenses, payments } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { flushMail } from "~/server/mail/outbox.server";
import { cancelRenewal } from "~/server/licenses/renewal.server";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { acceptInvitation } from "~/server/teams/team-accept.server";
import { queueEndedTeams, queueTeamEnded } from "~/server/teams/team-ended.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { envelope, signed, subscription } from "../../support/paddle-fixtures";
import { buyTeam, invitationToken, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

const ENDED = /team's subscription ended/;
const HOUR = 3_600_000;

/**
 * Every member with a seat hears that the team's subscription ended, however it ended —
 * cancelled and at its end, cancelled by the provider after failed payments, its grace run out,
 * refunded, revoked by an admin — once, and only when the change that ended it commits.
 */
describe.each(testEngines())("the 'team ended' e-mail on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  /** A team of 3 seats with two members seated; the e-mails so far are sent and forgotten. */
  async function team() {
    const owner = await newUser("owner");
    const members = [await newUser("ann"), await newUser("bob")];
    const bought = await buyTeam(db(), demo(), owner, 3);
    await inviteMembers({ teamId: bought.team.id, actorId: owner.id, emails: members.map((m) => m.email) });
    for (const m of members)
      await acceptInvitation({ token: await invitationToken(app().mails, m.email), userId: m.id });
    await drainJobs();
    await flushMail();
    app().mails.length = 0;
    return { owner, members, ...bought };
  }
  async function endedMails() {
    await drainJobs({ skipDelays: true });
    await flushMail();
    return app().mails.filter((m) => ENDED.test(m.subject));
  }
  const recipients = (mails: { to: string }[]) => mails.map((m) => m.to).sort();
  const emails = (people: { email: string }[]) => people.map((p) => p.email).sort();

  it("cancelled and at its period's end: every seated member, once (a replay sends nothing new)", async () => {
    const { owner, members, billing, subscriptionId } = await team();
    await cancelRenewal({ userId: owner.id, licenseId: billing.id });
    expect(await endedMails()).toEqual([]);
    await demo().renew(subscriptionId, new Date(billing.end_date.getTime() + HOUR));
    const mails = await endedMails();
    expect(recipients(mails)).toEqual(emails(members));
    expect(mails[0]!.text).toContain("The Acme team's ForgeKit subscription ended");
    app().mails.length = 0;
    await queueEndedTeams(new Date(billing.end_date.getTime() + 2 * HOUR));
    expect(await endedMails()).toEqual([]);
  });

  it("a failed payment: the provider's cancellation, or the grace period running out", async () => {
    const first = await team();
    await demo().failRenewal(first.subscriptionId, new Date(first.billing.end_date.getTime() - HOUR));
    expect(await endedMails()).toEqual([]);
    const canceled = subscription({
      subscriptionId: first.subscriptionId,
      userId: first.owner.id,
      status: "canceled",
      start: first.billing.start_date,
      end: first.billing.end_date,
    });
    const secret = app().env.DEMO_WEBHOOK_SECRET!;
    const answer = await receiveWebhook({ ...signed(secret, envelope("subscription.canceled", canceled)), secret });
    expect(answer.status).toBe(200);
    expect(recipients(await endedMails())).toEqual(emails(first.members));

    app().mails.length = 0;
    const second = await team();
    await demo().failRenewal(second.subscriptionId, new Date(second.billing.end_date.getTime() - HOUR));
    const [pastDue] = await db().select().from(licenses).where(eq(licenses.id, second.billing.id));
    const graceEnd = graceEndsAt(pastDue!)!;
    expect(await queueEndedTeams(new Date(graceEnd.getTime() - HOUR))).toBe(0);
    expect(await queueEndedTeams(new Date(graceEnd.getTime() + HOUR))).toBe(2);
    expect(recipients(await endedMails())).toEqual(emails(second.members));
  });

  it("refunded: every seated member is told it was refunded", async () => {
    const { owner, members, billing } = await team();
    await requestRefund({ user: owner, licenseId: billing.id });
    expect(await endedMails()).toEqual([]);
    const [paid] = await db().select().from(payments).where(eq(payments.license_id, billing.id));
    await demo().settleRefund(paid!.refund_adjustment_id!, "approved");
    const mails = await endedMails();
    expect(recipients(mails)).toEqual(emails(members));
    expect(mails[0]!.text).toContain("subscription was refunded");
  });

  it("revoked by an admin: every seated member is told it was revoked", async () => {
    const { members, billing } = await team();
    const admin = await createUser(db(), `admin-${engine}@example.com`, { role: "admin" });
    await revokeLicense({ admin, licenseId: billing.id, reason: "chargeback" });
    const mails = await endedMails();
    expect(recipients(mails)).toEqual(emails(members));
    expect(mails[0]!.text).toContain("subscription was revoked");
  });

  it("queued by a transaction that rolls back: nothing is sent", async () => {
    const { billing } = await team();
    await expect(
      db().transaction(async (tx) => {
        expect(await queueTeamEnded(tx, billing.team_id!, "revoked")).toBe(2);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await endedMails()).toEqual([]);
    // The keys went with the transaction: the real end still tells them.
    expect(await db().transaction((tx) => queueTeamEnded(tx, billing.team_id!, "revoked"))).toBe(2);
    expect(await endedMails()).toHaveLength(2);
  });
});
