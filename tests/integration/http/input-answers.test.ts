import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramNames, ROUTE_PARAM_SHAPES } from "~/domain/route-params";
import { MALFORMED_ENCODING_MESSAGE } from "~/domain/url-encoding";
import { PADDLE_SANDBOX_IN_PRODUCTION } from "~/server/payments-label.server";
import { rawRequest } from "../../support/raw-http";
import { liveSignIn, startLiveServer, type LiveServer } from "../../support/live-server";
import { buildDir, REPO_ROOT, tempDir } from "../../support/server-process";
import { testEngines } from "../../support/test-app";
import { DEMO_ACCOUNTS } from "~/server/seed.server";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const UUID = "0b0f7a52-6d2c-4a6e-9d1e-2f1f4c3b5a69";
/** A value of the right shape for each parameter name (the other parameters stay well formed). */
const GOOD: Record<string, string> = { userId: UUID, licenseId: UUID, teamId: UUID, paymentId: "txn_01abc" };
const WRONG = ["not-a-uuid", "txn_x", "1", "%27%20or%201%3D1", "00000000-0000-0000-0000-00000000000g", "x".repeat(300)];
const MALFORMED = [
  "/api/auth/callback/%C0%AE",
  "/%E0%A4%A",
  "/%ED%A0%80",
  "/licenses/%C0%AE/file",
  "/admin/users/%FF",
  "/pricing?x=%C0%AE",
  "/reset-password?token=%ED%A0%80",
  "/login?redirectTo=%E0%A4%A",
  "/release-notes.atom?%zz=1",
  "/_root.data?_routes=%C0",
];

/** Each route path of app/routes.ts with a parameter, once per parameter given a wrong value. */
function wrongShapedPaths(): string[] {
  const table = fs.readFileSync(path.join(REPO_ROOT, "app/routes.ts"), "utf8");
  const out: string[] = [];
  for (const [, routePath] of table.matchAll(/route\("([^"]+)",/g)) {
    const names = paramNames(routePath!);
    for (const wrongName of names) {
      for (const wrong of WRONG.filter((w) => !ROUTE_PARAM_SHAPES[wrongName]!.test(decodeURIComponent(w)))) {
        out.push(
          `/${routePath!.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (name === wrongName ? wrong : GOOD[name]!))}`,
        );
      }
    }
  }
  return out;
}

describe.each(testEngines())("input that used to answer 500 (%s, the built server)", (engine) => {
  let server: LiveServer;
  const cookies: Record<string, string> = { visitor: "" };

  beforeAll(async () => {
    server = await startLiveServer(engine, { AUTH_RATE_LIMIT: "100000" });
    cookies.user = await liveSignIn(server, USER!.email, USER!.password);
    cookies.admin = await liveSignIn(server, ADMIN!.email, ADMIN!.password);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const get = (target: string, cookie: string) =>
    rawRequest({ port: server.port, method: "GET", path: target, headers: cookie ? { Cookie: cookie } : {} });

  it("a malformed percent-encoding in the path or the query answers 400 with a plain message, for everyone", async () => {
    for (const target of MALFORMED) {
      for (const [who, cookie] of Object.entries(cookies)) {
        const response = await get(target, cookie);
        expect(response.status, `${who} GET ${target}`).toBe(400);
        expect(response.body).toBe(MALFORMED_ENCODING_MESSAGE);
        expect(response.headers["content-type"]).toMatch(/^text\/plain/);
      }
      const api = await get(`/api/v1/keys?x=${target.split("?")[1] ?? "%C0%AE"}`, "");
      expect(api.status, `desktop API with ${target}`).toBe(400);
      expect(JSON.parse(api.body)).toMatchObject({ error: MALFORMED_ENCODING_MESSAGE, field: "address" });
      expect(api.headers.signature).toBeTruthy();
    }
  });

  it("an id of the wrong shape in any route parameter answers 404 (page, data request and resource route)", async () => {
    const paths = wrongShapedPaths();
    expect(paths.some((p) => p.startsWith("/admin/users/not-a-uuid/invoices/"))).toBe(true);
    for (const target of paths) {
      for (const [who, cookie] of Object.entries(cookies)) {
        for (const variant of [target, `${target}.data`]) {
          const response = await get(variant, cookie);
          expect(response.status, `${who} GET ${variant}: ${response.body.slice(0, 120)}`).toBe(404);
        }
      }
    }
    // Matched as React Router matches: decoded and in any case.
    for (const variant of ["/%61dmin/users/not-a-uuid/invoices/txn_x", "/ADMIN/Users/not-a-uuid/invoices/txn_x"]) {
      expect((await get(variant, cookies.admin!)).status, variant).toBe(404);
    }
    // A page asked for as a page gets the site's 404 page (the root's middleware, before any loader), not plain text.
    for (const [who, cookie] of Object.entries(cookies)) {
      const page = await get("/admin/users/not-a-uuid", cookie);
      expect(page.status, who).toBe(404);
      expect(page.headers["content-type"], who).toMatch(/^text\/html/);
      expect(page.body, who).toContain("Page not found");
      expect(page.body, who).toContain("/admin/users/not-a-uuid");
    }
    // The right shape still reaches the route: an admin gets the route's own 404 for an unknown invoice.
    const known = await get(`/admin/users/${UUID}/invoices/txn_01abc`, cookies.admin!);
    expect([known.status, known.body]).toEqual([404, "Invoice not found"]);
  });

  it("/readyz names the payments (the demo checkout here)", async () => {
    const ready = JSON.parse((await get("/readyz", "")).body);
    expect(ready).toMatchObject({ status: "ready", payments: "demo" });
  });
});

const productionEnv = () => ({
  NODE_ENV: "production",
  BETTER_AUTH_SECRET: "p".repeat(32),
  LICENSE_SECRET: "l".repeat(32),
  LICENSE_SALT: "salt-salt",
  LICENSE_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  PAYMENT_PROVIDER: "paddle",
  PADDLE_CLIENT_TOKEN: "test_client_token",
  PADDLE_API_KEY: "pdl_sdbx_apikey",
  PADDLE_WEBHOOK_SECRET: "pdl_ntfset_secret",
  EMAIL_DISABLED: "true",
});

describe.each(testEngines())("production on Paddle names its environment (%s)", (engine) => {
  it("PADDLE_ENVIRONMENT=sandbox: /readyz says paddle (sandbox) and the start logs a warning", async () => {
    const server = await startLiveServer(engine, { ...productionEnv(), PADDLE_ENVIRONMENT: "sandbox" });
    try {
      const ready = JSON.parse((await rawRequest({ port: server.port, method: "GET", path: "/readyz" })).body);
      expect(ready).toMatchObject({ status: "ready", mode: "production", payments: "paddle (sandbox)" });
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; msg: string; payments?: string });
      expect(lines.find((l) => l.msg.startsWith("listening on"))).toMatchObject({ payments: "paddle (sandbox)" });
      expect(lines.find((l) => l.level === 40 && l.msg === PADDLE_SANDBOX_IN_PRODUCTION)).toBeDefined();
    } finally {
      await server.stop();
    }
  });

  it("PADDLE_ENVIRONMENT=production: /readyz says paddle (production), no warning", async () => {
    const server = await startLiveServer(engine, { ...productionEnv(), PADDLE_ENVIRONMENT: "production" });
    try {
      const ready = JSON.parse((await rawRequest({ port: server.port, method: "GET", path: "/readyz" })).body);
      expect(ready).toMatchObject({ payments: "paddle (production)" });
      expect(server.output()).not.toContain(PADDLE_SANDBOX_IN_PRODUCTION);
    } finally {
      await server.stop();
    }
  });
});

describe("production on Paddle without PADDLE_ENVIRONMENT", () => {
  it("stops at start with a message naming it", async () => {
    const child = spawn(process.execPath, ["server.js"], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        BUILD_DIR: buildDir(),
        DATA_DIR: tempDir("fk-paddle-env-"),
        PORT: "0",
        PUBLIC_URL: "https://www.example.com",
        ...productionEnv(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain("PADDLE_ENVIRONMENT is required when PAYMENT_PROVIDER=paddle in production");
  });
});
