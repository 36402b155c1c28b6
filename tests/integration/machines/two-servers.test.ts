import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desktopClient } from "../../support/desktop-api";
import { migratedPostgresTemplate } from "../../support/migrated-template";
import { createScratchDatabase } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

// Two app servers on one PostgreSQL database, as behind a load balancer (decision 0041): the last seat
// goes to exactly one of two activations racing through different servers, and the desktop API's
// limits per client IP and per license key are counted once for both servers. Ports apart from the
// other suites'.
const PORT_A = 4481;
const PORT_B = 4482;
const IP_LIMIT = 30;
const KEY_LIMIT = 8;

for (const engine of testEngines().filter((name) => name === "postgres")) {
  describe(`machines and rate limits on two app servers (${engine})`, () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let dataDir: string;
    let dropDatabase = async () => {};
    let keys: string[] = [];

    beforeAll(async () => {
      const scratch = await createScratchDatabase(
        process.env.TEST_DATABASE_URL!,
        "test_machines",
        await migratedPostgresTemplate(process.env.TEST_DATABASE_URL!),
      );
      dropDatabase = scratch.drop;
      dataDir = tempDir("fk-machines-");
      const env = {
        DATABASE_URL: scratch.url,
        TRUST_PROXY: "true",
        API_RATE_LIMIT: String(IP_LIMIT),
        API_KEY_RATE_LIMIT: String(KEY_LIMIT),
      };
      a = await startServer({ port: PORT_A, dataDir, env });
      b = await startServer({ port: PORT_B, dataDir, env });
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const rows = await client.query(
        "select license_key from licenses where status = 'active' and end_date > now() and license_type in ('monthly', 'yearly', '6_months') and not refunded order by created_at",
      );
      await client.end();
      keys = rows.rows.map((row: { license_key: string }) => row.license_key);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await dropDatabase();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("two activations racing for the last seat through two servers: exactly one wins", async () => {
      const key = keys[0]!;
      const on = (server: ServerProcess, n: number) =>
        desktopClient(server.origin, { ip: `198.51.100.${n}` }).post("/machines/activate", {
          key,
          fingerprint: `two-servers-machine-${n}`,
          name: `PC-${n}`,
        });
      expect((await on(a, 1)).json.code).toBe("VALID");
      const raced = await Promise.all([2, 3, 4, 5].map((n) => on(n % 2 ? a : b, n)));
      expect(raced.map((answer) => answer.json.code).sort()).toEqual([
        "MACHINE_LIMIT",
        "MACHINE_LIMIT",
        "MACHINE_LIMIT",
        "VALID",
      ]);
      const full = raced.find((answer) => answer.json.code === "MACHINE_LIMIT")!;
      expect(full.json.machines).toHaveLength(2);
    });

    it("a license key gets API_KEY_RATE_LIMIT a minute across both servers, not per server", async () => {
      const key = keys[1]!;
      const answers = [];
      for (let i = 0; i <= KEY_LIMIT; i++) {
        // A different client address each time: only the key's count can refuse.
        const client = desktopClient((i % 2 ? a : b).origin, { ip: `203.0.113.${i + 1}` });
        answers.push(await client.post("/licenses/validate", { key }));
      }
      expect(answers.slice(0, KEY_LIMIT).map((answer) => answer.status)).toEqual(Array(KEY_LIMIT).fill(200));
      expect(answers[KEY_LIMIT]!.status).toBe(429);
      expect(Number(answers[KEY_LIMIT]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    });

    it("a client IP gets API_RATE_LIMIT a minute across both servers", async () => {
      const client = desktopClient(a.origin, { ip: "192.0.2.77" });
      // The client fetches the keys, then calls once: two requests.
      expect((await client.get("/keys")).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 2; i < IP_LIMIT; i++) {
        const server = i % 2 ? a : b;
        const answer = await fetch(`${server.origin}/api/v1/keys`, { headers: { "X-Forwarded-For": "192.0.2.77" } });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual(Array(IP_LIMIT - 2).fill(200));
      const refused = await client.get("/updates/latest?current=1.0.0");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const onB = await fetch(`${b.origin}/api/v1/keys`, { headers: { "X-Forwarded-For": "192.0.2.77" } });
      expect(onB.status).toBe(429);
      // Another address is not limited.
      expect((await desktopClient(b.origin, { ip: "192.0.2.78" }).get("/keys")).status).toBe(200);
    });
  });
}
