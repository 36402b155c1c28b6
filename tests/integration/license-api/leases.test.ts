import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nextCardChange } from "~/domain/license-card";
import { LEASE_TEXTS, LEASE_TTL_MESSAGE } from "~/domain/leases";
import { leases, machine_deactivations, machines, type License } from "~/server/db/schema";
import { LEASE_CODE_DETAILS } from "~/server/license-api/leases-api.server";
import { CODE_DETAILS } from "~/server/license-api/validate-license.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import { adminUserMachines } from "~/server/machines/list-machines.server";
import { licenseApiApp, NONCE } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

// Floating leases through the desktop API (decision 0069): take, heartbeat and return, the plan
// table's limit, expiry by the clock (the database's: the tests move a lease's end into the past),
// the refusals' signed 4xx codes with nothing stored, and leases kept apart from machines.

const MINUTE = 60_000;
const fp = (n: number) => `lease-fingerprint-${String(n).padStart(4, "0")}`;

describe.each(testEngines())("floating leases through the desktop API (%s)", (engine) => {
  const { startApp, stopApp, reseed, db, api, seeded, setLicense, state } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(reseed);

  /** The seeded yearly license (3 floating leases), the monthly one (none), the active trial (1). */
  const yearly = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
  const monthly = () => seeded((l) => l.paddle_subscription_id === "sub_demo_seed_renewing");
  const trial = () => seeded((l) => l.is_trial && l.end_date.getTime() > Date.now());

  const take = (license: License, n: number, extra: Record<string, unknown> = {}) =>
    api("POST", "/leases", { body: { nonce: NONCE, key: license.license_key, fingerprint: fp(n), ...extra } });
  const heartbeat = (license: License, id: string, extra: Record<string, unknown> = {}) =>
    api("POST", `/leases/${id}/heartbeat`, { body: { nonce: NONCE, key: license.license_key, ...extra } });
  const giveBack = (license: License, id: string) =>
    api("DELETE", `/leases/${id}?key=${encodeURIComponent(license.license_key)}&nonce=${NONCE}`);
  const leaseRows = async (license?: License) =>
    license ? db().select().from(leases).where(eq(leases.license_id, license.id)) : db().select().from(leases);
  /** Moves a lease's end by `ms` from now (negative: it has ended), as the clock would. */
  const endIn = (id: string, ms: number) =>
    db()
      .update(leases)
      .set({ expires_at: new Date(Date.now() + ms) })
      .where(eq(leases.id, id));

  it("lends a lease for 20 minutes by default, signed, naming when it ends and the license's state", async () => {
    const license = await yearly();
    const before = Date.now();
    const answer = await take(license, 1, { name: "BUILD-AGENT-1" });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      valid: true,
      code: "VALID",
      license: { id: license.id, license_type: "yearly", license_key: license.license_key },
      floating_limit: 3,
      leases_in_use: 1,
      nonce: NONCE,
      lease: { license_id: license.id, name: "BUILD-AGENT-1", ttl_minutes: 20, returned_at: null },
    });
    const { lease } = answer.json;
    const ends = Date.parse(lease.expires_at);
    expect(ends - Date.parse(lease.taken_at)).toBe(20 * MINUTE);
    expect(ends).toBeGreaterThan(before + 19 * MINUTE);
    expect(ends).toBeLessThan(Date.now() + 21 * MINUTE);
    const [row] = await leaseRows(license);
    expect(row).toMatchObject({ id: lease.id, user_id: license.user_id, ttl_minutes: 20, returned_at: null });
    // The site keeps the fingerprint's hash only.
    expect(row!.fingerprint_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(answer.json)).not.toContain(fp(1));
  });

  it("takes a time to live from 1 to 1440 minutes, and refuses any other with a 400 naming ttl_minutes, storing nothing", async () => {
    const license = await yearly();
    const short = await take(license, 1, { ttl_minutes: 1 });
    expect(Date.parse(short.json.lease.expires_at) - Date.parse(short.json.lease.taken_at)).toBe(MINUTE);
    const day = await take(license, 2, { ttl_minutes: 1440 });
    expect(day.json.lease.ttl_minutes).toBe(1440);
    for (const ttl of [0, -5, 1441, 1.5, "20", true]) {
      const refused = await take(license, 3, { ttl_minutes: ttl });
      expect(refused.status, String(ttl)).toBe(400);
      expect(refused.json).toMatchObject({ field: "ttl_minutes", error: LEASE_TTL_MESSAGE, nonce: NONCE });
    }
    expect(await leaseRows(license)).toHaveLength(2);
  });

  it("the same machine again gets its own lease back, extended, without using a second", async () => {
    const license = await yearly();
    const first = (await take(license, 1, { ttl_minutes: 5 })).json.lease;
    const again = await take(license, 1, { ttl_minutes: 30 });
    expect(again.status).toBe(200);
    expect(again.json.lease).toMatchObject({ id: first.id, ttl_minutes: 30, name: null });
    expect(again.json.leases_in_use).toBe(1);
    expect(Date.parse(again.json.lease.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    expect(await leaseRows(license)).toHaveLength(1);
  });

  it("lends exactly the plan's leases: the next taker hears LEASE_LIMIT with when one is free, and nothing is stored", async () => {
    const license = await yearly();
    const taken: any[] = [];
    for (const n of [1, 2, 3]) taken.push((await take(license, n, { ttl_minutes: 10 * n })).json);
    expect(taken.map((answer) => answer.leases_in_use)).toEqual([1, 2, 3]);
    const full = await take(license, 4);
    expect(full.status).toBe(409);
    expect(full.json).toEqual({
      error: LEASE_CODE_DETAILS.LEASE_LIMIT,
      code: "LEASE_LIMIT",
      floating_limit: 3,
      leases_in_use: 3,
      next_free_at: taken[0].lease.expires_at,
      nonce: NONCE,
      issued_at: expect.any(String),
    });
    expect(await leaseRows(license)).toHaveLength(3);
    // A holder taking again is not refused.
    expect((await take(license, 2)).status).toBe(200);
  });

  it("racing takers on one server get exactly the limit", async () => {
    const license = await yearly();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => take(license, n + 1)));
    const codes = answers.map((answer) => answer.json.code ?? answer.status);
    expect(codes.filter((code) => code === "VALID")).toHaveLength(3);
    expect(codes.filter((code) => code === "LEASE_LIMIT")).toHaveLength(9);
    expect(await leaseRows(license)).toHaveLength(3);
  });

  it("a heartbeat moves the lease's end on by its time to live, or by the one sent", async () => {
    const license = await yearly();
    const { lease } = (await take(license, 1, { ttl_minutes: 15 })).json;
    await endIn(lease.id, 2 * MINUTE);
    const beat = await heartbeat(license, lease.id);
    expect(beat.status).toBe(200);
    expect(beat.json).toMatchObject({ valid: true, code: "VALID", leases_in_use: 1, floating_limit: 3 });
    expect(beat.json.lease).toMatchObject({ id: lease.id, ttl_minutes: 15, taken_at: lease.taken_at });
    const ends = Date.parse(beat.json.lease.expires_at);
    expect(ends - Date.parse(beat.json.lease.heartbeat_at)).toBe(15 * MINUTE);
    expect(ends).toBeGreaterThan(Date.now() + 14 * MINUTE);
    const longer = await heartbeat(license, lease.id, { ttl_minutes: 60 });
    expect(longer.json.lease.ttl_minutes).toBe(60);
    expect((await heartbeat(license, lease.id, { ttl_minutes: 0 })).json).toMatchObject({
      field: "ttl_minutes",
    });
  });

  it("a lease not heartbeated is free after its time to live: its heartbeat hears LEASE_EXPIRED, another machine takes it", async () => {
    const license = await yearly();
    const held: any[] = [];
    for (const n of [1, 2, 3]) held.push((await take(license, n)).json.lease);
    expect((await take(license, 4)).json.code).toBe("LEASE_LIMIT");
    await endIn(held[1].id, -1000);
    const late = await heartbeat(license, held[1].id);
    expect(late.status).toBe(410);
    expect(late.json).toMatchObject({
      code: "LEASE_EXPIRED",
      error: LEASE_CODE_DETAILS.LEASE_EXPIRED,
      lease: { id: held[1].id },
      nonce: NONCE,
    });
    expect(Date.parse(late.json.lease.expires_at)).toBeLessThan(Date.now());
    // The ended lease is not revived by its heartbeat.
    expect((await leaseRows(license)).find((row) => row.id === held[1].id)!.expires_at.getTime()).toBeLessThan(
      Date.now(),
    );
    const fourth = await take(license, 4);
    expect(fourth.status).toBe(200);
    expect(fourth.json.leases_in_use).toBe(3);
  });

  it("a returned lease is free at once; returning it again is answered returned: false; its heartbeat hears LEASE_EXPIRED", async () => {
    const license = await yearly();
    for (const n of [1, 2, 3]) await take(license, n);
    const { lease } = (await take(license, 2)).json;
    const returned = await giveBack(license, lease.id);
    expect(returned.status).toBe(200);
    expect(returned.json).toMatchObject({ returned: true, lease: { id: lease.id }, nonce: NONCE });
    expect(returned.json.lease.returned_at).toBe(returned.json.lease.expires_at);
    expect((await take(license, 4)).status).toBe(200);
    const again = await giveBack(license, lease.id);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ returned: false, lease: { id: lease.id } });
    expect((await heartbeat(license, lease.id)).json.code).toBe("LEASE_EXPIRED");
  });

  it("a plan without floating use is refused NO_FLOATING_USE (403), and nothing is stored", async () => {
    const license = await monthly();
    const refused = await take(license, 1);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      error: LEASE_CODE_DETAILS.NO_FLOATING_USE,
      code: "NO_FLOATING_USE",
      floating_limit: 0,
      nonce: NONCE,
      issued_at: expect.any(String),
    });
    expect(await leaseRows()).toHaveLength(0);
  });

  it("a trial lends one lease", async () => {
    const license = await trial();
    expect((await take(license, 1)).json).toMatchObject({ code: "VALID", floating_limit: 1 });
    expect((await take(license, 2)).json).toMatchObject({ code: "LEASE_LIMIT", floating_limit: 1 });
  });

  it("a license that is not valid lends and extends nothing: 409 with its code, as validate names it", async () => {
    const license = await yearly();
    const { lease } = (await take(license, 1)).json;
    const unknown = await api("POST", "/leases", { body: { nonce: NONCE, key: "no-such-key", fingerprint: fp(1) } });
    expect(unknown.status).toBe(409);
    expect(unknown.json).toMatchObject({ code: "NOT_FOUND", error: `No lease: ${CODE_DETAILS.NOT_FOUND}` });
    await setLicense(license.id, { end_date: new Date(Date.now() - 1000), auto_renew: false });
    expect((await take(license, 2)).json).toMatchObject({ code: "EXPIRED" });
    const beat = await heartbeat(license, lease.id);
    expect(beat.status).toBe(409);
    expect(beat.json.code).toBe("EXPIRED");
    await setLicense(license.id, { end_date: new Date(Date.now() + 30 * 24 * 60 * MINUTE), status: "revoked" });
    expect((await take(license, 2)).json).toMatchObject({
      code: "REVOKED",
      error: `No lease: ${CODE_DETAILS.REVOKED}`,
    });
    expect(await leaseRows(license)).toHaveLength(1);
    // Giving back what a machine holds needs no valid license.
    expect((await giveBack(license, lease.id)).json).toMatchObject({ returned: true });
  });

  it("another license's lease, an unknown one and a malformed id: LEASE_NOT_FOUND (404) or a 400, and nothing changes", async () => {
    const owner = await yearly();
    const other = await trial();
    const { lease } = (await take(owner, 1)).json;
    for (const answer of [await heartbeat(other, lease.id), await giveBack(other, lease.id)]) {
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ code: "LEASE_NOT_FOUND", error: LEASE_CODE_DETAILS.LEASE_NOT_FOUND });
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await heartbeat(owner, unknown)).json.code).toBe("LEASE_NOT_FOUND");
    const noKey = await api("DELETE", `/leases/${lease.id}?nonce=${NONCE}`);
    expect(noKey.status).toBe(400);
    expect(noKey.json).toMatchObject({ field: "key", nonce: NONCE });
    const malformed = await heartbeat(owner, "not-a-lease");
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ field: "lease_id" });
    const [row] = await leaseRows(owner);
    expect(row).toMatchObject({ returned_at: null, expires_at: new Date(lease.expires_at) });
  });

  it("refuses a malformed take with a signed 400 naming the field, storing nothing", async () => {
    const license = await yearly();
    const cases: [Record<string, unknown>, string][] = [
      [{ key: license.license_key, fingerprint: fp(1) }, "nonce"],
      [{ nonce: NONCE, fingerprint: fp(1) }, "key"],
      [{ nonce: NONCE, key: license.license_key }, "fingerprint"],
      [{ nonce: NONCE, key: license.license_key, fingerprint: "short" }, "fingerprint"],
      [{ nonce: NONCE, key: license.license_key, fingerprint: fp(1), name: "x".repeat(65) }, "name"],
    ];
    for (const [body, field] of cases) {
      const answer = await api("POST", "/leases", { body });
      expect(answer.status, field).toBe(400);
      expect(answer.json.field).toBe(field);
    }
    const wrongMethod = await api("GET", "/leases");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("POST");
    expect((await api("PUT", `/leases/${"0".repeat(8)}-0000-4000-8000-000000000000`)).headers.allow).toBe("DELETE");
    expect(await leaseRows()).toHaveLength(0);
  });

  it("leases use no seat of the machine limit and no deactivation", async () => {
    const license = await yearly();
    for (const n of [1, 2]) {
      const machine = await api("POST", "/machines/activate", {
        body: { nonce: NONCE, key: license.license_key, fingerprint: fp(100 + n), name: `PC-${n}` },
      });
      expect(machine.json.code).toBe("VALID");
    }
    const held: any[] = [];
    for (const n of [1, 2, 3]) held.push((await take(license, n)).json);
    expect(held.map((answer) => answer.code)).toEqual(["VALID", "VALID", "VALID"]);
    // An activated machine may hold a lease as well: the two are counted apart.
    expect((await giveBack(license, held[0].lease.id)).json.returned).toBe(true);
    expect((await take(license, 101)).json.code).toBe("VALID");
    for (const answer of held.slice(1)) await giveBack(license, answer.lease.id);
    const third = await api("POST", "/machines/activate", {
      body: { nonce: NONCE, key: license.license_key, fingerprint: fp(103), name: "PC-3" },
    });
    expect(third.json.code).toBe("MACHINE_LIMIT");
    expect(third.json.machines).toHaveLength(2);
    expect(await db().select().from(machines).where(eq(machines.license_id, license.id))).toHaveLength(2);
    expect(await db().select().from(machine_deactivations)).toHaveLength(0);
  });

  it("the license card counts the live leases of a plan with floating use, and support sees each one", async () => {
    const license = await yearly();
    const first = (await take(license, 1, { name: "BUILD-AGENT-1", ttl_minutes: 30 })).json.lease;
    const second = (await take(license, 2, { ttl_minutes: 5 })).json.lease;
    const ended = (await take(license, 3)).json.lease;
    await endIn(ended.id, -1000);
    const cards = await listUserLicenses(state.userId, { teams: true });
    const card = cards.find((l) => l.id === license.id)!;
    expect(card.machines!.floating).toEqual({
      limit: 3,
      leases: [
        { id: second.id, name: null, taken_at: second.taken_at, expires_at: second.expires_at },
        { id: first.id, name: "BUILD-AGENT-1", taken_at: first.taken_at, expires_at: first.expires_at },
      ],
    });
    expect(LEASE_TEXTS.inUse(card.machines!.floating!.leases.length, 3)).toBe("2 of 3 floating leases in use");
    // A plan without floating use has no such line.
    expect(cards.filter((l) => l.license_type === "monthly").every((l) => l.machines!.floating === undefined)).toBe(
      true,
    );
    // The cached page is kept no later than the first live lease's end, when the count changes by the clock.
    const until = nextCardChange(cards, new Date())!;
    expect(until.getTime()).toBeLessThanOrEqual(Date.parse(second.expires_at));
    const admin = (await adminUserMachines(state.userId)).find((l) => l.licenseId === license.id)!;
    expect(admin.floating!.leases.map((lease) => lease.name)).toEqual([null, "BUILD-AGENT-1"]);
  });
});
