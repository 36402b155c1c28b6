import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_TEXTS } from "~/domain/team-claim-texts";
import { INVITATION_ERRORS } from "~/domain/team-invitations";
import { SEAT_ERRORS } from "~/domain/team-seats";
import { dev_mails, licenses, team_members } from "~/server/db/schema";
import { acceptInvitation } from "~/server/teams/team-accept.server";
import { inviteMembers } from "~/server/teams/team-invitations.server";
import { formPost, signIn } from "../../support/raw-http";
import { freePort } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { buyTeam, givePassword, invitationToken, teamApp, tokenIn } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

// A team's last-seat race on two app servers (`node server.js` on the build) sharing one
// PostgreSQL database, as behind a load balancer: an owner and a manager invite for the last seats
// at once through different servers, then two invitees accept at once for the last seat through
// different servers. Exactly one of each wins; the other is told why with a 409; the seats held
// never exceed the seats paid. (The same accept race inside one process runs on both engines in
// tests/integration/teams/invitations.test.ts; two servers need one database both reach, which PGlite is not.)
const PASSWORD = "team-race-password-1";

/** The HTML text of a message (React escapes the apostrophe). */
const html = (text: string) => text.replaceAll("'", "&#x27;");

/** A change written by another process reaches each server's listener a moment after its commit. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The team a seat on /licenses says provides it ("provided by <team>" beside the short id). */
const providedBy = (body: string) => /provided by(?:<!-- -->| )*([^<]+)</.exec(body)?.[1];

for (const engine of testEngines().filter((name) => name === "postgres")) {
  describe(`the last seat on two app servers (${engine})`, () => {
    const { startApp, stopApp, app, demo, db, newUser } = teamApp(engine, { AUTH_RATE_LIMIT: "1000000" });
    beforeAll(startApp);
    afterAll(stopApp);
    let a: ServerProcess;
    let b: ServerProcess;
    let dataDir = "";

    beforeAll(async () => {
      // The servers run on the test's own scratch database: what the test writes, both see.
      dataDir = tempDir("fk-team-two-");
      const env = { DATABASE_URL: app().database.url!, AUTH_RATE_LIMIT: "1000000" };
      a = await startServer({ port: await freePort(), dataDir, env });
      b = await startServer({ port: await freePort(), dataDir, env });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** A confirmed account with a password, signed in on one server. */
    async function signedIn(name: string, server: ServerProcess, email?: string) {
      const user = email ? await createUser(db(), email) : await newUser(name);
      await givePassword(db(), user.id, PASSWORD);
      // Only the session cookie, as a browser sends it for a page (the session data cookie expires soon).
      const cookie = (await signIn(server.port, user.email, PASSWORD))
        .split("; ")
        .filter((pair) => pair.includes("session_token"))
        .join("; ");
      return { ...user, cookie };
    }

    /** GET as a browser does (compressed answers accepted, so signed-in pages may come from memory). */
    async function get(server: ServerProcess, path: string, cookie: string) {
      const response = await fetch(`${server.origin}${path}`, {
        headers: { "Accept-Encoding": "gzip, br", Cookie: cookie },
        redirect: "manual",
      });
      return { headers: Object.fromEntries(response.headers), body: await response.text() };
    }

    /** A signed-in page until the server answers it from memory. */
    async function untilHit(server: ServerProcess, path: string, cookie: string) {
      for (let i = 0; i < 50; i++) {
        const answer = await get(server, path, cookie);
        if (answer.headers["x-cache"] === "HIT") return answer;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${path} never came from memory on ${server.origin}`);
    }

    const seatsHeld = async (teamId: string) =>
      (
        await db()
          .select()
          .from(licenses)
          .where(and(eq(licenses.team_id, teamId), eq(licenses.team_role, "seat")))
      ).length;

    it("a renamed team shows on its member's cached /licenses on both servers at the very next request, a new member on the owner's", async () => {
      const owner = await signedIn("owner", a);
      const ann = await signedIn("ann", b);
      const { team } = await buyTeam(db(), demo(), owner, 2);
      await inviteMembers({ teamId: team.id, actorId: owner.id, emails: ann.email });
      await acceptInvitation({ token: await invitationToken(app().mails, ann.email), userId: ann.id });
      for (const server of [a, b]) {
        const kept = await untilHit(server, "/licenses", ann.cookie);
        expect(providedBy(kept.body)).toBe("Acme");
        await untilHit(server, "/licenses.data", ann.cookie);
      }
      const renamed = await formPost(
        a.port,
        "/team",
        { intent: "rename", teamId: team.id, name: "Zenith Works" },
        owner,
      );
      expect(renamed.status).toBe(200);
      for (const server of [b, a]) {
        const page = await get(server, "/licenses", ann.cookie);
        expect(page.headers["x-cache"]).not.toBe("HIT");
        expect(providedBy(page.body)).toBe("Zenith Works");
        expect((await get(server, "/licenses.data", ann.cookie)).body).toContain("Zenith Works");
      }
      // A member joining changes the owner's /licenses (the members a refund would affect).
      const bob = await newUser("bob");
      await inviteMembers({ teamId: team.id, actorId: owner.id, emails: bob.email });
      await untilHit(b, "/licenses.data", owner.cookie);
      await acceptInvitation({ token: await invitationToken(app().mails, bob.email), userId: bob.id });
      await eventually(async () =>
        expect((await get(b, "/licenses.data", owner.cookie)).headers["x-cache"]).not.toBe("HIT"),
      );
    });

    it("a domain seat offered, renamed or withdrawn shows on a colleague's cached /licenses at the next request", async () => {
      const domain = `claim-${Date.now().toString(36)}.example`;
      const owner = await signedIn("owner", a, `owner@${domain}`);
      const dana = await signedIn("dana", b, `dana@${domain}`);
      const { team } = await buyTeam(db(), demo(), owner, 2);
      const claimCards = async (server: ServerProcess) =>
        ((await get(server, "/licenses", dana.cookie)).body.match(/data-testid="claim-seat-card"/g) ?? []).length;
      const setClaim = (fields: Record<string, string>) =>
        formPost(a.port, "/team", { teamId: team.id, ...fields }, owner).then((answer) => answer.status);
      for (const server of [a, b])
        expect((await untilHit(server, "/licenses", dana.cookie)).body).not.toContain(CLAIM_TEXTS.take);
      expect(await setClaim({ intent: "domain-claim", enabled: "on" })).toBe(200);
      for (const server of [b, a]) expect(await claimCards(server)).toBe(1);
      for (const server of [a, b]) await untilHit(server, "/licenses", dana.cookie);
      expect(await setClaim({ intent: "rename", name: "Dana's Company" })).toBe(200);
      for (const server of [b, a])
        expect((await get(server, "/licenses", dana.cookie)).body).toContain(
          html(CLAIM_TEXTS.cardTitle("Dana's Company")),
        );
      for (const server of [a, b]) await untilHit(server, "/licenses", dana.cookie);
      expect(await setClaim({ intent: "domain-claim" })).toBe(200);
      for (const server of [b, a]) expect(await claimCards(server)).toBe(0);
    });

    it("owner and manager invite at once through two servers: one invitation for the last seats", async () => {
      const owner = await signedIn("owner", a);
      const manager = await signedIn("manager", b);
      const { team } = await buyTeam(db(), demo(), owner, 3);
      await db()
        .insert(team_members)
        .values({ team_id: team.id, user_id: manager.id, role: "manager", created_at: new Date() });
      expect((await formPost(a.port, "/team", { intent: "take-seat", teamId: team.id }, owner)).status).toBe(200);
      const invite = (server: ServerProcess, by: { cookie: string }, emails: string) =>
        formPost(server.port, "/team", { intent: "invite", teamId: team.id, emails }, by);
      // Two seats free: each inviter asks for both.
      const answers = await Promise.all([
        invite(a, owner, `ann-${team.id}@example.com, bob-${team.id}@example.com`),
        invite(b, manager, `cy-${team.id}@example.com, dee-${team.id}@example.com`),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      expect(refused.body).toContain(html(SEAT_ERRORS.tooManyInvitations(0)));
      expect(await seatsHeld(team.id)).toBe(1);
    });

    it("two invitees accept the last seat at once through two servers: one seat, one clear 409", async () => {
      const owner = await signedIn("owner", a);
      const ann = await signedIn("ann", a);
      const bob = await signedIn("bob", b);
      const { team } = await buyTeam(db(), demo(), owner, 2);
      const invited = await formPost(
        b.port,
        "/team",
        { intent: "invite", teamId: team.id, emails: `${ann.email} ${bob.email}` },
        owner,
      );
      expect(invited.status).toBe(200);
      // The owner takes a seat on the other server: one seat left for two open invitations.
      expect((await formPost(a.port, "/team", { intent: "take-seat", teamId: team.id }, owner)).status).toBe(200);
      const mails = await db().select().from(dev_mails);
      const accept = (server: ServerProcess, who: { email: string; cookie: string }) =>
        formPost(
          server.port,
          `/team/invitation?token=${tokenIn(mails, who.email)}`,
          {
            token: tokenIn(mails, who.email),
          },
          who,
        );
      const answers = await Promise.all([accept(a, ann), accept(b, bob)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409]);
      expect(answers.find((answer) => answer.status === 302)!.headers.location).toBe("/licenses");
      expect(answers.find((answer) => answer.status === 409)!.body).toContain(html(SEAT_ERRORS.noFreeSeat));
      expect(await seatsHeld(team.id)).toBe(2);
      // The loser's invitation stays open (a seat may be added later) but cannot be accepted now.
      const loser = answers[0]!.status === 409 ? ann : bob;
      const again = await accept(answers[0]!.status === 409 ? a : b, loser);
      expect(again.status).toBe(409);
      expect(again.body).not.toContain(html(INVITATION_ERRORS.accepted));
      expect(await seatsHeld(team.id)).toBe(2);
    });
  });
}
