import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { days, envelope, signed, transaction } from "../support/paddle-fixtures";
import { formPost, rawRequest, signIn } from "../support/raw-http";
import { createScratchDatabase } from "../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";

/**
 * Two app servers on one PostgreSQL, as behind a load balancer: they keep no state of their own,
 * so a session made on one works on the other, the per-address limits count on both, and a
 * webhook event delivered to both at once is applied once. (On PGlite there is one process per
 * data directory, so this does not apply there.) What one instance's change does to the other's
 * caches is tests/integration/cache/two-servers.test.ts's.
 */

const PORTS = [4333, 4334] as const;
const LIMIT = 3;
const SECRETS = {
  BETTER_AUTH_SECRET: "two-instances-auth-secret-0123456789",
  LICENSE_SECRET: "two-instances-license-secret-0123456789",
  LICENSE_SALT: "two-instances-salt",
  DEMO_WEBHOOK_SECRET: "whsec_two_instances_0123456789abcdef",
};

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))(
  "two app instances on one database (PostgreSQL only: TEST_DATABASE_URL)",
  () => {
    const dirs = [tempDir("fk-two-a-"), tempDir("fk-two-b-")];
    let servers: ServerProcess[] = [];
    let client: pg.Client;
    let dropDatabase = async () => {};

    beforeAll(async () => {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, "resilience");
      dropDatabase = scratch.drop;
      const env = { ...SECRETS, DATABASE_URL: scratch.url, AUTH_RATE_LIMIT: String(LIMIT) };
      // Started together: migrations and the demo seed serialise on advisory locks.
      servers = await Promise.all(PORTS.map((port, i) => startServer({ port, dataDir: dirs[i]!, env })));
      client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
    }, 240_000);

    afterAll(async () => {
      await client?.end();
      await Promise.all(servers.map((s) => s.stop()));
      await dropDatabase();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("a session made on one instance works on the other", async () => {
      const cookie = await signIn(PORTS[0], "demo@forgekit.example", "user-demo-1");
      const page = await rawRequest({ port: PORTS[1], method: "GET", path: "/profile", headers: { Cookie: cookie } });
      expect(page.status).toBe(200);
      expect(page.body).toContain("demo@forgekit.example");
    });

    it("the per-address limit counts requests to both instances", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT; i++) {
        // Different addresses each time: only the client address's limit is in play.
        const response = await formPost(PORTS[0], "/forgot-password", { email: `limit-${i}@example.com` });
        statuses.push(response.status as number);
      }
      expect(statuses.every((s) => s < 400)).toBe(true);
      const over = await formPost(PORTS[1], "/forgot-password", { email: "limit-last@example.com" });
      expect(over.status).toBe(429);
    });

    it("one webhook event delivered to both instances at once is applied once", async () => {
      const [{ id: userId }] = (
        await client.query<{ id: string }>("select id from users where email = 'demo@forgekit.example'")
      ).rows as [{ id: string }];
      const txn = transaction({
        userId,
        planType: "monthly",
        priceId: "pri_demo_monthly",
        amountCents: 900,
        start: new Date(),
        end: days(30),
      });
      const event = envelope("transaction.completed", txn);
      const { rawBody, signature } = signed(SECRETS.DEMO_WEBHOOK_SECRET, event);
      const answers = await Promise.all(
        PORTS.map((port) =>
          rawRequest({
            port,
            path: "/api/webhooks/paddle",
            headers: { "Content-Type": "application/json", "Paddle-Signature": signature },
            body: rawBody,
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const count = async (query: string, value: string) =>
        Number((await client.query<{ n: string }>(query, [value])).rows[0]!.n);
      expect(await count("select count(*) as n from webhook_events where event_id = $1", event.event_id)).toBe(1);
      expect(
        await count("select count(*) as n from licenses where paddle_subscription_id = $1", txn.subscription_id!),
      ).toBe(1);
      expect(await count("select count(*) as n from payments where id = $1", txn.id)).toBe(1);
      console.log(`[two-instances] answers: ${answers.map((a) => JSON.parse(a.body).message).join(" / ")}`);
    });
  },
);
