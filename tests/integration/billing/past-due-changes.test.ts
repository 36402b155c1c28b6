import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upcomingCharges } from "~/domain/billing-overview";
import { licenseFacts } from "~/domain/license-status";
import { PAYMENT_PROBLEM_TEXTS } from "~/domain/past-due";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { demo_billing, licenses } from "~/server/db/schema";
import { drainJobs } from "~/server/jobs/jobs.server";
import { cancelRenewal, reenableRenewal } from "~/server/licenses/renewal.server";
import { teamPage } from "~/server/teams/team-views.server";
import { changeSeats, quoteSeatChange } from "~/server/teams/team-seats.server";
import { buyTeam, refusal, teamApp } from "../../support/team";
import { testEngines } from "../../support/test-app";

/**
 * Paddle refuses every change to a past-due subscription (subscription_update_when_past_due): the
 * site neither offers nor asks for one (a clear 409 instead of the provider's 502), stops a past-due
 * subscription's renewal with the immediate cancel Paddle accepts, and /billing shows the retry.
 */
describe.each(testEngines())("past-due subscriptions on %s", (engine) => {
  const { startApp, stopApp, db, demo, newUser } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);

  async function pastDueTeam() {
    const owner = await newUser("overdue-owner");
    const bought = await buyTeam(db(), demo(), owner, 3);
    await demo().failRenewal(bought.subscriptionId);
    const [billing] = await db().select().from(licenses).where(eq(licenses.id, bought.billing.id));
    expect(billing!.past_due_since).not.toBeNull();
    return { owner, ...bought, billing: billing! };
  }

  it("renewal and seat changes are refused with what to do instead; /team says so", async () => {
    const { owner, team, billing } = await pastDueTeam();
    const refused = { status: 409, message: PAYMENT_PROBLEM_TEXTS.changeRefused };
    expect(await refusal(cancelRenewal({ userId: owner.id, licenseId: billing.id }))).toEqual(refused);
    expect(await refusal(reenableRenewal({ userId: owner.id, licenseId: billing.id }))).toEqual({
      status: 409,
      message: PAYMENT_PROBLEM_TEXTS.changeRefused,
    });
    expect(await refusal(quoteSeatChange({ teamId: team.id, actorId: owner.id, seats: 5 }))).toEqual(refused);
    expect(await refusal(changeSeats({ teamId: team.id, actorId: owner.id, seats: 5 }))).toEqual(refused);
    const page = await teamPage(team.id, owner.id);
    expect(page.subscription?.overdue?.graceEnd).toBeTruthy();
  });

  it("/billing lists the failed renewal as a pending charge with its retry, not 'no charges'", async () => {
    const { billing } = await pastDueTeam();
    const charges = upcomingCharges([{ ...licenseFacts(billing), renewal_seats: 3 }], new Date());
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ kind: "retry", amountCents: 2700, seats: 3 });
    expect(charges[0]!.text).toMatch(/^Due now: \$27\.00 for 3 seats of the Monthly team subscription /);
    expect(charges[0]!.text).toMatch(/\(the failed renewal, retried automatically until .+\)$/);
  });

  it("a revoke of a past-due subscription stops it with the immediate cancel Paddle accepts", async () => {
    const { billing, subscriptionId } = await pastDueTeam();
    await revokeLicense({ admin: { id: null, email: "admin@example.com" }, licenseId: billing.id, reason: "test" });
    await drainJobs();
    const [sub] = await db()
      .select()
      .from(demo_billing)
      .where(and(eq(demo_billing.id, subscriptionId), eq(demo_billing.kind, "subscription")));
    expect((sub!.data as { status: string }).status).toBe("canceled");
  });

  it("the demo provider refuses a change to a past-due subscription, as Paddle does", async () => {
    const { subscriptionId } = await pastDueTeam();
    await expect(demo().cancelAtPeriodEnd(subscriptionId)).rejects.toThrow(/subscription_update_when_past_due/);
    await expect(demo().removeScheduledCancel(subscriptionId)).rejects.toThrow(/subscription_update_when_past_due/);
  });
});
