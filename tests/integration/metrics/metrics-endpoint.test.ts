import fs from "node:fs";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, signed } from "../../support/paddle-fixtures";
import { formPost } from "../../support/raw-http";
import { freePort } from "../../support/scratch";
import { send, startLiveServer, type LiveServer } from "../../support/live-server";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "the database metrics differ by engine (no pool on PGlite)" });
/** Where the endpoint's switches are tested (its routing and listener do not depend on the engine): PostgreSQL when there. */
const SWITCHES_ENGINE = ENGINES.at(-1)!;

const TOKEN = "metrics-token-0123456789abcdef";
const WEBHOOK_SECRET = "whsec_metrics_test_0123456789";

/** A counter's value in the Prometheus text (0 when the series is absent). */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const scrape = async (server: LiveServer) =>
  (await send(server, "GET", "/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).body;

/** Polls until the text satisfies `ok` (e-mails leave after the answer): at most 5 seconds. */
async function eventually(server: LiveServer, ok: (text: string) => boolean): Promise<string> {
  let text = "";
  for (let i = 0; i < 50; i++) {
    text = await scrape(server);
    if (ok(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return text;
}

describe.each([SWITCHES_ENGINE])("/metrics switched on and off on %s", { timeout: 180_000 }, (engine) => {
  let server: LiveServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("does not exist without METRICS_TOKEN or METRICS_PORT: 404 like any unknown page", async () => {
    server = await startLiveServer(engine);
    expect((await send(server, "GET", "/metrics")).status).toBe(404);
    expect((await send(server, "GET", "/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("METRICS_PORT: a listener of its own on 127.0.0.1 only, and nothing on the site's port", async () => {
    const port = await freePort();
    server = await startLiveServer(engine, { METRICS_PORT: String(port) });
    const local = await get(`http://127.0.0.1:${port}/metrics`);
    expect(local.status).toBe(200);
    expect(local.body).toContain("forgekit_http_requests_total");
    expect((await get(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await send(server, "GET", "/metrics")).status).toBe(404);
    const listening = listeningAddresses(port);
    expect(listening).toEqual(["127.0.0.1"]);
  });
});

describe.each(ENGINES)("/metrics on %s", { timeout: 180_000 }, (engine) => {
  let server: LiveServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("answers 401 without the token or with a wrong one, and counts known traffic with the right one", async () => {
    server = await startLiveServer(engine, { METRICS_TOKEN: TOKEN, DEMO_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const live = server;
    expect((await send(live, "GET", "/metrics")).status).toBe(401);
    const wrong = await send(live, "GET", "/metrics", { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toBe("Bearer");

    for (let i = 0; i < 5; i++) expect((await send(live, "GET", "/pricing")).status).toBe(200);
    expect((await send(live, "GET", "/no-such-page-here")).status).toBe(404);
    const validation = await send(live, "POST", "/api/v1/licenses/validate", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: "FK-NOT-A-KEY-THAT-EXISTS", nonce: "metrics-nonce-1" }),
    });
    expect(JSON.parse(validation.body)).toMatchObject({ code: "NOT_FOUND" });
    const event = signed(WEBHOOK_SECRET, envelope("customer.created", { id: "ctm_01" }));
    const webhook = (signature: string) =>
      send(live, "POST", "/api/webhooks/paddle", {
        headers: { "Content-Type": "application/json", "Paddle-Signature": signature },
        body: event.rawBody,
      });
    expect((await webhook(event.signature)).status).toBe(200);
    expect((await webhook("ts=1;h1=00")).status).toBe(401);
    expect((await formPost(live.port, "/forgot-password", { email: "demo@forgekit.example" })).status).toBe(200);

    const text = await eventually(live, (t) => value(t, 'forgekit_mails_total{outcome="sent"}') === 1);
    expect(text).toContain("# TYPE forgekit_http_request_duration_seconds histogram");
    expect(value(text, 'forgekit_http_requests_total{method="GET",route="/pricing",status="200"}')).toBe(5);
    expect(value(text, 'forgekit_http_requests_total{method="GET",route="/*",status="404"}')).toBe(1);
    expect(
      value(text, 'forgekit_http_requests_total{method="POST",route="/api/v1/licenses/validate",status="200"}'),
    ).toBe(1);
    expect(
      value(text, 'forgekit_http_request_duration_seconds_count{method="GET",route="/pricing",status_class="2xx"}'),
    ).toBe(5);
    // The first /pricing is rendered (a miss); the page cache answers the others once it has kept it.
    const hits = value(text, 'forgekit_cache_lookups_total{cache="page",result="hit"}');
    const misses = value(text, 'forgekit_cache_lookups_total{cache="page",result="miss"}');
    expect(misses).toBeGreaterThanOrEqual(1);
    expect(hits + misses).toBe(5);
    expect(value(text, 'forgekit_license_validations_total{code="NOT_FOUND"}')).toBe(1);
    expect(value(text, 'forgekit_webhook_events_total{type="other",outcome="ignored"}')).toBe(1);
    expect(value(text, 'forgekit_webhook_events_total{type="unknown",outcome="rejected"}')).toBe(1);
    expect(value(text, 'forgekit_mails_total{outcome="sent"}')).toBe(1);
    expect(value(text, 'forgekit_mails_total{outcome="failed"}')).toBe(0);
    expect(text).toMatch(/^forgekit_jobs\{kind="[^"]+",state="queued"\} \d+$/m);
    expect(text).toMatch(/^forgekit_jobs_oldest_queued_seconds\{kind="[^"]+"\} [\d.e+-]+$/m);
    expect(value(text, 'forgekit_ready{part="database"}')).toBe(1);
    expect(value(text, 'forgekit_ready{part="listener"}')).toBe(1);
    if (engine === "postgres") expect(value(text, 'forgekit_db_pool_connections{state="max"}')).toBe(10);
    // No raw address becomes a label value.
    expect(text).not.toContain("no-such-page-here");
  });
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

/** The local addresses listening on a TCP port, IPv4 and IPv6, from the kernel's socket tables (Linux). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const found: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== "0A" || !local.endsWith(`:${hexPort}`)) continue;
      const hex = local.split(":")[0]!;
      found.push(
        hex.length === 8
          ? (hex.match(/../g) ?? [])
              .reverse()
              .map((b) => parseInt(b, 16))
              .join(".")
          : `ipv6:${hex}`,
      );
    }
  }
  return found;
}
