import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseState } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { licenses, payments, profiles, teams } from "~/server/db/schema";
import { CHECKOUT_ALREADY_PAID, payDemoCheckout } from "~/server/billing/demo/pay-demo-checkout.server";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { cancelRenewal } from "~/server/licenses/renewal.server";
import { acceptInvitation, takeSeat } from "~/server/teams/team-accept.server";
import { createTeamCheckout } from "~/server/teams/team-checkout.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { changeSeats, quoteSeatChange } from "~/server/teams/team-seats.server";
import { affectedMembers, searchTeams } from "~/server/teams/team-views.server";
import { buyTeam, invitationToken, status, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

describe.each(testEngines())("team billing on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  const seatsOf = (teamId: string) =>
    db()
      .select()
      .from(licenses)
      .where(and(eq(licenses.team_id, teamId), eq(licenses.team_role, "seat")));
  async function seated(teamId: string, owner: { id: string }, count: number) {
    const people = [];
    for (let i = 0; i < count; i++) people.push(await newUser("member"));
    await inviteMembers({ teamId, actorId: owner.id, emails: people.map((p) => p.email) });
    for (const p of people)
      await acceptInvitation({ token: await invitationToken(app().mails, p.email), userId: p.id });
    return people;
  }

  it("a checkout with quantity makes a team, not a personal license; bad quantities are refused", async () => {
    const owner = await newUser("owner");
    for (const seats of [1, 101, 2.5]) {
      expect(await status(createTeamCheckout({ userId: owner.id, email: owner.email, planId: "monthly", seats }))).toBe(
        422,
      );
    }
    expect(await status(createTeamCheckout({ userId: owner.id, email: owner.email, planId: "weekly", seats: 3 }))).toBe(
      422,
    );
    const { checkout, team, billing, transactionId } = await buyTeam(db(), demo(), owner, 3);
    expect(checkout).toMatchObject({ seats: 3, unitCents: 900, dueTodayCents: 2700, trial: false });
    expect(team).toMatchObject({ name: "Acme", owner_id: owner.id, seats_paid: 3, plan_type: "monthly" });
    expect(billing).toMatchObject({ team_id: team.id, team_role: "billing", user_id: owner.id, is_trial: false });
    const [payment] = await db().select().from(payments).where(eq(payments.id, transactionId));
    expect(payment).toMatchObject({ kind: "purchase", amount_cents: 2700, license_id: billing.id });
    expect(await searchTeams("acm")).toEqual(expect.arrayContaining([expect.objectContaining({ id: team.id })]));
  });

  it("a team bought without a name is named after the owner's company, else their full name", async () => {
    const named = async (fullName: string, company: { billing_name?: string; company_name?: string }) => {
      const owner = await newUser("owner", fullName);
      if (Object.keys(company).length) await db().update(profiles).set(company).where(eq(profiles.id, owner.id));
      const checkout = await createTeamCheckout({ userId: owner.id, email: owner.email, planId: "monthly", seats: 2 });
      await demo().payCheckout(checkout.transactionId);
      const [team] = await db().select().from(teams).where(eq(teams.owner_id, owner.id));
      expect(checkout.teamName).toBe(team!.name);
      return team!.name;
    };
    expect(await named("Tom Baker", { billing_name: "Baker Ltd", company_name: "Baker Tools" })).toBe("Baker Ltd");
    expect(await named("Tom Baker", { company_name: "Baker Tools" })).toBe("Baker Tools");
    expect(await named("Tom Baker", {})).toBe("Tom Baker");
  });

  it("the demo overlay's Pay pays the owner's team checkout once, as it pays a plan checkout", async () => {
    const owner = await newUser("owner");
    const other = await newUser("other");
    const checkout = await createTeamCheckout({ userId: owner.id, email: owner.email, planId: "monthly", seats: 2 });
    const { transactionId } = checkout;
    expect(await status(payDemoCheckout({ userId: other.id, transactionId }))).toBe(404);
    expect(await payDemoCheckout({ userId: owner.id, transactionId })).toEqual({ transactionId });
    const [team] = await db().select().from(teams).where(eq(teams.owner_id, owner.id));
    expect(team).toMatchObject({ seats_paid: 2 });
    await expect(payDemoCheckout({ userId: owner.id, transactionId })).rejects.toThrow(CHECKOUT_ALREADY_PAID);
  });

  it("more seats now with a prorated charge, fewer from the renewal and never below assigned", async () => {
    const owner = await newUser("owner");
    const { team, subscriptionId } = await buyTeam(db(), demo(), owner, 3);
    await seated(team.id, owner, 2);
    const [member] = await seated(team.id, owner, 1);
    expect(await status(changeSeats({ teamId: team.id, actorId: member!.id, seats: 5 }))).toBe(403);
    const quote = await quoteSeatChange({ teamId: team.id, actorId: owner.id, seats: 5 });
    expect(quote).toMatchObject({ effect: "now", seats: 5, renewalCents: 4500 });
    expect(quote.dueNowCents).toBeGreaterThan(0);
    await changeSeats({ teamId: team.id, actorId: owner.id, seats: 5 });
    const seatPayments = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.subscription_id, subscriptionId), eq(payments.kind, "seats")));
    expect(seatPayments).toHaveLength(1);
    expect(seatPayments[0]!.amount_cents).toBeGreaterThan(0);
    expect((await db().select().from(teams).where(eq(teams.id, team.id)))[0]!.seats_paid).toBe(5);
    expect(await status(changeSeats({ teamId: team.id, actorId: owner.id, seats: 2 }))).toBe(409);
    expect(await changeSeats({ teamId: team.id, actorId: owner.id, seats: 4 })).toMatchObject({
      effect: "next-renewal",
    });
    const before = await seatsOf(team.id);
    await demo().renew(subscriptionId, new Date(before[0]!.end_date.getTime() - 60_000));
    const [renewed] = await db().select().from(teams).where(eq(teams.id, team.id));
    expect(renewed).toMatchObject({ seats_paid: 4, seats_next_renewal: null });
    const after = await seatsOf(team.id);
    for (const seat of after) {
      const was = before.find((s) => s.id === seat.id)!;
      expect(seat.end_date.getTime()).toBeGreaterThan(was.end_date.getTime());
      expect(seat.license_key).not.toBe(was.license_key);
    }
    const [renewal] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.subscription_id, subscriptionId), eq(payments.kind, "renewal")));
    expect(renewal!.amount_cents).toBe(3600);
  });

  it("cancellation and a refund of the subscription cascade to every seat", async () => {
    const owner = await newUser("owner");
    const { team, billing } = await buyTeam(db(), demo(), owner, 3);
    await takeSeat({ teamId: team.id, actorId: owner.id });
    await seated(team.id, owner, 2);
    await cancelRenewal({ userId: owner.id, licenseId: billing.id });
    const [cancelled] = await db().select().from(licenses).where(eq(licenses.id, billing.id));
    for (const seat of await seatsOf(team.id)) {
      expect(seat.cancellation_requested).toBe(true);
      expect(licenseState(licenseFacts(seat), new Date()).state).toBe("renewal-cancelled");
      expect(licenseState(licenseFacts(seat), new Date()).state).toBe(
        licenseState(licenseFacts(cancelled!), new Date()).state,
      );
    }
    expect(await affectedMembers(team.id)).toBe(3);
    const refund = await requestRefund({ user: owner, licenseId: billing.id });
    expect(refund.amountCents).toBeGreaterThan(0);
    for (const seat of await seatsOf(team.id)) expect(seat.status).toBe("refund_requested");
    const [adjusted] = await db().select().from(payments).where(eq(payments.license_id, billing.id));
    await demo().settleRefund(adjusted!.refund_adjustment_id!, "approved");
    for (const seat of await seatsOf(team.id)) {
      expect(seat.status).toBe("refunded");
      expect(licenseState(licenseFacts(seat), new Date()).code).toBe("REFUNDED");
    }
  });
});
