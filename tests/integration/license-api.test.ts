import { generateKeyPairSync, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiV1 } from "../../server/api-v1";
import * as licensesRoute from "~/routes/licenses";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { connectDemoProvider, setPaymentProvider } from "~/server/billing/configured-provider.server";
import type { DemoProvider } from "~/server/billing/demo/demo-provider.server";
import { audit_log, demo_billing, licenses, releases, users, type License } from "~/server/db/schema";
import { getEnv, parseEnv, setEnv, type Env } from "~/server/env.server";
import { apiRateLimiter } from "~/server/license-api/api-rate-limit.server";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { call, formRequest, routeArgs, signInCookie } from "../support/route-call";
import { startTestApp, testEngines, type TestApp } from "../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 24 * 60 * 60 * 1000;
const NONCE = "nonce-0123456789";
const SIGNATURE = /^keyid="([A-Za-z0-9_-]{16})", algorithm="ed25519", signature="([A-Za-z0-9+/]+={0,2})"$/;

interface PublishedKey {
  kid: string;
  algorithm: string;
  public_key_pem: string;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  json: any;
  kid: string;
}

const newKeyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

/** Checks the Signature header against the exact body bytes, with the published key it names. */
function expectSigned(answer: Pick<Answer, "headers" | "raw">, keys: PublishedKey[]): string {
  const match = SIGNATURE.exec(String(answer.headers.signature));
  expect(match, `Signature header: ${answer.headers.signature}`).not.toBeNull();
  const key = keys.find((k) => k.kid === match![1]);
  expect(key, `kid ${match![1]} is published`).toBeDefined();
  expect(verify(null, answer.raw, key!.public_key_pem, Buffer.from(match![2]!, "base64"))).toBe(true);
  return match![1]!;
}

/** A license file's payload, after checking its signature with the key its kid names. */
function openLicenseFile(file: any, keys: PublishedKey[]): any {
  expect(file).toMatchObject({ format: "license/1", kid: expect.any(String), payload: expect.any(String) });
  const key = keys.find((k) => k.kid === file.kid);
  expect(key).toBeDefined();
  expect(
    verify(null, Buffer.from(file.payload, "ascii"), key!.public_key_pem, Buffer.from(file.signature, "base64")),
  ).toBe(true);
  return JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8"));
}

describe.each(testEngines())("desktop API /api/v1 (%s)", (engine) => {
  let app: TestApp;
  let server: http.Server;
  let base: string;
  let demo: DemoProvider;
  let userId: string;
  let baseEnv: Env;

  beforeAll(async () => {
    app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", API_RATE_LIMIT: "100000" });
    baseEnv = getEnv();
    const site = express();
    site.use("/api/v1", apiV1);
    server = http.createServer(site);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await app?.close();
  });
  beforeEach(async () => {
    setEnv(baseEnv);
    apiRateLimiter.clear();
    await app.database.db.delete(users).where(eq(users.email, USER.email));
    await app.database.db.delete(demo_billing);
    await seedDemoData(app.database.db);
    userId = (await app.database.db.select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    demo = connectDemoProvider({ webhookSecret: app.env.DEMO_WEBHOOK_SECRET, refundApprovalMs: null });
    setPaymentProvider(demo);
  });

  const db = () => app.database.db;
  /** The keys /keys listed at the latest api() call. */
  let cachedKeys: PublishedKey[] = [];
  const published = () => cachedKeys;

  function request(
    method: string,
    path: string,
    { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
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

  /** A request whose answer must be JSON signed by a published key (fetched from /keys). */
  async function api(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
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
    (await db().select().from(licenses).where(eq(licenses.user_id, userId))).find(test)!;
  const reload = async (id: string) => (await db().select().from(licenses).where(eq(licenses.id, id)))[0]!;
  /** The seeded monthly license that renews: active, unbound, refundable, with a demo subscription. */
  const renewing = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_renewing");
  const setLicense = async (id: string, values: Partial<License>) =>
    (await db().update(licenses).set(values).where(eq(licenses.id, id)).returning())[0]!;

  it("GET /keys lists the signing key's public key with its kid; every answer is signed by it", async () => {
    const answer = await api("GET", "/keys?nonce=keys-nonce-1");
    expect(answer.status).toBe(200);
    expect(answer.json.keys).toHaveLength(1);
    expect(answer.json.keys[0]).toEqual({
      kid: answer.kid,
      algorithm: "ed25519",
      public_key_pem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
    });
    expect(answer.json.nonce).toBe("keys-nonce-1");
    expect(new Date(answer.json.issued_at).toISOString()).toBe(answer.json.issued_at);
  });

  describe("validate", () => {
    it("VALID: the license's state, the current key, the nonce echoed and issued_at", async () => {
      const license = await renewing();
      const before = Date.now();
      const answer = await validate({ key: license.license_key });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.json)).toEqual(["valid", "code", "detail", "license", "nonce", "issued_at"]);
      expect(answer.json).toMatchObject({ valid: true, code: "VALID", detail: "The license is valid.", nonce: NONCE });
      expect(Date.parse(answer.json.issued_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(answer.json.license).toEqual({
        id: license.id,
        license_type: "monthly",
        status: "active",
        start_date: license.start_date.toISOString(),
        end_date: license.end_date.toISOString(),
        is_trial: false,
        trial_ends_at: null,
        auto_renew: license.auto_renew,
        windows_username: null,
        computer_name: null,
        license_key: license.license_key,
        payment_past_due: false,
        grace_ends_at: null,
      });
    });

    it("NOT_FOUND: license null, and the same answer for any unknown key", async () => {
      const answer = await validate({ key: "no-such-key" });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ valid: false, code: "NOT_FOUND", license: null, nonce: NONCE });
      expect(answer.json.detail).toMatch(/\.$/);
    });

    it.each([
      ["REVOKED", { status: "revoked" }],
      ["REFUNDED", { status: "refunded", refunded: true }],
      ["REFUNDED", { refunded: true }],
      ["REFUND_REQUESTED", { status: "refund_requested" }],
      ["EXPIRED", { end_date: new Date(Date.now() - DAY) }],
      ["TRIAL_EXPIRED", { is_trial: true, trial_ends_at: new Date(Date.now() - 1000) }],
    ] as const)("%s: not valid, the state without the key", async (code, values) => {
      const license = await setLicense((await renewing()).id, {
        ...values,
        start_date: new Date(Date.now() - 30 * DAY),
      } as Partial<License>);
      const answer = await validate({ key: license.license_key });
      expect(answer.json).toMatchObject({ valid: false, code, license: { id: license.id, status: license.status } });
      expect(answer.json.license).not.toHaveProperty("license_key");
    });

    it("a trial before its trial end is VALID", async () => {
      const license = await setLicense((await renewing()).id, {
        is_trial: true,
        trial_ends_at: new Date(Date.now() + DAY),
      });
      expect((await validate({ key: license.license_key })).json).toMatchObject({ code: "VALID", valid: true });
    });

    it("MACHINE_MISMATCH compares only what was sent, case-insensitively", async () => {
      const license = await setLicense((await renewing()).id, {
        windows_username: "ACME\\Ada",
        computer_name: "WS-01",
      });
      const code = async (machine: Record<string, unknown>) =>
        (await validate({ key: license.license_key, ...machine })).json.code;
      expect(await code({})).toBe("VALID");
      expect(await code({ windows_username: "acme\\ada", computer_name: "ws-01" })).toBe("VALID");
      expect(await code({ computer_name: "WS-01" })).toBe("VALID");
      expect(await code({ windows_username: "ACME\\Ada", computer_name: "" })).toBe("VALID");
      expect(await code({ windows_username: "ACME\\Bob" })).toBe("MACHINE_MISMATCH");
      expect(await code({ computer_name: "WS-02" })).toBe("MACHINE_MISMATCH");
      expect(await code({ windows_username: "ACME\\Ada", computer_name: "WS-02" })).toBe("MACHINE_MISMATCH");
      const mismatch = await validate({ key: license.license_key, computer_name: "WS-02" });
      expect(mismatch.json.valid).toBe(false);
      expect(mismatch.json.license).toMatchObject({ windows_username: "ACME\\Ada", computer_name: "WS-01" });
      expect(mismatch.json.license).not.toHaveProperty("license_key");
    });

    it("decides codes in order: revoked, refunded, refund requested, machine, trial end, end date", async () => {
      const id = (await renewing()).id;
      const past = new Date(Date.now() - DAY);
      const start = new Date(Date.now() - 30 * DAY);
      const other = { computer_name: "elsewhere" };
      const cases: [Partial<License>, string][] = [
        [{ status: "revoked", refunded: true, computer_name: "here", end_date: past }, "REVOKED"],
        [{ status: "refund_requested", refunded: true, computer_name: "here" }, "REFUNDED"],
        [{ status: "refund_requested", computer_name: "here", end_date: past }, "REFUND_REQUESTED"],
        [{ computer_name: "here", is_trial: true, trial_ends_at: past, end_date: past }, "MACHINE_MISMATCH"],
        [{ is_trial: true, trial_ends_at: past, end_date: past }, "TRIAL_EXPIRED"],
      ];
      for (const [values, code] of cases) {
        await setLicense(id, {
          status: "active",
          refunded: false,
          computer_name: null,
          is_trial: false,
          trial_ends_at: null,
          end_date: new Date(Date.now() + DAY),
          start_date: start,
          ...values,
        });
        const license = await reload(id);
        expect((await validate({ key: license.license_key, ...other })).json.code, code).toBe(code);
      }
    });

    it("revoke, refund request and refund approval are reflected in the very next answer", async () => {
      const license = await renewing();
      const key = license.license_key;
      expect((await validate({ key })).json.code).toBe("VALID");
      await requestRefund({ user: { id: userId, email: USER.email }, licenseId: license.id });
      expect((await validate({ key })).json.code).toBe("REFUND_REQUESTED");
      const [adjustment] = await db()
        .select()
        .from(demo_billing)
        .where(and(eq(demo_billing.kind, "adjustment"), eq(demo_billing.subscription_id, "sub_demo_seed_renewing")));
      await demo.settleRefund(adjustment!.id, "approved");
      expect((await validate({ key })).json.code).toBe("REFUNDED");

      const cancelling = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
      expect((await validate({ key: cancelling.license_key })).json.code).toBe("VALID");
      const admin = (await db().select().from(users).where(eq(users.email, ADMIN.email)))[0]!;
      await revokeLicense({ admin: { id: admin.id, email: admin.email }, licenseId: cancelling.id });
      expect((await validate({ key: cancelling.license_key })).json.code).toBe("REVOKED");
    });

    it("a key superseded by a renewal still resolves, and the answer carries the current key", async () => {
      const license = await renewing();
      const outcome = await demo.renew("sub_demo_seed_renewing");
      expect(outcome.outcome).toBe("renewed");
      const renewed = await reload(license.id);
      expect(renewed.license_key).not.toBe(license.license_key);
      const answer = await validate({ key: license.license_key });
      expect(answer.json).toMatchObject({
        code: "VALID",
        license: { id: license.id, license_key: renewed.license_key },
      });
      expect(answer.json.license.end_date).toBe(renewed.end_date.toISOString());
      // An extension (a key written by another path) is recorded too.
      const extended = licenseKeys().generate({ email: renewed.email, end_date: new Date(Date.now() + 90 * DAY) });
      await setLicense(license.id, { license_key: extended, end_date: new Date(Date.now() + 90 * DAY) });
      for (const key of [license.license_key, renewed.license_key, extended]) {
        expect((await validate({ key })).json.license.license_key).toBe(extended);
      }
    });
  });

  describe("activate", () => {
    it("binds an unbound license once, with a new key and an audit entry; the old key resolves; the file is signed", async () => {
      const license = await renewing();
      const machine = { windows_username: "ACME\\Ada", computer_name: "WS-01" };
      const answer = await activate({ key: license.license_key, ...machine });
      expect(answer.status).toBe(200);
      const bound = await reload(license.id);
      expect(bound).toMatchObject(machine);
      expect(bound.license_key).not.toBe(license.license_key);
      expect(licenseKeys().decode(bound.license_key)).toMatchObject({ email: license.email, ...machine });
      expect(answer.json).toMatchObject({
        valid: true,
        code: "VALID",
        nonce: NONCE,
        license: { id: license.id, ...machine, license_key: bound.license_key },
      });
      const payload = openLicenseFile(answer.json.license_file, published());
      expect(payload).toMatchObject({ license_id: license.id, email: license.email, ...machine });
      const entries = await db()
        .select()
        .from(audit_log)
        .where(and(eq(audit_log.target_id, license.id), eq(audit_log.action, "license.offline_data")));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_id: null, actor_email: license.email });
      expect(entries[0]!.details).toMatchObject({ ...machine, note: "desktop API", key_regenerated: true });

      // The same machine again (any case, with the old or the new key): success, nothing written.
      for (const key of [license.license_key, bound.license_key]) {
        const again = await activate({ key, windows_username: "acme\\ada", computer_name: "ws-01" });
        expect(again.json).toMatchObject({ valid: true, code: "VALID", license: { license_key: bound.license_key } });
        expect(again.json.license_file).not.toBeNull();
      }
      expect((await reload(license.id)).license_key).toBe(bound.license_key);
      const after = await db().select().from(audit_log).where(eq(audit_log.target_id, license.id));
      expect(after.filter((e) => e.action === "license.offline_data")).toHaveLength(1);

      // Another machine: MACHINE_MISMATCH, no file, nothing changed.
      const other = await activate({ key: license.license_key, windows_username: "ACME\\Bob", computer_name: "WS-01" });
      expect(other.json).toMatchObject({ valid: false, code: "MACHINE_MISMATCH", license_file: null });
      expect(await reload(license.id)).toMatchObject(machine);
    });

    it("a license that is not valid is answered with its code and not bound", async () => {
      const revoked = await seeded((l) => l.status === "revoked");
      const answer = await activate({ key: revoked.license_key, windows_username: "u", computer_name: "c" });
      expect(answer.json).toMatchObject({ valid: false, code: "REVOKED", license_file: null });
      expect(await reload(revoked.id)).toMatchObject({ windows_username: null, computer_name: null });
      const expired = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_expired");
      expect((await activate({ key: expired.license_key, windows_username: "u", computer_name: "c" })).json.code).toBe(
        "EXPIRED",
      );
      expect((await reload(expired.id)).computer_name).toBeNull();
      const missing = await activate({ key: "unknown", windows_username: "u", computer_name: "c" });
      expect(missing.json).toMatchObject({ code: "NOT_FOUND", license: null, license_file: null });
    });

    it("a valid trial is answered valid with a file, unbound (trials have no offline data)", async () => {
      const trial = await seeded((l) => l.license_type === "trial" && l.end_date > new Date());
      const answer = await activate({ key: trial.license_key, windows_username: "u", computer_name: "c" });
      expect(answer.json).toMatchObject({ valid: true, code: "VALID", license: { windows_username: null } });
      expect(answer.json.license_file).not.toBeNull();
      expect(await reload(trial.id)).toMatchObject({ windows_username: null, computer_name: null });
    });

    it("shares the once-only rule with the licenses page, both ways", async () => {
      const cookie = await signInCookie(USER.email, USER.password);
      const post = (fields: Record<string, string>) =>
        call(() => licensesRoute.action(routeArgs(formRequest("/licenses", fields, cookie))));

      // Bound on the page: the API sees the binding and the new key, from the old key.
      const onPage = await renewing();
      const saved = await post({
        intent: "offline-data",
        licenseId: onPage.id,
        windows_username: "PAGE\\user",
        computer_name: "PAGE-PC",
      });
      expect(saved.status).toBe(200);
      const pageBound = await reload(onPage.id);
      const seen = await validate({ key: onPage.license_key });
      expect(seen.json).toMatchObject({
        code: "VALID",
        license: { windows_username: "PAGE\\user", computer_name: "PAGE-PC", license_key: pageBound.license_key },
      });
      expect((await activate({ key: onPage.license_key, windows_username: "x", computer_name: "y" })).json.code).toBe(
        "MACHINE_MISMATCH",
      );
      const pageAudit = await db().select().from(audit_log).where(eq(audit_log.target_id, onPage.id));
      expect(pageAudit.find((e) => e.action === "license.offline_data")).toMatchObject({
        actor_id: userId,
        actor_email: USER.email,
      });

      // Bound in the API: the page refuses a second binding.
      const viaApi = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
      expect(
        (await activate({ key: viaApi.license_key, windows_username: "api\\user", computer_name: "API-PC" })).json.code,
      ).toBe("VALID");
      const refused = await post({
        intent: "offline-data",
        licenseId: viaApi.id,
        windows_username: "other",
        computer_name: "",
      });
      expect(refused.status).toBe(409);
      expect(refused.data.toast.description).toBe("Offline data can be changed only once.");
      expect(await reload(viaApi.id)).toMatchObject({ windows_username: "api\\user", computer_name: "API-PC" });
    });
  });

  describe("license file", () => {
    it("is signed over the payload's ASCII bytes; refresh_by is 30 days on, never past end_date", async () => {
      const license = await setLicense((await renewing()).id, { windows_username: "w", computer_name: "c" });
      const answer = await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}&nonce=${NONCE}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ format: "license/1", kid: answer.kid, nonce: NONCE });
      const payload = openLicenseFile(answer.json, published());
      expect(Object.keys(payload)).toEqual([
        "license_id",
        "email",
        "license_type",
        "windows_username",
        "computer_name",
        "start_date",
        "end_date",
        "is_trial",
        "issued_at",
        "refresh_by",
      ]);
      expect(payload).toMatchObject({
        license_id: license.id,
        email: license.email,
        license_type: "monthly",
        windows_username: "w",
        computer_name: "c",
        start_date: license.start_date.toISOString(),
        end_date: license.end_date.toISOString(),
        is_trial: false,
      });
      // The seeded license ends in 20 days: refresh_by is its end.
      expect(payload.refresh_by).toBe(license.end_date.toISOString());

      const long = await setLicense(license.id, { end_date: new Date(Date.now() + 300 * DAY) });
      const later = openLicenseFile(
        (await api("GET", `/licenses/file?key=${encodeURIComponent(long.license_key)}`)).json,
        published(),
      );
      expect(Date.parse(later.refresh_by) - Date.parse(later.issued_at)).toBe(30 * DAY);
    });

    it("is refused with 409 {error, code} for a license that is not valid now, or no license", async () => {
      const revoked = await seeded((l) => l.status === "revoked");
      const refused = await api("GET", `/licenses/file?key=${encodeURIComponent(revoked.license_key)}`);
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ code: "REVOKED", error: expect.any(String) });
      const missing = await api("GET", "/licenses/file?key=nothing");
      expect(missing.status).toBe(409);
      expect(missing.json.code).toBe("NOT_FOUND");
    });
  });

  describe("updates", () => {
    it("answers the newest release, an absolute download address, and whether it is newer than current", async () => {
      const all = await db().select().from(releases);
      const latest = all.sort((a, b) => b.release_date.localeCompare(a.release_date))[0]!;
      const older = await api("GET", "/updates/latest?current=0.9");
      expect(older.status).toBe(200);
      expect(older.json).toEqual({
        latest: {
          version: latest.version,
          title: latest.title,
          release_date: latest.release_date,
          notes: latest.release_notes,
          download_url: `${app.env.PUBLIC_URL}${app.env.DOWNLOAD_URL}`,
        },
        update_available: true,
        issued_at: expect.any(String),
      });
      expect(older.json.latest.download_url).toMatch(/^http:\/\/localhost:\d+\/downloads\//);
      expect((await api("GET", `/updates/latest?current=${latest.version}`)).json.update_available).toBe(false);
      expect((await api("GET", `/updates/latest?current=${latest.version}-beta.1`)).json.update_available).toBe(true);
      expect((await api("GET", "/updates/latest?current=99.0&nonce=update-nonce")).json).toMatchObject({
        update_available: false,
        nonce: "update-nonce",
      });
    });

    it("answers latest null when there is no release", async () => {
      await db().delete(releases);
      const answer = await api("GET", "/updates/latest?current=1.0.0");
      expect(answer.json).toMatchObject({ latest: null, update_available: false });
    });
  });

  describe("bad input: 400 naming the field, signed, never 500", () => {
    it.each([
      ["POST", "/licenses/validate", "not json", "body"],
      ["POST", "/licenses/validate", "[1,2]", "body"],
      ["POST", "/licenses/validate", "null", "body"],
      ["POST", "/licenses/validate", "", "body"],
      ["POST", "/licenses/validate", { nonce: NONCE }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: 12 }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "   " }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "a\u0000b" }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "x".repeat(1025) }, "key"],
      ["POST", "/licenses/validate", { key: "k" }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "short" }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "é".repeat(10) }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: 12345678 }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "n".repeat(129) }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, windows_username: 5 }, "windows_username"],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, computer_name: "a\u001bb" }, "computer_name"],
      ["POST", "/licenses/activate", { key: "k", nonce: NONCE, windows_username: "u" }, "computer_name"],
      [
        "POST",
        "/licenses/activate",
        { key: "k", nonce: NONCE, computer_name: "c", windows_username: " " },
        "windows_username",
      ],
      ["GET", "/licenses/file", undefined, "key"],
      ["GET", "/licenses/file?key=a%01b", undefined, "key"],
      ["GET", "/licenses/file?key=a&key=b", undefined, "key"],
      ["GET", "/licenses/file?key=a&nonce=x", undefined, "nonce"],
      ["GET", "/updates/latest", undefined, "current"],
      ["GET", "/updates/latest?current=latest", undefined, "current"],
      ["GET", "/updates/latest?current=1.2.3%00", undefined, "current"],
      ["GET", "/keys?x=%7F", undefined, "x"],
    ] as const)("%s %s %j → %s", async (method, path, body, field) => {
      const answer = await api(method, path, { body });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: expect.any(String), field, issued_at: expect.any(String) });
    });

    it("echoes a valid nonce in the error", async () => {
      const answer = await validate({ key: 7 });
      expect(answer.json).toMatchObject({ field: "key", nonce: NONCE });
    });

    it("answers unknown addresses 404 and wrong methods 405, as signed JSON", async () => {
      expect((await api("GET", "/nothing-here")).status).toBe(404);
      const wrong = await api("GET", "/licenses/validate");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toBe("POST");
      expect((await api("POST", "/keys", { body: {} })).status).toBe(405);
    });

    it("answers a body over 64 KB with a signed JSON 413", async () => {
      const answer = await api("POST", "/licenses/validate", { body: JSON.stringify({ key: "k".repeat(70_000) }) });
      expect(answer.status).toBe(413);
      expect(answer.json.error).toMatch(/64 KB/);
    });
  });

  it("rate-limits per client IP with API_RATE_LIMIT a minute: 429 with Retry-After, signed", async () => {
    setEnv(parseEnv({ ...envSource(baseEnv), API_RATE_LIMIT: "3" }));
    apiRateLimiter.clear();
    const keys = (await request("GET", "/keys")).json.keys as PublishedKey[];
    for (let i = 0; i < 2; i++) expect((await request("GET", "/keys")).status).toBe(200);
    const limited = await request("POST", "/licenses/validate", { body: { key: "k", nonce: NONCE } });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json).toMatchObject({ error: expect.any(String), issued_at: expect.any(String) });
    expectSigned(limited, keys);
  });

  it("rotation: a next key is published before it signs, then signs while the old one stays published", async () => {
    const first = newKeyPair();
    const next = newKeyPair();
    setEnv(
      parseEnv({
        ...envSource(baseEnv),
        LICENSE_SIGNING_KEY: first.privatePem,
        LICENSE_PUBLISHED_KEYS: next.publicPem,
      }),
    );
    const license = await renewing();
    const before = await validate({ key: license.license_key });
    expect(published()).toHaveLength(2);
    const [firstKid, nextKid] = published().map((k) => k.kid);
    expect(before.kid).toBe(firstKid);
    const oldFile = (await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}`)).json;
    expect(oldFile.kid).toBe(firstKid);

    // The switch: the next key signs, the old one stays published until its files are past refresh_by.
    setEnv(
      parseEnv({
        ...envSource(baseEnv),
        LICENSE_SIGNING_KEY: next.privatePem,
        LICENSE_PUBLISHED_KEYS: first.publicPem,
      }),
    );
    const after = await validate({ key: license.license_key });
    expect(after.kid).toBe(nextKid);
    expect(published().map((k) => k.kid)).toEqual([nextKid, firstKid]);
    const newFile = (await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}`)).json;
    expect(newFile.kid).toBe(nextKid);
    openLicenseFile(newFile, published());
    openLicenseFile(oldFile, published());
  });
});

/** The variables an Env was parsed from (for re-parsing with one changed). */
function envSource(env: Env): Record<string, string> {
  const source: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === "string" || typeof value === "number") source[name] = String(value);
    if (typeof value === "boolean" && /^[A-Z_]+$/.test(name)) source[name] = value ? "true" : "false";
  }
  return source;
}
