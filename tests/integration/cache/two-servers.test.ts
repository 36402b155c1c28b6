import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formPost, signIn } from "../../support/raw-http";
import { migratedPostgresTemplate } from "../../support/migrated-template";
import { createScratchDatabase } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

// Two app servers on one PostgreSQL database, as behind a load balancer. Each keeps anonymous pages
// (page cache) and signed-in sessions (session cache) in memory; what one changes must hold on the
// other at its very next request. Ports apart from the other suites' (4393 page cache, 4391 run modes).
const PORT_A = 4405;
const PORT_B = 4406;
const DEMO = { email: "demo@forgekit.example", password: "user-demo-1" };
const ADMIN = { email: "admin@forgekit.example", password: "admin-demo-1" };

/** GET as a browser does (compressed answers accepted, so signed-in pages may come from memory). */
async function get(port: number, path: string, cookie?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { "Accept-Encoding": "gzip, br", ...(cookie ? { Cookie: cookie } : {}) },
    redirect: "manual",
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/** A page until one server answers it from memory. */
async function untilHit(port: number, path: string, cookie?: string) {
  for (let i = 0; i < 50; i++) {
    const answer = await get(port, path, cookie);
    if (answer.headers["x-cache"] === "HIT") return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never came from memory on ${port}`);
}

/**
 * A change written to the database by another process reaches each server's LISTEN connection a
 * moment after its commit (NOTIFY is asynchronous): what it shows is checked for up to two seconds.
 */
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

const shortIds = (html: string) => new Set(html.match(/FK-[0-9A-Z]{4}-[0-9A-Z]{4}/g) ?? []);

/** Only the session cookie: what a browser sends for a signed-in page. */
const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token"))
    .join("; ");

for (const engine of testEngines().filter((name) => name === "postgres")) {
  describe(`two app servers on one ${engine} database`, () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let dataDir: string;
    let dropDatabase = async () => {};
    let databaseUrl = "";

    beforeAll(async () => {
      const scratch = await createScratchDatabase(
        process.env.TEST_DATABASE_URL!,
        "test_two",
        await migratedPostgresTemplate(process.env.TEST_DATABASE_URL!),
      );
      dropDatabase = scratch.drop;
      databaseUrl = scratch.url;
      // One data directory: both read the secrets the first one generated (one cookie signature).
      dataDir = tempDir("fk-two-");
      const env = { DATABASE_URL: databaseUrl, AUTH_RATE_LIMIT: "1000000" };
      a = await startServer({ port: PORT_A, dataDir, env });
      b = await startServer({ port: PORT_B, dataDir, env });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await dropDatabase();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("signing out on one server signs the session out on the other at its very next request", async () => {
      const cookie = sessionOnly(await signIn(PORT_A, DEMO.email, DEMO.password));
      // Both servers have seen (and remember) the session.
      for (let i = 0; i < 3; i++) {
        for (const port of [PORT_A, PORT_B]) {
          const page = await get(port, "/licenses", cookie);
          expect(page.status).toBe(200);
          expect(page.body).toContain("Your licenses");
        }
      }
      const out = await formPost(PORT_A, "/logout", {}, { cookie });
      expect(out.status).toBe(302);
      for (const port of [PORT_B, PORT_A]) {
        const after = await get(port, "/licenses", cookie);
        expect(after.status).toBe(302);
        expect(after.headers.location).toBe("/login?redirectTo=%2Flicenses");
        const data = await get(port, "/licenses.data", cookie);
        expect(data.body).not.toContain(DEMO.email);
      }
    });

    it("ending one of two sessions refuses it on both servers at once and leaves the other signed in", async () => {
      const first = sessionOnly(await signIn(PORT_A, DEMO.email, DEMO.password));
      const second = sessionOnly(await signIn(PORT_B, DEMO.email, DEMO.password));
      for (const [port, cookie] of [
        [PORT_A, first],
        [PORT_B, first],
        [PORT_A, second],
        [PORT_B, second],
      ] as const) {
        expect((await get(port, "/licenses", cookie)).status).toBe(200);
      }
      // Signing out of one session on B leaves the other session signed in on both servers.
      expect((await formPost(PORT_B, "/logout", {}, { cookie: second })).status).toBe(302);
      expect((await get(PORT_A, "/licenses", second)).status).toBe(302);
      expect((await get(PORT_A, "/licenses", first)).status).toBe(200);
      expect((await get(PORT_B, "/licenses", first)).status).toBe(200);
    });

    it("a changed name shows on the other server's signed-in pages at the next request", async () => {
      const cookie = sessionOnly(await signIn(PORT_A, DEMO.email, DEMO.password));
      for (let i = 0; i < 2; i++) {
        const before = await get(PORT_B, "/licenses.data", cookie);
        expect(before.status).toBe(200);
        expect(before.body).toContain("Dana Developer");
      }
      const renamed = `Dana Renamed ${Date.now() % 1000}`;
      const saved = await formPost(
        PORT_A,
        "/profile",
        { full_name: renamed, company_name: "", email: DEMO.email },
        { cookie },
      );
      expect(saved.status).toBe(200);
      const after = await get(PORT_B, "/licenses.data", cookie);
      expect(after.body).toContain(renamed);
      expect(after.body).not.toContain("Dana Developer");
    });

    it("an admin's change to a customer's licenses on one server shows on the other's /licenses at the next request", async () => {
      const customer = sessionOnly(await signIn(PORT_B, DEMO.email, DEMO.password));
      const before = await untilHit(PORT_B, "/licenses", customer);
      await untilHit(PORT_B, "/licenses.data", customer);
      const admin = sessionOnly(await signIn(PORT_A, ADMIN.email, ADMIN.password));
      const search = await get(PORT_A, `/admin/users?q=${encodeURIComponent(DEMO.email)}`, admin);
      const userId = /\/admin\/users\/([0-9a-f-]{36})/.exec(search.body)![1]!;
      const added = await formPost(
        PORT_A,
        `/admin/users/${userId}`,
        { intent: "add-tester", days: "14" },
        { cookie: admin },
      );
      expect(added.status).toBe(200);
      const after = await get(PORT_B, "/licenses", customer);
      expect(after.headers["x-cache"]).not.toBe("HIT");
      const addedIds = [...shortIds(after.body)].filter((id) => !shortIds(before.body).has(id));
      expect(addedIds).toHaveLength(1);
      const data = await get(PORT_B, "/licenses.data", customer);
      expect(data.headers["x-cache"]).not.toBe("HIT");
      expect(data.body).toContain(addedIds[0]);
    });

    it("a license changed in the database by anything else (a script, a job) shows on both servers at once", async () => {
      const customer = sessionOnly(await signIn(PORT_A, DEMO.email, DEMO.password));
      const inactive = (html: string) => Number(/Inactive licenses \(<!-- -->(\d+)<!-- -->\)/.exec(html)?.[1] ?? 0);
      const before = new Map<number, number>();
      for (const port of [PORT_A, PORT_B])
        before.set(port, inactive((await untilHit(port, "/licenses", customer)).body));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ short_id: string }>(
          `update licenses set status = 'revoked' where id = (
             select l.id from licenses l join users u on u.id = l.user_id
             where u.email = $1 and l.status = 'active' order by l.created_at desc limit 1)
           returning short_id`,
          [DEMO.email],
        );
        expect(rows).toHaveLength(1);
      } finally {
        await client.end();
      }
      for (const port of [PORT_A, PORT_B]) {
        await eventually(async () => {
          const after = await get(port, "/licenses", customer);
          expect(after.headers["x-cache"]).not.toBe("HIT");
          expect(inactive(after.body)).toBe(before.get(port)! + 1);
        });
      }
    });

    it("a payment changed in the database shows on both servers' /billing at once", async () => {
      const customer = sessionOnly(await signIn(PORT_B, DEMO.email, DEMO.password));
      for (const port of [PORT_A, PORT_B]) await untilHit(port, "/billing", customer);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rowCount } = await client.query(
          `update payments set kind = kind where user_id = (select id from users where email = $1)`,
          [DEMO.email],
        );
        expect(rowCount).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
      for (const port of [PORT_A, PORT_B])
        await eventually(async () =>
          expect((await get(port, "/billing", customer)).headers["x-cache"]).not.toBe("HIT"),
        );
    });

    it("a role or session changed in the database by a script takes effect on both servers at once", async () => {
      const admin = sessionOnly(await signIn(PORT_A, ADMIN.email, ADMIN.password));
      for (const port of [PORT_A, PORT_B]) {
        await untilHit(port, "/admin", admin);
        await untilHit(port, "/licenses", admin);
      }
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const sql = (text: string) => client.query(text, [ADMIN.email]);
      try {
        await sql(`update user_roles set role = 'user' where user_id = (select id from users where email = $1)`);
        for (const port of [PORT_A, PORT_B]) {
          await eventually(async () => {
            const demoted = await get(port, "/admin", admin);
            expect(demoted.status).toBe(302);
            expect(demoted.headers.location).toBe("/");
          });
        }
        await sql(`update user_roles set role = 'admin' where user_id = (select id from users where email = $1)`);
        for (const port of [PORT_A, PORT_B])
          await eventually(async () => expect((await get(port, "/admin", admin)).status).toBe(200));
        // The operator ends every session of the account.
        await sql(`delete from sessions where user_id = (select id from users where email = $1)`);
        for (const port of [PORT_A, PORT_B]) {
          await eventually(async () => {
            const ended = await get(port, "/licenses", admin);
            expect(ended.status).toBe(302);
            expect(ended.headers.location).toBe("/login?redirectTo=%2Flicenses");
          });
        }
      } finally {
        await client.query(
          `update user_roles set role = 'admin' where user_id = (select id from users where email = $1)`,
          [ADMIN.email],
        );
        await client.end();
      }
    });

    it("an admin's release change on one server shows on the other's /download at the next request", async () => {
      const cached = await untilHit(PORT_B, "/download");
      const version = `8.${Date.now() % 1000}.2`;
      expect(cached.body).not.toContain(version);
      const cookie = await signIn(PORT_A, ADMIN.email, ADMIN.password);
      const saved = await formPost(
        PORT_A,
        "/admin/releases",
        {
          intent: "save-release",
          version,
          title: "Two servers",
          release_date: "2031-01-01",
          release_notes: "Seen everywhere",
          publish: "1",
        },
        { cookie },
      );
      expect(saved.status).toBe(200);
      // PostgreSQL tells every listening server at commit, before the admin even has the answer.
      const after = await get(PORT_B, "/download");
      expect(after.headers["x-cache"]).toBe("MISS");
      expect(after.body).toContain(version);
    });
  });
}
