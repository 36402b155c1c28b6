import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desktopClient, type SignedAnswer } from "../../support/desktop-api";
import { migratedPostgresTemplate } from "../../support/migrated-template";
import { createScratchDatabase, freePort } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

// Floating leases on two app servers (`node server.js` on the build) sharing one PostgreSQL database,
// as behind a load balancer (decision 0069): 20 machines racing for a yearly license's 3 leases
// through both servers get exactly 3, and a lease freed by a return or by its end goes to exactly
// one of the next racers. (One server's race runs on both engines in leases.test.ts; two servers need
// one database both reach, which PGlite is not.)
const TAKERS = 20;
const LIMIT = 3;
const NONCE = "nonce-leases-race";

for (const engine of testEngines().filter((name) => name === "postgres")) {
  describe(`floating leases on two app servers (${engine})`, () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let dataDir = "";
    let dropDatabase = async () => {};
    let client: pg.Client;
    let key = "";
    let licenseId = "";

    beforeAll(async () => {
      const scratch = await createScratchDatabase(
        process.env.TEST_DATABASE_URL!,
        "test_leases",
        await migratedPostgresTemplate(process.env.TEST_DATABASE_URL!),
      );
      dropDatabase = scratch.drop;
      dataDir = tempDir("fk-leases-");
      const env = { DATABASE_URL: scratch.url, API_RATE_LIMIT: "100000", API_KEY_RATE_LIMIT: "100000" };
      a = await startServer({ port: await freePort(), dataDir, env });
      b = await startServer({ port: await freePort(), dataDir, env });
      client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      // The demo customer's yearly license (the plan table lends it 3 floating leases).
      const rows = await client.query(
        "select id, license_key from licenses where paddle_subscription_id = 'sub_demo_seed_cancelling'",
      );
      key = rows.rows[0].license_key;
      licenseId = rows.rows[0].id;
    }, 180_000);

    afterAll(async () => {
      await client?.end();
      await Promise.all([a?.stop(), b?.stop()]);
      await dropDatabase();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const liveLeases = async () =>
      Number(
        (
          await client.query("select count(*)::int as n from leases where license_id = $1 and expires_at > now()", [
            licenseId,
          ])
        ).rows[0].n,
      );

    /** `count` machines (fingerprints from `first` on) taking a lease at once, half through each server. */
    function race(first: number, count: number): Promise<SignedAnswer[]> {
      return Promise.all(
        Array.from({ length: count }, (_, i) =>
          desktopClient((i % 2 ? a : b).origin).call("POST", "/leases", {
            nonce: NONCE,
            key,
            fingerprint: `race-fingerprint-${String(first + i).padStart(4, "0")}`,
            name: `AGENT-${first + i}`,
          }),
        ),
      );
    }

    const codes = (answers: SignedAnswer[]) => answers.map((answer) => answer.json.code as string).sort();
    const winners = (answers: SignedAnswer[]) => answers.filter((answer) => answer.json.code === "VALID");

    it("20 machines racing through two servers for 3 leases: exactly 3 win, 17 hear LEASE_LIMIT", async () => {
      const answers = await race(0, TAKERS);
      expect(codes(answers)).toEqual([...Array(TAKERS - LIMIT).fill("LEASE_LIMIT"), ...Array(LIMIT).fill("VALID")]);
      for (const refused of answers.filter((answer) => answer.json.code === "LEASE_LIMIT")) {
        expect(refused.status).toBe(409);
        expect(refused.json).toMatchObject({ floating_limit: LIMIT, leases_in_use: LIMIT });
      }
      expect(new Set(winners(answers).map((answer) => answer.json.lease.id)).size).toBe(LIMIT);
      expect(await liveLeases()).toBe(LIMIT);
    });

    it("a lease returned on one server, and one that ended, each go to exactly one of the next 20 racers", async () => {
      const held = await client.query<{ id: string }>(
        "select id from leases where license_id = $1 and expires_at > now() order by taken_at",
        [licenseId],
      );
      expect(held.rows).toHaveLength(LIMIT);
      const [first, second] = held.rows as [{ id: string }, { id: string }];
      // Heartbeats reach the lease on either server.
      for (const server of [a, b]) {
        const beat = await desktopClient(server.origin).call("POST", `/leases/${first.id}/heartbeat`, {
          nonce: NONCE,
          key,
        });
        expect(beat.json).toMatchObject({ code: "VALID", lease: { id: first.id } });
      }
      const returned = await desktopClient(b.origin).call(
        "DELETE",
        `/leases/${first.id}?key=${encodeURIComponent(key)}&nonce=${NONCE}`,
      );
      expect(returned.json.returned).toBe(true);
      expect(winners(await race(100, TAKERS))).toHaveLength(1);
      expect(await liveLeases()).toBe(LIMIT);
      await client.query("update leases set expires_at = now() - interval '1 second' where id = $1", [second.id]);
      const late = await desktopClient(a.origin).call("POST", `/leases/${second.id}/heartbeat`, { nonce: NONCE, key });
      expect(late.status).toBe(410);
      expect(late.json.code).toBe("LEASE_EXPIRED");
      expect(winners(await race(200, TAKERS))).toHaveLength(1);
      expect(await liveLeases()).toBe(LIMIT);
    });
  });
}
