import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { cookieJar, formPost, rawRequest, signIn } from "../../support/raw-http";
import { siteTemplate } from "../../support/migrated-template";
import { scratchDatabaseFor } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";
import { nextCode } from "../../support/totp";

const ENGINES = testEngines({ pglite: "always", because: "session changes are announced differently by engine" });

// The account flows over real HTTP against the built server (docs/security.md): native form posts on /profile (no JavaScript)
// keep the person signed in, and on PostgreSQL a two-factor code works once across two app servers.
// Ports apart from the other suites' (4391, 4393, 4405-4406).
const PORTS = { pglite: [4415], postgres: [4416, 4417] } as const;
const [ADMIN, DEMO] = DEMO_ACCOUNTS;

const get = (port: number, path: string, cookie: string) =>
  rawRequest({ port, method: "GET", path, headers: { Cookie: cookie } });
const sessionOf = (cookie: string) => /session_token=[^;]+/.exec(cookie)?.[0];

for (const engine of ENGINES) {
  describe(`account seams over HTTP on ${engine}`, () => {
    const servers: ServerProcess[] = [];
    let dataDir = "";
    let dropDatabase = async () => {};
    const [port, otherPort] = PORTS[engine];

    beforeAll(async () => {
      dataDir = tempDir("fk-seams-");
      const scratch = await scratchDatabaseFor(engine, "test_seams", await siteTemplate(engine));
      dropDatabase = scratch.drop;
      const env = { AUTH_RATE_LIMIT: "1000000", ...scratch.env };
      // One data directory: both servers read the secrets the first one generated.
      for (const p of [port, otherPort]) if (p) servers.push(await startServer({ port: p, dataDir, env }));
    }, 180_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await dropDatabase();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("a native post of the password change redirects to the profile with the new session cookie", async () => {
      const cookie = await signIn(port, DEMO!.email, DEMO!.password);
      const changed = await formPost(
        port,
        "/profile",
        {
          intent: "password-change",
          currentPassword: DEMO!.password,
          newPassword: "native-pass-2",
          confirm: "native-pass-2",
        },
        { cookie },
      );
      expect(changed.status).toBe(303);
      expect(changed.headers.location).toBe("/profile#password");
      const next = cookieJar(changed.headers["set-cookie"], cookie);
      expect(sessionOf(next)).toBeTruthy();
      expect(sessionOf(next)).not.toBe(sessionOf(cookie));
      expect((await get(port, "/profile", next)).status).toBe(200);
      // The old session is over.
      expect((await get(port, "/profile", cookie)).status).toBe(302);
    });

    it("a native post of turning two-factor on redirects to the profile with the new session cookie", async () => {
      const cookie = await signIn(port, DEMO!.email, "native-pass-2");
      const started = await formPost(
        port,
        "/profile",
        { intent: "two-factor-start", password: "native-pass-2" },
        { cookie },
      );
      expect(started.status).toBe(200);
      const secret = /data-testid="two-factor-secret"[^>]*>([A-Z2-7]+)</.exec(started.body)?.[1];
      expect(secret).toBeTruthy();
      const confirmed = await formPost(
        port,
        "/profile",
        { intent: "two-factor-confirm", code: await nextCode(secret!) },
        { cookie },
      );
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.location).toBe("/profile#two-factor");
      const next = cookieJar(confirmed.headers["set-cookie"], cookie);
      expect(sessionOf(next)).not.toBe(sessionOf(cookie));
      const page = await get(port, "/profile", next);
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Two-factor authentication(<!-- -->)?<[^>]*data-slot="badge"[^>]*>On</);
    });

    if (engine === "postgres") {
      it("the same two-factor code sent to two app servers at once signs in on one of them", async () => {
        const pending = await Promise.all(
          [port, otherPort!].map(async (p) => {
            const answer = await formPost(p, "/login", {
              email: ADMIN!.email,
              password: ADMIN!.password,
              redirectTo: "/",
            });
            expect(answer.headers.location).toMatch(/^\/login\/two-factor/);
            return cookieJar(answer.headers["set-cookie"]);
          }),
        );
        const code = await nextCode(ADMIN!.twoFactorSecret!);
        const answers = await Promise.all(
          [port, otherPort!].map((p, i) =>
            formPost(p, "/login/two-factor", { code, redirectTo: "/" }, { cookie: pending[i] }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([302, 401]);
        const refused = answers.find((a) => a.status === 401)!;
        expect(refused.body).toContain("That code was already used.");
      });
    }
  });
}
