import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as rootRoute from "~/root";
import { getAuth } from "~/server/auth/auth.server";
import { createCaches, type Caches } from "~/server/cache/caches.server";
import { claimDomainSeat } from "~/server/teams/team-accept.server";
import { setDomainClaim, setMemberRole } from "~/server/teams/team-members.server";
import { getLogger } from "~/server/logger.server";
import { call, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { buyTeam, givePassword, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

// The nav's "Team" link (the root loader's `runsTeam`) is read with the session, and the session is
// remembered per cookie (session-cache.server.ts): a change of the user's team role must reach the
// next page all the same, through the change the team_members row announces (migration 0024).

describe.each(testEngines())("the nav's team link follows the user's team role (%s)", (engine) => {
  const suite = teamApp(engine, { AUTH_RATE_LIMIT: "1000" });
  beforeAll(suite.startApp);
  afterAll(suite.stopApp);
  let caches: Caches;
  const cookies = { owner: "", member: "", outsider: "" };
  let owner = { id: "", email: "" };
  let member = { id: "", email: "" };
  let teamId = "";

  /** The root loader's answer for a cookie, as every page gets it. */
  async function runsTeam(cookie: string): Promise<boolean> {
    const { status, data } = await call(() => rootRoute.loader(routeArgs(getRequest("/licenses", cookie))));
    expect(status).toBe(200);
    return data.runsTeam;
  }

  /** What the next page says once the change has been heard (PostgreSQL's NOTIFY arrives a moment after commit). */
  async function eventually(cookie: string, expected: boolean): Promise<void> {
    const deadline = Date.now() + 5_000;
    while ((await runsTeam(cookie)) !== expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await runsTeam(cookie)).toBe(expected);
  }

  beforeAll(async () => {
    const database = suite.app().database;
    const { authCookies } = await getAuth().$context;
    caches = await createCaches({
      databaseUrl: database.url,
      database,
      cookies: { sessionToken: authCookies.sessionToken.name, sessionData: authCookies.sessionData.name },
      logger: getLogger(),
    });
    const domain = `nav-${engine}.example`;
    owner = await createUser(suite.db(), `owner@${domain}`);
    member = await createUser(suite.db(), `member@${domain}`);
    const outsider = await createUser(suite.db(), `outsider-${engine}@elsewhere.example`);
    for (const user of [owner, member, outsider]) await givePassword(suite.db(), user.id, "nav-password-1");
    ({
      team: { id: teamId },
    } = await buyTeam(suite.db(), suite.demo(), owner, 3));
    await setDomainClaim({ teamId, actorId: owner.id, enabled: true });
    await claimDomainSeat({ teamId, userId: member.id });
    cookies.owner = await signInCookie(owner.email, "nav-password-1");
    cookies.member = await signInCookie(member.email, "nav-password-1");
    cookies.outsider = await signInCookie(outsider.email, "nav-password-1");
  }, 120_000);

  afterAll(async () => {
    await caches?.close();
  });

  it("shows it to owners and managers only, and follows a role change on the next page", async () => {
    expect(await runsTeam(cookies.owner)).toBe(true);
    expect(await runsTeam(cookies.outsider)).toBe(false);
    expect(await runsTeam("")).toBe(false);
    // Remembered now: the member's session is read from memory on the next requests.
    expect(await runsTeam(cookies.member)).toBe(false);
    expect(await runsTeam(cookies.member)).toBe(false);

    await setMemberRole({ teamId, actorId: owner.id, userId: member.id, role: "manager" });
    await eventually(cookies.member, true);
    await setMemberRole({ teamId, actorId: owner.id, userId: member.id, role: "member" });
    await eventually(cookies.member, false);
    expect(await runsTeam(cookies.owner)).toBe(true);
  });
});
