import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_ERRORS, CLAIM_TEXTS } from "~/domain/team-claim-texts";
import { INVITATION_ERRORS } from "~/domain/team-invitations";
import { SEAT_ERRORS } from "~/domain/team-seats";
import * as licensesRoute from "~/routes/licenses";
import * as teamRoute from "~/routes/team";
import { licenses, team_members, users } from "~/server/db/schema";
import { setDomainClaim } from "~/server/teams/team-members.server";
import { call, formRequest, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { buyTeam, givePassword, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

// The domain seat claim as a member sees it: the team offering seats to their confirmed
// address's domain is on /licenses (and on /team when they run no team); taking a seat goes through
// the /team action, which refuses with a clear 4xx and changes nothing when the claim is off, the
// domain is not theirs, the address is unconfirmed, they already have a seat or no seat is free.
const PASSWORD = "team-claim-password-1";

describe.each(testEngines())("claiming a domain seat on %s", (engine) => {
  const { startApp, stopApp, demo, db } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  let n = 0;

  async function person(email: string) {
    const user = await createUser(db(), email);
    await givePassword(db(), user.id, PASSWORD);
    return { ...user, cookie: await signInCookie(email, PASSWORD) };
  }
  const claimable = async (cookie: string) =>
    (await call(() => licensesRoute.loader(routeArgs(getRequest("/licenses", cookie))))).data.claimable;
  const claim = (teamId: string, cookie: string) =>
    call(() => teamRoute.action(routeArgs(formRequest("/team", { intent: "claim-seat", teamId }, cookie))));
  const seatsOf = async (teamId: string) =>
    (await db().select().from(team_members).where(eq(team_members.team_id, teamId))).filter((m) => m.seat_license_id)
      .length;

  it("offers the seat on /licenses and /team, takes it once, and refuses every other claim with its reason", async () => {
    const domain = `acme-${engine}-${++n}.example`;
    const owner = await person(`owner@${domain}`);
    const [dana, eve, finn] = [
      await person(`dana@${domain}`),
      await person(`eve@${domain}`),
      await person(`finn@${domain}`),
    ];
    const stranger = await person(`sam-${engine}-${n}@elsewhere.example`);
    const { team } = await buyTeam(db(), demo(), owner, 2);

    // Off by default: nothing offered, a claim refused.
    expect(await claimable(dana.cookie)).toEqual([]);
    expect(await claim(team.id, dana.cookie)).toMatchObject({
      status: 403,
      data: { toast: { description: CLAIM_ERRORS.notOffered } },
    });

    await setDomainClaim({ teamId: team.id, actorId: owner.id, enabled: true });
    expect(await claimable(dana.cookie)).toEqual([{ id: team.id, name: "Acme", domain }]);
    const teamPage = await call(() => teamRoute.loader(routeArgs(getRequest("/team", dana.cookie))));
    expect(teamPage.data.claimable).toEqual([{ id: team.id, name: "Acme", domain }]);
    expect(await claimable(stranger.cookie)).toEqual([]);
    expect(await claim(team.id, stranger.cookie)).toMatchObject({
      status: 403,
      data: { toast: { description: CLAIM_ERRORS.notOffered } },
    });
    expect(await claim("not-a-team", dana.cookie)).toMatchObject({ status: 404 });

    const taken = await claim(team.id, dana.cookie);
    expect(taken.status).toBe(200);
    const [seat] = await db().select().from(licenses).where(eq(licenses.user_id, dana.id));
    expect(taken.data.toast).toMatchObject(CLAIM_TEXTS.taken("Acme", seat!.short_id));
    expect(seat).toMatchObject({ team_id: team.id, team_role: "seat", status: "active" });
    expect(await claimable(dana.cookie)).toEqual([]);
    expect(await claim(team.id, dana.cookie)).toMatchObject({
      status: 409,
      data: { toast: { description: INVITATION_ERRORS.alreadySeated } },
    });

    // An unconfirmed address at the domain is not offered a seat and cannot take one.
    await db().update(users).set({ emailVerified: false }).where(eq(users.id, finn.id));
    expect(await claimable(finn.cookie)).toEqual([]);
    expect(await claim(team.id, finn.cookie)).toMatchObject({
      status: 403,
      data: { toast: { description: CLAIM_ERRORS.unconfirmed } },
    });

    // The last seat goes to the owner; the next claimer is told there is none.
    await call(() =>
      teamRoute.action(routeArgs(formRequest("/team", { intent: "take-seat", teamId: team.id }, owner.cookie))),
    );
    expect(await claim(team.id, eve.cookie)).toMatchObject({
      status: 409,
      data: { toast: { description: SEAT_ERRORS.noFreeSeat } },
    });
    expect(await seatsOf(team.id)).toBe(2);
  });
});
