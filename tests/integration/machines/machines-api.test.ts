import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, isNull } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiV1 } from "../../../server/api-v1";
import {
  audit_log,
  demo_billing,
  licenses,
  machine_deactivations,
  machines,
  users,
  type License,
} from "~/server/db/schema";
import { getEnv, parseEnv, setEnv, type Env } from "~/server/env.server";
import { drainJobs } from "~/server/jobs/jobs.server";
import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { releaseInactiveMachines } from "~/server/machines/machine-jobs.server";
import { deactivateFromPage } from "~/server/machines/web-deactivation.server";
import { DEMO_ACCOUNTS, seedDemoData } from "~/server/seed.server";
import { desktopClient, licenseFilePayload } from "../../support/desktop-api";
import { envSource } from "../../support/license-api-app";
import { startTestApp, testEngines, type TestApp } from "../../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 24 * 60 * 60 * 1000;
const fp = (n: number) => `machine-fingerprint-${String(n).padStart(4, "0")}`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(testEngines())("machines through the desktop API (%s)", (engine) => {
  let app: TestApp;
  let server: http.Server;
  let base: string;
  let baseEnv: Env;
  let userId: string;
  let license: License;

  beforeAll(async () => {
    app = await startTestApp(engine, { API_RATE_LIMIT: "100000", API_KEY_RATE_LIMIT: "100000" });
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
    await resetApiRateLimits();
    await db().delete(users).where(eq(users.email, USER.email));
    await db().delete(demo_billing);
    await seedDemoData(db());
    userId = (await db().select().from(users).where(eq(users.email, USER.email)))[0]!.id;
    license = (await db().select().from(licenses).where(eq(licenses.user_id, userId))).find(
      (l) => l.paddle_subscription_id === "sub_demo_seed_renewing",
    )!;
    app.mails.length = 0;
  });

  const db = () => app.database.db;
  const tool = () => desktopClient(base);
  const activate = (n: number, extra: Record<string, unknown> = {}) =>
    tool().post("/machines/activate", {
      key: license.license_key,
      fingerprint: fp(n),
      name: `PC-${n}`,
      platform: "Windows 11 x64",
      app_version: "2.4.0",
      ...extra,
    });
  const validate = (n: number, extra: Record<string, unknown> = {}) =>
    tool().post("/licenses/validate", { key: license.license_key, fingerprint: fp(n), ...extra });
  const deactivate = (n: number) =>
    tool().post("/machines/deactivate", { key: license.license_key, fingerprint: fp(n) });
  const active = () =>
    db()
      .select()
      .from(machines)
      .where(and(eq(machines.license_id, license.id), isNull(machines.deactivated_at)));

  it("activates a machine once per fingerprint, with a bound license file, and e-mails the owner once", async () => {
    const client = tool();
    const first = await client.post("/machines/activate", {
      key: license.license_key,
      fingerprint: fp(1),
      name: "PC-1",
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ valid: true, code: "VALID", machine_limit: 2, machine: { name: "PC-1" } });
    const payload = licenseFilePayload(first.json.license_file, client.publishedKeys());
    expect(payload).toMatchObject({ license_id: license.id, fingerprint_sha256: sha256(fp(1)), machine_name: "PC-1" });
    const again = await activate(1, { name: "PC-1 renamed" });
    expect(again.json).toMatchObject({ code: "VALID", machine: { name: "PC-1 renamed", app_version: "2.4.0" } });
    const rows = await active();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.fingerprint_hash).toBe(sha256(fp(1)));
    expect(JSON.stringify(rows)).not.toContain(fp(1));
    await drainJobs();
    const sent = app.mails.filter((m) => m.subject.includes("was activated"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(USER.email);
    expect(sent[0]!.text).toContain("PC-1");
    expect(sent[0]!.text).toContain("/licenses");
  });

  it("a full license answers MACHINE_LIMIT with the active machines' names and last seen", async () => {
    await activate(1);
    await activate(2);
    const third = await activate(3);
    expect(third.json).toMatchObject({ valid: false, code: "MACHINE_LIMIT", machine_limit: 2, license_file: null });
    expect(third.json.license.license_key).toBeUndefined();
    expect(third.json.machines.map((m: { name: string }) => m.name).sort()).toEqual(["PC-1", "PC-2"]);
    expect(third.json.machines[0].last_seen_at).toEqual(expect.any(String));
    expect(await active()).toHaveLength(2);
  });

  it("a tester license allows one machine; MACHINES_PER_PLAN changes a plan's limit", async () => {
    const tester = (await db().select().from(licenses).where(eq(licenses.user_id, userId))).find(
      (l) => l.license_type === "tester",
    )!;
    const on = (n: number) =>
      tool().post("/machines/activate", { key: tester.license_key, fingerprint: fp(n), name: `T-${n}` });
    expect((await on(1)).json).toMatchObject({ code: "VALID", machine_limit: 1 });
    expect((await on(2)).json).toMatchObject({ code: "MACHINE_LIMIT", machine_limit: 1 });
    setEnv(parseEnv({ ...envSource(baseEnv), MACHINES_PER_PLAN: "monthly=3" }));
    for (const n of [1, 2, 3]) expect((await activate(n)).json.code).toBe("VALID");
    expect((await activate(4)).json.code).toBe("MACHINE_LIMIT");
  });

  it("validate with a fingerprint: MACHINE_NOT_ACTIVATED, or VALID recording last seen at most once an hour", async () => {
    expect((await validate(1)).json).toMatchObject({ valid: false, code: "MACHINE_NOT_ACTIVATED" });
    expect((await validate(1)).json.license.license_key).toBeUndefined();
    // Without a fingerprint, as older tools call it: unchanged.
    const old = await tool().post("/licenses/validate", { key: license.license_key });
    expect(old.json).toMatchObject({ valid: true, code: "VALID" });
    expect(old.json.machine).toBeUndefined();
    await activate(1);
    await db()
      .update(machines)
      .set({ last_seen_at: new Date(Date.now() - 2 * 3600_000) });
    const seen = await validate(1, { app_version: "2.5.0", platform: "Windows 10" });
    expect(seen.json).toMatchObject({ valid: true, code: "VALID", machine: { name: "PC-1" } });
    let [row] = await active();
    expect(row).toMatchObject({ app_version: "2.5.0", platform: "Windows 10" });
    expect(Date.now() - row!.last_seen_at.getTime()).toBeLessThan(60_000);
    const recorded = row!.last_seen_at.getTime();
    await validate(1, { app_version: "2.6.0" });
    [row] = await active();
    expect(row).toMatchObject({ app_version: "2.5.0" });
    expect(row!.last_seen_at.getTime()).toBe(recorded);
  });

  it("the license file with a fingerprint is bound to the machine, or refused with MACHINE_NOT_ACTIVATED", async () => {
    const client = tool();
    const path = (n: number) => `/licenses/file?key=${encodeURIComponent(license.license_key)}&fingerprint=${fp(n)}`;
    const refused = await client.get(path(1));
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "MACHINE_NOT_ACTIVATED" });
    await activate(1);
    const file = await client.get(path(1));
    expect(file.status).toBe(200);
    const payload = licenseFilePayload(file.json, client.publishedKeys());
    expect(payload).toMatchObject({ fingerprint_sha256: sha256(fp(1)), machine_name: "PC-1" });
    expect(Date.parse(payload.refresh_by)).toBeGreaterThan(Date.now());
  });

  it("revoked, refunded and expired licenses answer their codes whatever the machine", async () => {
    await activate(1);
    for (const [values, code] of [
      [{ status: "revoked" }, "REVOKED"],
      [{ status: "refunded", refunded: true }, "REFUNDED"],
      [{ status: "active", refunded: false, end_date: new Date(Date.now() - DAY) }, "EXPIRED"],
    ] as const) {
      await db().update(licenses).set(values).where(eq(licenses.id, license.id));
      expect((await validate(1)).json.code).toBe(code);
      expect((await validate(2)).json.code).toBe(code);
      expect((await activate(2)).json).toMatchObject({ code, machine: null, license_file: null });
      expect((await deactivate(1)).json).toMatchObject({ code, deactivated: false });
      const file = await tool().get(
        `/licenses/file?key=${encodeURIComponent(license.license_key)}&fingerprint=${fp(1)}`,
      );
      expect(file.json.code).toBe(code);
    }
    expect(await active()).toHaveLength(1);
  });

  it("deactivation by the tool and the web: 3 per license per 30 days, then DEACTIVATION_LIMIT; an admin always, audited", async () => {
    for (const n of [1, 2]) await activate(n);
    const first = await deactivate(1);
    expect(first.json).toMatchObject({ valid: true, code: "VALID", deactivated: true, deactivations_left: 2 });
    expect((await deactivate(1)).json).toMatchObject({ code: "MACHINE_NOT_ACTIVATED", deactivated: false });
    expect((await validate(1)).json.code).toBe("MACHINE_NOT_ACTIVATED");
    await activate(1);
    const [pc1] = (await active()).filter((m) => m.name === "PC-1");
    const web = await deactivateFromPage({ userId, licenseId: license.id, machineId: pc1!.id });
    expect(web).toMatchObject({ status: 200, toast: { variant: "success" } });
    await activate(1);
    expect((await deactivate(1)).json).toMatchObject({ deactivated: true, deactivations_left: 0 });
    await activate(1);
    const limited = await deactivate(1);
    expect(limited.json).toMatchObject({ valid: false, code: "DEACTIVATION_LIMIT", deactivated: false });
    const [firstAt] = await db()
      .select({ at: machine_deactivations.created_at })
      .from(machine_deactivations)
      .orderBy(machine_deactivations.created_at)
      .limit(1);
    expect(limited.json.next_deactivation_at).toBe(new Date(firstAt!.at.getTime() + 30 * DAY).toISOString());
    const [pc1again] = (await active()).filter((m) => m.name === "PC-1");
    const page = await deactivateFromPage({ userId, licenseId: license.id, machineId: pc1again!.id });
    expect(page.status).toBe(429);
    expect(page.toast.description).toMatch(/next one is possible on .* Support can help sooner/);
    // Someone else's license is not found; an admin always may, audited, not counted.
    const admin = (await db().select().from(users).where(eq(users.email, ADMIN.email)))[0]!;
    expect(
      (await deactivateFromPage({ userId: admin.id, licenseId: license.id, machineId: pc1again!.id })).status,
    ).toBe(404);
    const byAdmin = await deactivateFromPage({
      userId,
      licenseId: license.id,
      machineId: pc1again!.id,
      admin: { id: admin.id, email: admin.email },
    });
    expect(byAdmin.status).toBe(200);
    const audit = await db().select().from(audit_log).where(eq(audit_log.action, "machine.deactivate"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: admin.email, target_id: license.id });
    // Moving the first deactivation out of the window frees one more.
    await db()
      .update(machine_deactivations)
      .set({ created_at: new Date(Date.now() - 31 * DAY) })
      .where(eq(machine_deactivations.created_at, firstAt!.at));
    expect((await deactivate(2)).json).toMatchObject({ deactivated: true, deactivations_left: 0 });
  });

  it("two activations racing for the last seat: exactly one wins", async () => {
    await activate(1);
    const answers = await Promise.all([2, 3, 4, 5].map((n) => activate(n)));
    expect(answers.filter((a) => a.json.code === "VALID")).toHaveLength(1);
    expect(answers.filter((a) => a.json.code === "MACHINE_LIMIT")).toHaveLength(3);
    expect(await active()).toHaveLength(2);
    // The same fingerprint racing itself makes one machine.
    await deactivate(1);
    await Promise.all([6, 6, 6].map((n) => activate(n)));
    expect((await active()).filter((m) => m.name === "PC-6")).toHaveLength(1);
  });

  it("the inactivity job releases machines silent for MACHINE_INACTIVE_AFTER_DAYS (unset: never)", async () => {
    for (const n of [1, 2]) await activate(n);
    await db()
      .update(machines)
      .set({ last_seen_at: new Date(Date.now() - 11 * DAY) })
      .where(eq(machines.fingerprint_hash, sha256(fp(1))));
    expect(await releaseInactiveMachines()).toEqual({ released: 0 });
    setEnv(parseEnv({ ...envSource(baseEnv), MACHINE_INACTIVE_AFTER_DAYS: "10" }));
    expect(await releaseInactiveMachines()).toEqual({ released: 1 });
    expect((await active()).map((m) => m.name)).toEqual(["PC-2"]);
    const [record] = await db().select().from(machine_deactivations);
    expect(record).toMatchObject({ source: "inactivity", counts_toward_limit: false });
    expect((await validate(1)).json.code).toBe("MACHINE_NOT_ACTIVATED");
    expect((await activate(3)).json.code).toBe("VALID");
  });

  it("refuses malformed machine fields with a 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      ...["short", "x".repeat(129), "has spaces in the fingerprint", undefined].map(
        (fingerprint) => [{ fingerprint }, "fingerprint"] as [Record<string, unknown>, string],
      ),
      [{ name: "" }, "name"],
      [{ name: "n".repeat(65) }, "name"],
      [{ app_version: "v".repeat(33) }, "app_version"],
    ];
    for (const [extra, field] of cases) {
      const answer = await activate(1, extra);
      expect(answer.status, field).toBe(400);
      expect(answer.json.field).toBe(field);
    }
    expect((await tool().post("/machines/deactivate", { key: license.license_key })).json.field).toBe("fingerprint");
    expect((await validate(1, { fingerprint: 42 })).status).toBe(400);
    expect(await active()).toHaveLength(0);
  });

  it("limits requests per license key (API_KEY_RATE_LIMIT) besides per IP: 429, signed, with Retry-After", async () => {
    setEnv(parseEnv({ ...envSource(baseEnv), API_KEY_RATE_LIMIT: "2" }));
    expect((await validate(1)).status).toBe(200);
    expect((await activate(1)).status).toBe(200);
    const limited = await validate(1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const other = await tool().post("/licenses/validate", { key: "another key" });
    expect(other.json.code).toBe("NOT_FOUND");
  });
});
