import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimableTeams, claimDomainSeat } from "~/server/teams/team-accept.server";
import { renameTeam, setDomainClaim } from "~/server/teams/team-members.server";
import { adminTeamView, teamOfLicenses, teamsOfUser } from "~/server/teams/team-views.server";
import { buyTeam, status, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

describe.each(testEngines())("team settings and views on %s", (engine) => {
  const { startApp, stopApp, demo, db } = teamApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  let n = 0;

  it("renames, offers seats to the owner's domain, and shows the team to its people and the admin", async () => {
    const domain = `${engine}-${++n}.example.com`;
    const owner = await createUser(db(), `owner@${domain}`);
    const colleague = await createUser(db(), `dana@${domain}`);
    const stranger = await createUser(db(), `eve-${engine}-${n}@elsewhere.example`);
    const { team, billing } = await buyTeam(db(), demo(), owner, 2);
    expect(await status(renameTeam({ teamId: team.id, actorId: owner.id, name: "   " }))).toBe(422);
    expect(await status(renameTeam({ teamId: team.id, actorId: colleague.id, name: "X" }))).toBe(404);
    expect(await renameTeam({ teamId: team.id, actorId: owner.id, name: "  Acme   Tools " })).toBe("Acme Tools");

    expect(await claimableTeams(colleague.id)).toEqual([]);
    expect(await setDomainClaim({ teamId: team.id, actorId: owner.id, enabled: true })).toEqual({ domain });
    expect(await claimableTeams(colleague.id)).toEqual([{ id: team.id, name: "Acme Tools", domain }]);
    expect(await status(claimDomainSeat({ teamId: team.id, userId: stranger.id }))).toBe(403);
    const seat = await claimDomainSeat({ teamId: team.id, userId: colleague.id });
    expect(await status(claimDomainSeat({ teamId: team.id, userId: colleague.id }))).toBe(409);
    expect(await claimableTeams(colleague.id)).toEqual([]);

    expect(await teamsOfUser(colleague.id)).toEqual([
      expect.objectContaining({ id: team.id, role: "member", seatLicenseId: seat.licenseId }),
    ]);
    expect(await teamsOfUser(owner.id)).toEqual([expect.objectContaining({ role: "owner", seatLicenseId: null })]);
    const labels = await teamOfLicenses([seat.licenseId, billing.id]);
    expect(labels.get(seat.licenseId)).toEqual({ teamId: team.id, teamName: "Acme Tools", role: "seat" });
    expect(labels.get(billing.id)?.role).toBe("billing");
    const admin = await adminTeamView(team.id);
    expect(admin).toMatchObject({ ownerEmail: owner.email, seats: { paid: 2, assigned: 1, free: 1 } });
    expect(admin?.members).toHaveLength(2);
    expect(admin?.payments).toHaveLength(1);
    expect(await setDomainClaim({ teamId: team.id, actorId: owner.id, enabled: false })).toEqual({ domain: null });
  });
});
