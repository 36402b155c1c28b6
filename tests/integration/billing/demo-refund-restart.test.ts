import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { rowsOf } from "../../support/db-snapshot";
import { formPost, rawRequest, signIn } from "../../support/raw-http";
import { siteTemplate } from "../../support/migrated-template";
import { freePort, scratchDatabaseFor } from "../../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "the embedded data directory kept across a restart" });

const USER = DEMO_ACCOUNTS[1]!;
/** The demo provider approves a pending refund this long after the request (demo-provider.server.ts). */
const APPROVAL_MS = 10_000;

/**
 * The demo provider's delayed refund approval is a durable job (pg-boss, in the site's
 * database), not a timer: an app server stopped before the approval is due leaves it queued, and
 * the next server on the same database approves it, so the license does not stay refund_requested.
 */
describe.each(ENGINES)("demo refund approval across a restart (%s, the built server)", (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it("a refund requested just before a restart is approved by the next server", { timeout: 240_000 }, async () => {
    const dataDir = tempDir("fk-refund-");
    const database = await scratchDatabaseFor(engine, "refund", await siteTemplate(engine));
    cleanups.push(database.drop, async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const env = { AUTH_RATE_LIMIT: "100000", ...database.env };
    const inDatabase = async <T>(query: string) => {
      const handle = await openDatabase(database.env.DATABASE_URL ? { url: database.env.DATABASE_URL } : { dataDir });
      try {
        return await rowsOf<T>(handle.db, query);
      } finally {
        await handle.close();
      }
    };
    let server: ServerProcess | undefined;
    cleanups.push(async () => server?.stop());

    // First run seeds the demo data; with the site stopped, note the refundable license.
    server = await startServer({ port, dataDir, env });
    await server.stop();
    const [license] = await inDatabase<{ id: string; license_key: string }>(
      "select id, license_key from licenses where paddle_subscription_id = 'sub_demo_seed_renewing'",
    );
    expect(license).toBeDefined();

    server = await startServer({ port, dataDir, env });
    const cookie = await signIn(port, USER.email, USER.password);
    const asked = await formPost(port, "/licenses", { intent: "request-refund", licenseId: license!.id }, { cookie });
    expect(asked.status, asked.body.slice(0, 300)).toBeLessThan(400);
    const requestedAt = Date.now();
    await server.stop();
    server = undefined;
    expect(Date.now() - requestedAt, "stopped before the approval was due").toBeLessThan(APPROVAL_MS);

    const [stopped] = await inDatabase<{ status: string; jobs: number }>(
      `select status, (select count(*)::int from pgboss.job where name = 'demo-refund-approval' and state = 'created') as jobs
       from licenses where id = '${license!.id}'`,
    );
    expect(stopped).toEqual({ status: "refund_requested", jobs: 1 });

    // A new server on the same database: the queued approval runs once due.
    server = await startServer({ port, dataDir, env });
    const validate = async () => {
      const answer = await rawRequest({
        port,
        path: "/api/v1/licenses/validate",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ key: license!.license_key, nonce: `refund-${Date.now()}` }),
      });
      return (JSON.parse(answer.body) as { code: string }).code;
    };
    // Already approved if the start took longer than the rest of the delay; otherwise still requested.
    let code = await validate();
    expect(["REFUND_REQUESTED", "REFUNDED"]).toContain(code);
    const deadline = Date.now() + APPROVAL_MS + 30_000;
    while (code !== "REFUNDED" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      code = await validate();
    }
    expect(code).toBe("REFUNDED");
    await server.stop();
    server = undefined;
    const [after] = await inDatabase<{ status: string; approved: number }>(
      `select status, (select count(*)::int from demo_billing where kind = 'adjustment'
         and subscription_id = 'sub_demo_seed_renewing' and data ->> 'status' = 'approved') as approved from licenses where id = '${license!.id}'`,
    );
    expect(after).toEqual({ status: "refunded", approved: 1 });
  });
});
