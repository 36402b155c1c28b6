import { generateKeyPairSync, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { expect } from "vitest";
import { apiV1 } from "../../server/api-v1";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { demo_billing, licenses, users, type License } from "~/server/db/schema";
import { getEnv, setEnv, type Env } from "~/server/env.server";
import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

// What the desktop API's tests start from: the API mounted alone on a real HTTP server over a test app,
// the demo data seeded again before each test, and requests whose answers are checked signed.

const [, USER] = DEMO_ACCOUNTS;
export const NONCE = "nonce-0123456789";
const SIGNATURE = /^keyid="([A-Za-z0-9_-]{16})", algorithm="ed25519", signature="([A-Za-z0-9+/]+={0,2})"$/;

export interface PublishedKey {
  kid: string;
  algorithm: string;
  public_key_pem: string;
}

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  json: any;
  kid: string;
}

export const newKeyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

/** Checks the Signature header against the exact body bytes, with the published key it names. */
export function expectSigned(answer: Pick<Answer, "headers" | "raw">, keys: PublishedKey[]): string {
  const match = SIGNATURE.exec(String(answer.headers.signature));
  expect(match, `Signature header: ${answer.headers.signature}`).not.toBeNull();
  const key = keys.find((k) => k.kid === match![1]);
  expect(key, `kid ${match![1]} is published`).toBeDefined();
  expect(verify(null, answer.raw, key!.public_key_pem, Buffer.from(match![2]!, "base64"))).toBe(true);
  return match![1]!;
}

/** A license file's payload, after checking its signature with the key its kid names. */
export function openLicenseFile(file: any, keys: PublishedKey[]): any {
  expect(file).toMatchObject({ format: "license/1", kid: expect.any(String), payload: expect.any(String) });
  const key = keys.find((k) => k.kid === file.kid);
  expect(key).toBeDefined();
  expect(
    verify(null, Buffer.from(file.payload, "ascii"), key!.public_key_pem, Buffer.from(file.signature, "base64")),
  ).toBe(true);
  return JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8"));
}

/**
 * The desktop API tests' app for a `describe` of one engine: `state` holds the app, the site's address,
 * the demo provider, the demo customer's id and the environment the app started with. The test file runs
 * `startApp` before its tests, `stopApp` after them and `reseed` before each.
 */
export function licenseApiApp(engine: EngineName) {
  const state = {} as {
    app: TestApp;
    server: http.Server;
    base: string;
    demo: DemoProvider;
    userId: string;
    baseEnv: Env;
  };

  async function startApp() {
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", API_RATE_LIMIT: "100000" });
    state.baseEnv = getEnv();
    const site = express();
    site.use("/api/v1", apiV1);
    state.server = http.createServer(site);
    await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
    state.base = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  }
  async function stopApp() {
    await new Promise((resolve) => state.server?.close(resolve));
    await state.app?.close();
  }
  /** The environment the app started with, no rate limit used, the demo data seeded again, the demo provider. */
  async function reseed() {
    setEnv(state.baseEnv);
    await resetApiRateLimits();
    const db = state.app.database.db;
    await db.delete(users).where(eq(users.email, USER.email));
    await db.delete(demo_billing);
    await seedDemoData(db);
    state.userId = (await db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    state.demo = connectDemoProvider({ webhookSecret: state.app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(state.demo);
  }

  const db = () => state.app.database.db;
  /** The keys /keys listed at the latest api() call. */
  let cachedKeys: PublishedKey[] = [];
  const published = () => cachedKeys;

  const request = (method: string, path: string, options: RequestOptions = {}) =>
    requestOf(state.base, method, path, options);

  /** A request whose answer must be JSON signed by a published key (fetched from /keys). */
  async function api(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const keys = await request("GET", "/keys");
    cachedKeys = keys.json.keys;
    expectSigned(keys, published());
    const answer = await request(method, path, options);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(answer.json).toBeTypeOf("object");
    const kid = expectSigned(answer, published());
    return { ...answer, kid };
  }

  const validate = (body: Record<string, unknown>) =>
    api("POST", "/licenses/validate", { body: { nonce: NONCE, ...body } });
  const activate = (body: Record<string, unknown>) =>
    api("POST", "/licenses/activate", { body: { nonce: NONCE, ...body } });

  const seeded = async (test: (l: License) => boolean) =>
    (await db().select().from(licenses).where(eq(licenses.user_id, state.userId))).find(test)!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  /** The seeded monthly license that renews: active, unbound, refundable, with a demo subscription. */
  const renewing = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_renewing");
  const setLicense = async (id: string, values: Partial<License>) =>
    (await db().update(licenses).set(values).where(eq(licenses.id, id)).returning())[0]!;
  return {
    startApp,
    stopApp,
    reseed,
    state,
    db,
    published,
    request,
    api,
    validate,
    activate,
    seeded,
    reload,
    renewing,
    setLicense,
  };
}

/** A request to the API at `base` (/api/v1), its answer's body read whole and parsed as JSON when it is JSON. */
function requestOf(
  base: string,
  method: string,
  path: string,
  { body, headers = {} }: RequestOptions = {},
): Promise<Omit<Answer, "kid">> {
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v1${path}`,
      {
        method,
        headers: { ...(payload !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          let json: unknown = undefined;
          try {
            json = JSON.parse(raw.toString("utf8"));
          } catch {
            // checked by the caller
          }
          resolve({ status: res.statusCode!, headers: res.headers, raw, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The variables an Env was parsed from (for re-parsing with one changed). */
export function envSource(env: Env): Record<string, string> {
  const source: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === "string" || typeof value === "number") source[name] = String(value);
    if (typeof value === "boolean" && /^[A-Z_]+$/.test(name)) source[name] = value ? "true" : "false";
  }
  return source;
}
