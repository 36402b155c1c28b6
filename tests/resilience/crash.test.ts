import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
import { rowsOf } from "../support/db-snapshot";
import { formPost, rawRequest, signIn } from "../support/raw-http";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";

/**
 * kill -9 of the embedded site (PGlite) while registrations and demo purchases run, ten times
 * over on one data directory: after each crash the database opens, and every write a client was
 * told had succeeded (a 2xx/3xx answer) is in it. Between rounds, with the site down, the test
 * opens the database itself to check, and confirms the new accounts' addresses (in SQL).
 */

const PORT = 4332;
const ROUNDS = 10;
const PASSWORD = "crash-pass-1";
const BUYERS = 4;

/**
 * One demo purchase as the pricing page makes it: the server creates the checkout, then the demo
 * overlay's Pay. The transaction id when the Pay was acknowledged, else null.
 */
async function buy(cookie: string, plan: string): Promise<string | null> {
  const created = await formPost(PORT, "/pricing.data", { intent: "checkout", plan }, { cookie });
  const transactionId = created.status === 200 ? /txn_[A-Za-z0-9_]+/.exec(created.body)?.[0] : undefined;
  if (!transactionId) return null;
  const paid = await formPost(PORT, "/pricing.data", { intent: "demo-pay", transactionId }, { cookie });
  return paid.status === 200 ? transactionId : null;
}

describe("crash: kill -9 during registrations and purchases loses no acknowledged write (embedded PGlite)", () => {
  const dataDir = tempDir("fk-crash-");
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${ROUNDS} rounds`, { timeout: 400_000 }, async () => {
    const env = { AUTH_RATE_LIMIT: "1000000" };
    const registered: string[] = [];
    const purchases: { transactionId: string; email: string }[] = [];
    let n = 0;
    const register = async (): Promise<string | null> => {
      const email = `crash-${++n}@example.com`;
      const response = await formPost(PORT, "/register", {
        full_name: `Crash ${n}`,
        email,
        password: PASSWORD,
        terms: "on",
      });
      return response.status === 302 ? email : null;
    };

    // The buyers: registered through the site, confirmed in SQL while it is down.
    server = await startServer({ port: PORT, dataDir, env });
    const buyers: string[] = [];
    for (let i = 0; i < BUYERS; i++) buyers.push((await register())!);
    registered.push(...buyers);
    await server.kill9();

    let lost: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // With the site down: every acknowledged write so far is there; new accounts get confirmed.
      const handle = await openDatabase({ dataDir });
      try {
        const users = new Set(
          (
            await rowsOf<{ email: string }>(handle.db, "select u.email from users u join profiles p on p.id = u.id")
          ).map((r) => r.email),
        );
        const paid = new Set(
          (
            await rowsOf<{ id: string }>(
              handle.db,
              "select p.id from payments p join licenses l on l.id = p.license_id",
            )
          ).map((r) => r.id),
        );
        lost = [
          ...registered.filter((email) => !users.has(email)).map((email) => `registration of ${email}`),
          ...purchases
            .filter((p) => !paid.has(p.transactionId))
            .map((p) => `purchase ${p.transactionId} by ${p.email}`),
        ];
        expect(lost, `after round ${round - 1}`).toEqual([]);
        await rowsOf(handle.db, "update users set email_verified = true where email like 'crash-%'");
      } finally {
        await handle.close();
      }

      server = await startServer({ port: PORT, dataDir, env });
      const cookies = await Promise.all(buyers.map((email) => signIn(PORT, email, PASSWORD)));
      let crashed = false;
      const loop = async (work: () => Promise<void>) => {
        while (!crashed) {
          try {
            await work();
          } catch {
            return; // the connection died with the server
          }
        }
      };
      const plans = ["monthly", "6_months", "yearly"];
      const drivers = [
        loop(async () => {
          const email = await register();
          if (email) registered.push(email);
        }),
        loop(async () => {
          const email = await register();
          if (email) registered.push(email);
        }),
        ...cookies.map((cookie, i) =>
          loop(async () => {
            const transactionId = await buy(cookie, plans[(i + round) % plans.length]!);
            if (transactionId) purchases.push({ transactionId, email: buyers[i]! });
          }),
        ),
      ];
      // Let writes get going (at least one registration and one purchase acknowledged this round,
      // however busy the machine is), then pull the plug at a different moment each round.
      const before = { registered: registered.length, purchases: purchases.length };
      const started = Date.now();
      while (
        (registered.length === before.registered || purchases.length === before.purchases) &&
        Date.now() - started < 30_000
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, (round * 397) % 700));
      crashed = true;
      await server.kill9();
      await Promise.all(drivers);
    }

    const handle = await openDatabase({ dataDir });
    try {
      const users = new Set(
        (await rowsOf<{ email: string }>(handle.db, "select u.email from users u join profiles p on p.id = u.id")).map(
          (r) => r.email,
        ),
      );
      const paid = new Set(
        (
          await rowsOf<{ id: string }>(handle.db, "select p.id from payments p join licenses l on l.id = p.license_id")
        ).map((r) => r.id),
      );
      lost = [
        ...registered.filter((email) => !users.has(email)).map((email) => `registration of ${email}`),
        ...purchases.filter((p) => !paid.has(p.transactionId)).map((p) => `purchase ${p.transactionId} by ${p.email}`),
      ];
    } finally {
      await handle.close();
    }
    const acknowledged = registered.length + purchases.length;
    console.log(
      `[crash] rounds: ${ROUNDS}, acknowledged writes: ${acknowledged} (${registered.length} registrations, ${purchases.length} purchases), lost: ${lost.length}`,
    );
    expect(purchases.length, "some purchases were acknowledged").toBeGreaterThan(0);
    expect(lost).toEqual([]);
    // And the site starts again on what the crashes left.
    server = await startServer({ port: PORT, dataDir, env });
    expect((await rawRequest({ port: PORT, method: "GET", path: "/healthz" })).status).toBe(200);
    await server.stop();
    server = undefined;
  });
});
