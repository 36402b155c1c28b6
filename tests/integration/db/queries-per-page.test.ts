import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as rootRoute from "~/root";
import * as userRoute from "~/routes/admin/user";
import * as billingRoute from "~/routes/billing";
import * as licensesRoute from "~/routes/licenses";
import * as profileRoute from "~/routes/profile";
import * as teamRoute from "~/routes/team";
import { licenses } from "~/server/db/schema";
import { seedDemoBilling } from "~/server/seed-demo-billing.server";
import { demoLicenses, DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { claimDomainSeat } from "~/server/teams/team-accept.server";
import { setDomainClaim } from "~/server/teams/team-members.server";
import { throughAdminGuard } from "../../support/admin-route";
import { call, getRequest, routeArgs, signInCookie } from "../../support/route-call";
import { statementsOf } from "../../support/statements";
import { buyTeam, givePassword, teamApp } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

// A page load asks the database once per kind of fact, never once per license or per team
// member. Each page's loaders (the root's and the route's, one after the other so that the count does
// not depend on which reads the session first) run for a customer or a team owner, the SQL they send
// is counted, the customer gets more licenses (or the team more members), and the count must stay the
// same: an N+1 query makes it grow.

type Loader = (args: any) => unknown;
const page = (loader: Loader, path: string, cookie: string) => call(() => loader(routeArgs(getRequest(path, cookie))));

/** Runs a page's loaders one after the other. */
async function inTurn(loads: (() => Promise<{ status: number }>)[]) {
  const answers: { status: number }[] = [];
  for (const load of loads) answers.push(await load());
  return answers;
}

/** The statements one load of a page sends: its loaders together, as for one request (after a first load). */
async function statementsFor(app: Parameters<typeof statementsOf>[0], load: () => Promise<{ status: number }[]>) {
  for (const answer of await load()) expect(answer.status).toBe(200);
  let answers: { status: number }[] = [];
  const statements = await statementsOf(app, async () => (answers = await load()));
  for (const answer of answers) expect(answer.status).toBe(200);
  return statements;
}

describe.each(testEngines())("queries per page load (%s)", (engine) => {
  const site = teamApp(engine, { AUTH_RATE_LIMIT: "1000" });
  beforeAll(site.startApp);
  afterAll(site.stopApp);
  const cookies = { customer: "", admin: "", owner: "" };
  let customerId = "";
  let owner = { id: "", email: "" };
  let team = { id: "" };

  const customerPages: Record<string, () => Promise<{ status: number }[]>> = {
    "/licenses": () =>
      inTurn([
        () => page(rootRoute.loader, "/licenses", cookies.customer),
        () => page(licensesRoute.loader, "/licenses", cookies.customer),
      ]),
    "/billing": () =>
      inTurn([
        () => page(rootRoute.loader, "/billing", cookies.customer),
        () => page(billingRoute.loader, "/billing", cookies.customer),
      ]),
    "/profile": () =>
      inTurn([
        () => page(rootRoute.loader, "/profile", cookies.customer),
        () => page(profileRoute.loader, "/profile", cookies.customer),
      ]),
    "admin user page": () => adminUserPage(customerId),
  };
  const ownerPages: Record<string, () => Promise<{ status: number }[]>> = {
    "/licenses": () =>
      inTurn([
        () => page(rootRoute.loader, "/licenses", cookies.owner),
        () => page(licensesRoute.loader, "/licenses", cookies.owner),
      ]),
    "/team": () =>
      inTurn([
        () => page(rootRoute.loader, "/team", cookies.owner),
        () => page(teamRoute.loader, "/team", cookies.owner),
      ]),
    "admin user page": () => adminUserPage(owner.id),
  };

  function adminUserPage(userId: string) {
    const path = `/admin/users/${userId}`;
    return inTurn([
      () => page(rootRoute.loader, path, cookies.admin),
      () => call(() => throughAdminGuard(userRoute.loader, getRequest(path, cookies.admin), { userId })),
    ]);
  }

  /** Ten more licenses in every state, with their payments, for the customer. */
  async function moreLicenses() {
    await site.db().transaction(async (tx) => {
      const more = demoLicenses(customerId, DEMO_ACCOUNTS[1].email).map((row) => ({
        ...row,
        paddle_subscription_id: row.paddle_subscription_id && `${row.paddle_subscription_id}_more`,
      }));
      const rows = await tx.insert(licenses).values(more).returning();
      for (const license of rows) await seedDemoBilling(tx, license);
    });
  }

  async function seatMembers(count: number) {
    for (let i = 0; i < count; i++) {
      const member = await createUser(
        site.db(),
        `member-${engine}-${Math.random().toString(36).slice(2)}@queries.example`,
      );
      await claimDomainSeat({ teamId: team.id, userId: member.id });
    }
  }

  beforeAll(async () => {
    await seedDemoData(site.db());
    const [admin, customer] = DEMO_ACCOUNTS;
    cookies.customer = await signInCookie(customer.email, customer.password);
    cookies.admin = await signInCookie(admin.email, admin.password);
    customerId = (await site.db().query.users.findFirst({ where: (u, { eq }) => eq(u.email, customer.email) }))!.id;
    owner = await createUser(site.db(), `owner-${engine}@queries.example`);
    await givePassword(site.db(), owner.id, "owner-password-1");
    cookies.owner = await signInCookie(owner.email, "owner-password-1");
    ({ team } = await buyTeam(site.db(), site.demo(), owner, 60));
    await setDomainClaim({ teamId: team.id, actorId: owner.id, enabled: true });
    await seatMembers(3);
  }, 120_000);

  it("the demo customer's pages ask the same number of queries with twice the licenses", async () => {
    const before: Record<string, string[]> = {};
    for (const [name, load] of Object.entries(customerPages)) before[name] = await statementsFor(site.app(), load);
    await moreLicenses();
    for (const [name, load] of Object.entries(customerPages)) {
      const after = await statementsFor(site.app(), load);
      console.log(`${engine} customer ${name}: ${before[name]!.length} → ${after.length} statements`);
      if (process.env.SHOW_STATEMENTS) console.log(after.map((s) => `   ${s.slice(0, 220)}`).join("\n"));
      expect(after.length, `${name}:\n${after.join("\n")}`).toBe(before[name]!.length);
    }
  });

  it("a team owner's pages ask the same number of queries with 50 members as with 3", async () => {
    const before: Record<string, string[]> = {};
    for (const [name, load] of Object.entries(ownerPages)) before[name] = await statementsFor(site.app(), load);
    await seatMembers(47);
    // What the fewer queries read is what the licenses page showed before: the team and its seats held.
    const { data } = await page(licensesRoute.loader, "/licenses", cookies.owner);
    expect(data.licenses.map((license: { team?: unknown }) => license.team)).toEqual([
      { name: "Acme", role: "billing", members: 50 },
    ]);
    for (const [name, load] of Object.entries(ownerPages)) {
      const after = await statementsFor(site.app(), load);
      console.log(`${engine} team owner ${name}: ${before[name]!.length} → ${after.length} statements`);
      if (process.env.SHOW_STATEMENTS) console.log(after.map((s) => `   ${s.slice(0, 220)}`).join("\n"));
      expect(after.length, `${name}:\n${after.join("\n")}`).toBe(before[name]!.length);
    }
  });
});
