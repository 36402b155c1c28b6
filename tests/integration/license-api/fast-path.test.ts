import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getEnv, parseEnv, setEnv } from "~/server/env.server";
import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { apiFastPath } from "../../../server/api-fast-path";
import { apiV1 } from "../../../server/api-v1";
import { requestId, requestLog } from "../../../server/request-log";
import { capturedHeaders, nonce, securityHeaders } from "../../../server/security-headers";
import { envSource, expectSigned, licenseApiApp, NONCE } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "the desktop API's rate limits count in memory on PGlite" });

// The listener's fast path for the desktop API (decision 0051) against Express's stack as
// server/app.ts mounts it before /api/v1 (request log, CSP nonce, helmet, the API router): the same
// requests, in the same order from a fresh count, get the same status, headers (names, order,
// values), body and log line, and the fast path really answered the requests it takes.

const FINGERPRINT = "fast-path-fingerprint-0001";

interface Seen {
  status: number;
  headers: [string, string][];
  body: unknown;
}

/** Two listeners on one app: Express alone, and the fast path in front of the same Express. */
function listeners() {
  const logs: { express: unknown[]; fast: unknown[] } = { express: [], fast: [] };
  const logger = (into: unknown[]) =>
    pino(
      { level: "info", base: undefined, timestamp: false },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          const { method, path, status, bytes, req_id } = JSON.parse(chunk.toString("utf8"));
          into.push({ method, path, status, bytes, req_id });
          done();
        },
      }),
    );
  const site = (into: unknown[]) => {
    const app = express();
    app.disable("x-powered-by");
    app.set("trust proxy", 1);
    app.use(requestLog(logger(into)));
    app.use(nonce);
    const headers = securityHeaders(getEnv(), false);
    app.use(headers);
    app.use("/api/v1", apiV1);
    return { app, headers };
  };
  const plain = site(logs.express);
  const fronted = site(logs.fast);
  const fast = apiFastPath({
    app: fronted.app,
    logger: logger(logs.fast),
    metrics: null,
    securityHeaders: capturedHeaders(fronted.headers),
  });
  const taken: string[] = [];
  const servers = {
    express: http.createServer(plain.app),
    fast: http.createServer((req, res) => {
      if (fast(req, res, requestId(req), process.hrtime.bigint())) return void taken.push(`${req.method} ${req.url}`);
      fronted.app(req, res);
    }),
  };
  return { servers, logs, taken };
}

/** One request; the answer with its raw headers (per-request values replaced by their shape). */
function send(server: http.Server, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const port = (server.address() as AddressInfo).port;
  return new Promise<Seen & { raw: Buffer; rawHeaders: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path, headers: { "X-Request-Id": "fast-path-test", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!;
            const value = res.rawHeaders[i + 1]!;
            if (/^(date|signature)$/i.test(name)) pairs.push([name, "<per request>"]);
            else pairs.push([name, value.replace(/'nonce-[A-Za-z0-9+/=]{24}'/, "'nonce-<fresh>'")]);
          }
          const parsed = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : null;
          if (parsed && typeof parsed.issued_at === "string") parsed.issued_at = "<now>";
          resolve({ status: res.statusCode!, headers: pairs, body: parsed, raw, rawHeaders: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(ENGINES)("the desktop API's fast path before Express (%s)", (engine) => {
  const desktop = licenseApiApp(engine);
  beforeAll(desktop.startApp);
  afterAll(desktop.stopApp);
  beforeEach(desktop.reseed);
  let setup: ReturnType<typeof listeners>;

  beforeAll(async () => {
    setup = listeners();
    for (const server of Object.values(setup.servers))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const server of Object.values(setup?.servers ?? {})) await new Promise((resolve) => server.close(resolve));
  });

  /** The same requests to both listeners, each from fresh rate-limit counts; the fast one's answers checked signed. */
  async function both(requests: [string, string, string?, Record<string, string>?][]) {
    const answers: Record<"express" | "fast", Seen[]> = { express: [], fast: [] };
    await desktop.api("GET", "/keys"); // the published keys the signatures are checked with
    for (const side of ["express", "fast"] as const) {
      await resetApiRateLimits();
      for (const [method, path, body, headers] of requests) {
        const json: Record<string, string> = body === undefined ? {} : { "Content-Type": "application/json" };
        const { raw, rawHeaders, ...seen } = await send(setup.servers[side], method, path, body, {
          ...json,
          ...headers,
        });
        if (side === "fast" && method !== "HEAD") expectSigned({ headers: rawHeaders, raw }, desktop.published());
        answers[side].push(seen);
      }
    }
    expect(answers.fast).toEqual(answers.express);
    return answers.fast;
  }

  const validate = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    ["POST", "/api/v1/licenses/validate", JSON.stringify(body), headers] as [
      string,
      string,
      string,
      Record<string, string>?,
    ];

  it("answers entitlements as Express does: the license's list, entitled, and an unknown one's coded 400", async () => {
    const key = (await desktop.renewing()).license_key;
    setup.taken.length = 0;
    const answers = await both([
      validate({ key, nonce: NONCE, entitlements: ["generate", "batch"] }),
      validate({ key, nonce: NONCE, entitlements: ["cli"] }),
      validate({ key, nonce: NONCE, entitlements: ["export"] }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(answers[0]!.body).toMatchObject({ entitled: true, license: { entitlements: ["generate", "batch"] } });
    expect(answers[1]!.body).toMatchObject({ valid: true, entitled: false });
    expect(answers[2]!.body).toMatchObject({ field: "entitlements", code: "unknown_entitlement", nonce: NONCE });
    expect(setup.taken).toHaveLength(3);
  });

  it("answers validate and keys as Express does: codes, machine, input errors, headers and the log", async () => {
    const license = await desktop.renewing();
    const key = license.license_key;
    await desktop.api("POST", "/machines/activate", {
      body: { key, fingerprint: FINGERPRINT, name: "Desk PC", nonce: NONCE },
    });
    setup.taken.length = 0;
    const answers = await both([
      validate({ key, fingerprint: FINGERPRINT, nonce: NONCE, app_version: "2.1.0" }),
      validate({ key, nonce: NONCE }),
      validate({ key, fingerprint: "another-fingerprint-0002", nonce: NONCE }),
      validate({ key: "no-such-key", fingerprint: FINGERPRINT, nonce: NONCE }),
      validate({ key, fingerprint: "short", nonce: NONCE }),
      validate({ key, fingerprint: FINGERPRINT }),
      ["POST", "/api/v1/licenses/validate", "not json"],
      ["GET", "/api/v1/keys"],
      ["GET", "/api/v1/keys?nonce=keys-nonce-0001"],
      ["GET", "/api/v1/keys?nonce=short"],
      ["GET", "/api/v1/keys?nonce=keys-nonce-0001&nonce=keys-nonce-0002"],
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 400, 400, 400, 200, 200, 400, 400]);
    const said = answers.map((a) => (a.body as { code?: string }).code ?? (a.body as { field?: string }).field);
    expect(said).toEqual([
      ...["VALID", "VALID", "MACHINE_NOT_ACTIVATED", "NOT_FOUND", "fingerprint", "nonce", "body"],
      ...[undefined, undefined, "nonce", "nonce"],
    ]);
    expect(answers[0]!.body).toMatchObject({ machine: { name: "Desk PC" }, nonce: NONCE });
    expect(answers[0]!.headers.map(([name]) => name)).toContain("Content-Security-Policy");
    // Every one of them was the fast path's; both logs say the same.
    expect(setup.taken).toHaveLength(11);
    expect(setup.logs.fast).toEqual(setup.logs.express);
    expect(setup.logs.fast).toContainEqual({
      method: "POST",
      path: "/api/v1/licenses/validate",
      status: 200,
      bytes: expect.any(Number),
      req_id: "fast-path-test",
    });
  });

  it("counts the client IP behind the proxy and the key as Express does: the same 429s", async () => {
    const base = getEnv();
    setEnv(parseEnv({ ...envSource(base), API_RATE_LIMIT: "3", API_KEY_RATE_LIMIT: "2" }));
    try {
      const { license_key: key } = await desktop.renewing();
      const from = (ip: string) => ({ "X-Forwarded-For": ip });
      setup.taken.length = 0;
      const answers = await both([
        validate({ key, nonce: NONCE }, from("203.0.113.1")),
        validate({ key, nonce: NONCE }, from("203.0.113.2")),
        validate({ key, nonce: NONCE }, from("203.0.113.3")),
        validate({ nonce: NONCE }, from("203.0.113.4")),
        validate({ nonce: NONCE }, from("203.0.113.4")),
        validate({ nonce: NONCE }, from("203.0.113.4")),
        validate({ nonce: NONCE }, from("203.0.113.4")),
        ["GET", "/api/v1/keys", undefined, from("203.0.113.4")],
        ["GET", "/api/v1/keys", undefined, from("203.0.113.5")],
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 400, 400, 400, 429, 429, 200]);
      expect(answers[2]!.headers.find(([name]) => name === "Retry-After")).toBeDefined();
      expect(answers[2]!.body).toMatchObject({ nonce: NONCE });
      expect(setup.taken).toHaveLength(9);
    } finally {
      setEnv(base);
    }
  });

  it("with REQUIRE_FINGERPRINT_PLANS, both paths refuse a validation without a fingerprint (FINGERPRINT_REQUIRED)", async () => {
    const base = getEnv();
    setEnv(parseEnv({ ...envSource(base), REQUIRE_FINGERPRINT_PLANS: "monthly, yearly" }));
    try {
      const license = await desktop.renewing();
      expect(license.license_type).toBe("monthly");
      const key = license.license_key;
      await desktop.api("POST", "/machines/activate", {
        body: { key, fingerprint: FINGERPRINT, name: "Desk PC", nonce: NONCE },
      });
      const tester = await desktop.seeded((l) => l.license_type === "tester");
      setup.taken.length = 0;
      const answers = await both([
        validate({ key, nonce: NONCE }),
        validate({ key, fingerprint: FINGERPRINT, nonce: NONCE }),
        validate({ key, fingerprint: "another-fingerprint-0002", nonce: NONCE }),
        validate({ key: tester.license_key, nonce: NONCE }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(answers.map((a) => (a.body as { code: string }).code)).toEqual([
        "FINGERPRINT_REQUIRED",
        "VALID",
        "MACHINE_NOT_ACTIVATED",
        "VALID",
      ]);
      // The refusal keeps the answer's shape, without the current key (as every refusal).
      expect(answers[0]!.body).toMatchObject({ valid: false, license: { id: license.id }, nonce: NONCE });
      expect((answers[0]!.body as { license: Record<string, unknown> }).license.license_key).toBeUndefined();
      expect(setup.taken).toHaveLength(4);
      // Nor is a license file that no machine is bound to given out.
      const file = await desktop.api("GET", `/licenses/file?key=${encodeURIComponent(key)}`);
      expect([file.status, file.json.code]).toEqual([409, "FINGERPRINT_REQUIRED"]);
      const bound = await desktop.api(
        "GET",
        `/licenses/file?key=${encodeURIComponent(key)}&fingerprint=${FINGERPRINT}`,
      );
      expect(bound.status).toBe(200);
    } finally {
      setEnv(base);
    }
    // Unset (the default): as before, a validation without a fingerprint answers the license's code.
    const { license_key: key } = await desktop.renewing();
    const [plain] = await both([validate({ key, nonce: NONCE })]);
    expect((plain!.body as { code: string }).code).toBe("VALID");
  });

  it("leaves to Express what it does not take: a cookie, HEAD, another path, a chunked body", async () => {
    const { license_key: key } = await desktop.renewing();
    setup.taken.length = 0;
    await both([
      validate({ key, nonce: NONCE }, { Cookie: "theme=dark" }),
      ["HEAD", "/api/v1/keys"],
      ["GET", "/api/v1/keys/"],
      ["POST", "/api/v1/licenses/validate", JSON.stringify({ key, nonce: NONCE }), { "Transfer-Encoding": "chunked" }],
      ["PUT", "/api/v1/licenses/validate", "{}"],
    ]);
    expect(setup.taken).toEqual([]);
  });
});
