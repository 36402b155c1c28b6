import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditActionLabel } from "~/domain/admin-audit";
import { PLAN_SWITCH_INPUT_ERRORS, PLAN_SWITCH_REFUSALS } from "~/domain/plan-switch";
import { TEAM_PLAN_REFUSALS } from "~/domain/team-plan-change";
import { ROLE_ERRORS } from "~/domain/team-roles";
import type { PaddleSubscription } from "~/server/billing/paddle-events.server";
import { audit_log, demo_billing, licenses, outbound_events, payments, teams, user_events } from "~/server/db/schema";
import { acceptInvitation } from "~/server/teams/team-accept.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { changeTeamPlan, previewTeamPlanChange } from "~/server/teams/team-plan.server";
import { changeSeats } from "~/server/teams/team-seats.server";
import { buyTeam, invitationToken, refusal, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

const DAY = 86_400_000;

describe.each(testEngines())("a team's plan change with the demo provider on %s", (engine) => {
  const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  const license = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  const team = async (id: string) => (await db().select().from(teams).where(eq(teams.id, id)))[0]!;
  const subscription = async (id: string) =>
    (await db().select().from(demo_billing).where(eq(demo_billing.id, id)))[0]!.data as PaddleSubscription;
  /** A team of `seats` seats, one of them held by a member. */
  async function teamWithMember(seats: number, plan = "monthly") {
    const owner = await newUser("owner");
    const ann = await newUser("ann");
    const bought = await buyTeam(db(), demo(), owner, seats, plan);
    await inviteMembers({ teamId: bought.team.id, actorId: owner.id, emails: ann.email });
    const { licenseId } = await acceptInvitation({
      token: await invitationToken(app().mails, ann.email),
      userId: ann.id,
    });
    return { ...bought, owner, ann, seatId: licenseId };
  }

  it("monthly → yearly for 3 seats: the preview per seat, then charged now, every seat yearly through the provider's events, audited, announced", async () => {
    const { team: bought, billing, owner, seatId, subscriptionId } = await teamWithMember(3);
    const quote = await previewTeamPlanChange({ teamId: bought.id, actorId: owner.id, plan: "yearly" });
    expect(quote.preview).toMatchObject({ from: "monthly", to: "yearly", effect: "now", currency: "USD" });
    expect(quote.preview.becomes).toMatchObject({ plan: "yearly", seats: 3 });
    expect(quote.preview.nextChargeCents).toBe(3 * 9000);
    // Just bought: almost the whole month of 3 seats credited, 3 years less it charged now.
    expect(quote.preview.creditCents).toBeGreaterThan(3 * 880);
    expect(quote.preview.chargedNowCents).toBe(3 * 9000 - quote.preview.creditCents);
    expect((await license(billing.id)).license_type).toBe("monthly");

    const before = Date.now();
    const done = await changeTeamPlan({ teamId: bought.id, actorId: owner.id, plan: "yearly", stamp: quote.stamp });
    expect(done.effect).toBe("now");

    const after = await license(billing.id);
    expect(after).toMatchObject({ license_type: "yearly", plan_next_renewal: null });
    expect(after.end_date.getTime() - before).toBeGreaterThan(364 * DAY);
    const seat = await license(seatId);
    expect(seat).toMatchObject({ license_type: "yearly", team_role: "seat" });
    expect(seat.end_date.getTime()).toBe(after.end_date.getTime());
    expect(await team(bought.id)).toMatchObject({ plan_type: "yearly", price_id: "pri_demo_yearly", seats_paid: 3 });
    const sub = await subscription(subscriptionId);
    expect(sub.items[0]).toMatchObject({ quantity: 3, price: { id: "pri_demo_yearly" } });

    const paid = await db().select().from(payments).where(eq(payments.license_id, billing.id));
    expect(paid.find((p) => p.kind === "plan_change")!.amount_cents).toBe(quote.preview.chargedNowCents);
    const events = await db().select().from(outbound_events).where(eq(outbound_events.type, "license.plan_changed"));
    const event = events.find((e) => (e.data as { license: { id: string } }).license.id === billing.id);
    expect(event?.data).toMatchObject({ previous_plan: "monthly", plan: "yearly" });
    const timeline = await db().select().from(user_events).where(eq(user_events.user_id, owner.id));
    expect(timeline.map((e) => e.kind)).toContain("license.plan_changed");
    const [audit] = await db()
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.target_id, bought.id), eq(audit_log.action, "team.plan")));
    expect(audit).toMatchObject({ actor_id: owner.id });
    expect(audit!.details).toMatchObject({
      from: "monthly",
      to: "yearly",
      seats: 3,
      proration_billing_mode: "prorated_immediately",
    });
    expect(auditActionLabel("team.plan")).toBe("Changed a team's plan");

    // The same preview again: the subscription changed since.
    const stale = changeTeamPlan({ teamId: bought.id, actorId: owner.id, plan: "monthly", stamp: quote.stamp });
    expect(await refusal(stale)).toEqual({ status: 409, message: PLAN_SWITCH_INPUT_ERRORS.stalePreview });
  });

  it("yearly → monthly for 2 seats: nothing now, waits for the renewal (no second change), which bills every seat monthly", async () => {
    const { team: bought, billing, owner, seatId, subscriptionId } = await teamWithMember(2, "yearly");
    const quote = await previewTeamPlanChange({ teamId: bought.id, actorId: owner.id, plan: "monthly" });
    expect(quote.preview).toMatchObject({ effect: "next-renewal", chargedNowCents: 0, nextChargeCents: 2 * 900 });
    await changeTeamPlan({ teamId: bought.id, actorId: owner.id, plan: "monthly", stamp: quote.stamp });
    expect(await license(billing.id)).toMatchObject({ license_type: "yearly", plan_next_renewal: "monthly" });
    expect(await license(seatId)).toMatchObject({ license_type: "yearly", plan_next_renewal: null });
    const second = previewTeamPlanChange({ teamId: bought.id, actorId: owner.id, plan: "6_months" });
    expect(await refusal(second)).toEqual({ status: 409, message: PLAN_SWITCH_REFUSALS.pending("Monthly") });

    expect((await demo().renew(subscriptionId, new Date())).outcome).toBe("renewed");
    expect(await license(billing.id)).toMatchObject({ license_type: "monthly", plan_next_renewal: null });
    expect(await license(seatId)).toMatchObject({ license_type: "monthly" });
    expect(await team(bought.id)).toMatchObject({ plan_type: "monthly", price_id: "pri_demo_monthly", seats_paid: 2 });
    const renewal = (await db().select().from(payments).where(eq(payments.license_id, billing.id))).find(
      (p) => p.kind === "renewal",
    )!;
    expect(renewal.amount_cents).toBe(2 * 900);
  });

  it("refused with a clear 4xx, the subscription unchanged: a member, a stranger, not a plan, the same plan, no preview, renewal off, past due, fewer seats waiting", async () => {
    const { team: bought, billing, owner, ann, subscriptionId } = await teamWithMember(3);
    const stranger = await newUser("stranger");
    const sub = await subscription(subscriptionId);
    const ask = (actorId: string, plan: unknown, stamp?: unknown) =>
      refusal(
        stamp === undefined
          ? previewTeamPlanChange({ teamId: bought.id, actorId, plan })
          : changeTeamPlan({ teamId: bought.id, actorId, plan, stamp }),
      );
    expect(await ask(ann.id, "yearly")).toEqual({ status: 403, message: ROLE_ERRORS.forbidden });
    expect(await ask(stranger.id, "yearly")).toEqual({ status: 404, message: ROLE_ERRORS.notMember });
    expect(await ask(owner.id, "lifetime")).toEqual({
      status: 400,
      message: PLAN_SWITCH_INPUT_ERRORS.unknownPlan("lifetime"),
    });
    expect(await ask(owner.id, "monthly")).toEqual({
      status: 409,
      message: PLAN_SWITCH_INPUT_ERRORS.samePlan("Monthly"),
    });
    expect(await ask(owner.id, "yearly", "")).toEqual({
      status: 400,
      message: PLAN_SWITCH_INPUT_ERRORS.missingPreview,
    });
    expect(await ask(owner.id, "yearly", "monthly.0.0")).toEqual({
      status: 409,
      message: PLAN_SWITCH_INPUT_ERRORS.stalePreview,
    });

    await db()
      .update(licenses)
      .set({ auto_renew: false, cancellation_requested: true })
      .where(eq(licenses.id, billing.id));
    expect(await ask(owner.id, "yearly")).toEqual({ status: 409, message: PLAN_SWITCH_REFUSALS.renewalCancelled });
    await db()
      .update(licenses)
      .set({ auto_renew: true, cancellation_requested: false, past_due_since: new Date() })
      .where(eq(licenses.id, billing.id));
    expect(await ask(owner.id, "yearly")).toEqual({ status: 409, message: PLAN_SWITCH_REFUSALS.pastDue });
    await db().update(licenses).set({ past_due_since: null }).where(eq(licenses.id, billing.id));

    await changeSeats({ teamId: bought.id, actorId: owner.id, seats: 2 });
    expect(await ask(owner.id, "yearly")).toEqual({ status: 409, message: TEAM_PLAN_REFUSALS.seatsPending });
    const unchanged = await subscription(subscriptionId);
    expect(unchanged.items[0]!.price.id).toBe(sub.items[0]!.price.id);
    expect(await license(billing.id)).toMatchObject({ license_type: "monthly", plan_next_renewal: null });
  });
});
