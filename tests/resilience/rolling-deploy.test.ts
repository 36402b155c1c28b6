import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { days, envelope, signed, transaction } from "../support/paddle-fixtures";
import { cookieJar, rawRequest } from "../support/raw-http";
import { createScratchDatabase, freePort } from "../support/scratch";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";
import { selfSignedCertificate, siteConfig, startNginx, tlsClient, type Nginx } from "../support/load-balancer";
import { sleep, traffic, validate, type Client, type Figures } from "../support/steady-traffic";

/**
 * A rolling deploy behind a load balancer (docs/deployment.md, decision 0045): two app
 * instances on one PostgreSQL behind nginx with TLS (deploy/nginx.conf, a self-signed certificate)
 * and TRUST_PROXY=1. Steady traffic (anonymous pages, signed-in pages, desktop API validations,
 * webhook deliveries) runs while each instance in turn gets SIGTERM and is replaced by a new one on
 * its port. Nothing may fail: no request, no webhook (the provider's retry of a non-2xx delivery
 * counts, as Paddle retries), no session; the per-address limit counted before a restart holds after
 * it, and both new instances show the same licenses. PostgreSQL: TEST_DATABASE_URL, else the local
 * server CI runs (postgres://root@127.0.0.1:5432/test); a missing one fails the test, it never skips.
 * Then, on one instance directly: a request in flight when SIGTERM comes is answered, not cut.
 */

const BASE = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const SESSIONS = 5;
const LIMIT = 8;
const DEMO = { email: "demo@forgekit.example", password: "user-demo-1" };
const SECRETS = {
  BETTER_AUTH_SECRET: "rolling-deploy-auth-secret-0123456789",
  LICENSE_SECRET: "rolling-deploy-license-secret-0123456789",
  LICENSE_SALT: "rolling-deploy-salt",
  DEMO_WEBHOOK_SECRET: "whsec_rolling_deploy_0123456789abcdef",
};

describe("a rolling deploy behind nginx", () => {
  const dirs: string[] = [];
  const ports: number[] = [];
  let servers: ServerProcess[] = [];
  let nginx: Nginx | undefined;
  let client: Client;
  let db: pg.Client;
  let drop = async () => {};
  let env: Record<string, string>;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(BASE, "rolling").catch((error: Error) => {
      throw new Error(`the rolling-deploy test needs PostgreSQL at ${BASE} (TEST_DATABASE_URL): ${error.message}`);
    });
    drop = scratch.drop;
    const lbDir = tempDir("fk-nginx-");
    dirs.push(lbDir);
    const [httpsPort, httpPort, a, b] = [await freePort(), await freePort(), await freePort(), await freePort()];
    ports.push(a!, b!);
    env = {
      ...SECRETS,
      DATABASE_URL: scratch.url,
      TRUST_PROXY: "1",
      PUBLIC_URL: `https://127.0.0.1:${httpsPort}`,
      AUTH_RATE_LIMIT: String(LIMIT),
      // All the traffic comes from one address: the desktop API's per-address limit is not under test here.
      API_RATE_LIMIT: "100000",
      SHUTDOWN_DELAY_SECONDS: "1",
      SHUTDOWN_TIMEOUT_SECONDS: "10",
    };
    servers = await Promise.all(ports.map((port) => startServer({ port, dataDir: newDir(), env })));
    const tls = selfSignedCertificate(lbDir);
    client = tlsClient(httpsPort!, tls.pem);
    const site = siteConfig({ httpPort: httpPort!, httpsPort: httpsPort!, upstreams: ports, ...tls });
    nginx = await startNginx(lbDir, site, async () => (await client.request("GET", "/healthz")).status === 200);
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  }, 240_000);

  function newDir(): string {
    const dir = tempDir("fk-rolling-");
    dirs.push(dir);
    return dir;
  }

  afterAll(async () => {
    client?.close();
    await db?.end();
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Signs the demo customer in through the balancer: the Cookie header to send next. */
  async function signIn(): Promise<string> {
    const form = new URLSearchParams({ email: DEMO.email, password: DEMO.password, redirectTo: "/" }).toString();
    const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: client.origin };
    const answer = await client.request("POST", "/login", headers, form);
    expect([302, 303], answer.body.slice(0, 300)).toContain(answer.status);
    return cookieJar(answer.headers["set-cookie"] as string[]);
  }

  /** SIGTERM to instance `i`: /readyz answers 503 at once, the process exits 0; a new one takes its port. */
  async function restart(i: number): Promise<{ exit: string; readyzWhileStopping: number; stoppedMs: number }> {
    const old = servers[i]!;
    const started = Date.now();
    process.kill(old.pid, "SIGTERM");
    // Within SHUTDOWN_DELAY_SECONDS the listener is still open: /readyz must say 503 as soon as the signal is handled.
    let readyz = await rawRequest({ port: old.port, method: "GET", path: "/readyz", timeoutMs: 2000 });
    while (readyz.status === 200 && Date.now() - started < 500) {
      await sleep(20);
      readyz = await rawRequest({ port: old.port, method: "GET", path: "/readyz", timeoutMs: 2000 });
    }
    const exit = await old.exited;
    const stoppedMs = Date.now() - started;
    servers[i] = await startServer({ port: old.port, dataDir: newDir(), env });
    for (let tries = 0; tries < 100; tries++) {
      const ready = await rawRequest({ port: old.port, method: "GET", path: "/readyz", timeoutMs: 2000 });
      if (ready.status === 200) break;
      await sleep(100);
    }
    return { exit, readyzWhileStopping: readyz.status as number, stoppedMs };
  }

  it("restarts both instances under traffic: nothing fails, nothing is lost", async () => {
    const cookies: string[] = [];
    for (let i = 0; i < SESSIONS; i++) cookies.push(await signIn());
    const [{ id: userId }] = (await db.query<{ id: string }>("select id from users where email = $1", [DEMO.email]))
      .rows as [{ id: string }];
    const apiAnswer = await validate(client);
    expect(apiAnswer).toMatch(/^\d{3} [A-Z_]+$/);
    const figures: Figures = {
      sent: 0,
      failed: [],
      webhooks: { sent: 0, delivered: 0, retried: [], ids: [], subscriptions: [] },
    };
    let running = true;
    const load = traffic(
      client,
      { cookies, apiAnswer, userId, webhookSecret: SECRETS.DEMO_WEBHOOK_SECRET },
      () => running,
      figures,
    );
    await sleep(3000);

    // The per-address limit: LIMIT reset requests for one address now; the next one after a restart is refused.
    const reset = (email: string) =>
      client.request(
        "POST",
        "/forgot-password",
        { "Content-Type": "application/x-www-form-urlencoded", Origin: client.origin },
        new URLSearchParams({ email }).toString(),
      );
    const limited = "rolling-limit@example.com";
    for (let i = 0; i < LIMIT; i++) expect((await reset(limited)).status).toBeLessThan(400);

    const restarts = [];
    for (const i of [0, 1]) {
      restarts.push(await restart(i));
      if (i === 0) expect((await reset(limited)).status).toBe(429);
      await sleep(2000);
    }
    running = false;
    await load;

    // Every session still signs in on both new instances, straight to each (not through the balancer).
    let kept = 0;
    for (const cookie of cookies) {
      const answers = await Promise.all(
        ports.map((port) => rawRequest({ port, method: "GET", path: "/profile", headers: { Cookie: cookie } })),
      );
      if (answers.every((a) => a.status === 200 && a.body.includes(DEMO.email))) kept++;
    }
    // Both instances show every license the webhooks made (their caches heard every change).
    const made = (
      await db.query<{ short_id: string }>("select short_id from licenses where paddle_subscription_id = any($1)", [
        figures.webhooks.subscriptions,
      ])
    ).rows.map((r) => r.short_id);
    const shown = await Promise.all(
      ports.map(async (port) => {
        const page = await fetch(`http://127.0.0.1:${port}/licenses`, { headers: { Cookie: cookies[0]! } });
        const body = await page.text();
        return made.filter((id) => body.includes(`data-short-id="${id}"`)).length;
      }),
    );
    const recorded = Number(
      (
        await db.query<{ n: string }>("select count(*) as n from webhook_events where event_id = any($1)", [
          figures.webhooks.ids,
        ])
      ).rows[0]!.n,
    );

    console.log(
      `[rolling-deploy] requests sent ${figures.sent}, failed ${figures.failed.length}; webhooks sent ` +
        `${figures.webhooks.sent}, delivered ${figures.webhooks.delivered} (recorded ${recorded}), provider retries ` +
        `${figures.webhooks.retried.length} (${[...new Set(figures.webhooks.retried)].join(", ") || "none"}); sessions kept ${kept}/${cookies.length}; licenses shown ${shown.join("/")} of ` +
        `${made.length}; stops ${restarts.map((r) => `exit ${r.exit} in ${r.stoppedMs} ms, /readyz ${r.readyzWhileStopping}`).join("; ")}`,
    );
    if (figures.failed.length) {
      const log = nginx!
        .errorLog()
        .split("\n")
        .filter((line) => !line.includes("Connection refused"));
      console.log(`[rolling-deploy] nginx's error log, refused connections left out:\n${log.slice(0, 40).join("\n")}`);
    }
    expect([...new Set(figures.failed)]).toEqual([]);
    expect(figures.sent).toBeGreaterThan(100);
    expect(figures.webhooks.delivered).toBe(figures.webhooks.sent);
    expect(recorded).toBe(figures.webhooks.sent);
    expect(kept).toBe(cookies.length);
    expect(made.length).toBe(figures.webhooks.sent);
    expect(shown).toEqual([made.length, made.length]);
    for (const r of restarts) expect(r).toMatchObject({ exit: "0", readyzWhileStopping: 503 });
  });

  it("SIGTERM lets a request in flight finish, refuses new connections meanwhile, then exits 0", async () => {
    const server = servers[0]!;
    const [{ id: userId }] = (await db.query<{ id: string }>("select id from users where email = $1", [DEMO.email]))
      .rows as [{ id: string }];
    const txn = transaction({ userId, planType: "monthly", amountCents: 900, start: new Date(), end: days(30) });
    const event = envelope("transaction.completed", txn);
    const { rawBody, signature } = signed(SECRETS.DEMO_WEBHOOK_SECRET, event);
    const half = Math.floor(rawBody.length / 2);
    // A webhook delivery whose body is half sent when the signal comes.
    const request = http.request({
      host: "127.0.0.1",
      port: server.port,
      method: "POST",
      path: "/api/webhooks/paddle",
      agent: false,
      headers: { "Content-Type": "application/json", "Paddle-Signature": signature, "Content-Length": rawBody.length },
    });
    const answered = new Promise<number>((resolve, reject) => {
      request.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      request.on("error", reject);
    });
    request.write(rawBody.slice(0, half));
    await sleep(300);
    process.kill(server.pid, "SIGTERM");
    // SHUTDOWN_DELAY_SECONDS=1: after it the listener is closed while the request is still open.
    await sleep(1500);
    const fresh = await rawRequest({ port: server.port, method: "GET", path: "/healthz", timeoutMs: 2000 });
    request.end(rawBody.slice(half));
    expect(await answered).toBe(200);
    expect(await server.exited).toBe("0");
    expect(fresh).toMatchObject({ status: "reset", error: "ECONNREFUSED" });
    const { rows } = await db.query("select 1 from webhook_events where event_id = $1", [event.event_id]);
    expect(rows).toHaveLength(1);
  });
});
