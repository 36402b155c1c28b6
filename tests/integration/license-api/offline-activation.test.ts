import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACTIVATION_REQUEST_FORMAT, OFFLINE_ACTIVATION_TEXTS } from "~/domain/activation-request";
import * as doneRoute from "~/routes/licenses.offline-activation.done";
import * as fileRoute from "~/routes/licenses.offline-activation.file";
import * as activationRoute from "~/routes/licenses.offline-activation";
import { licenses, machines, offline_activations, users, webhook_events } from "~/server/db/schema";
import { offlineActivation } from "~/server/license-api/offline-activation.server";
import { deactivateFromPage } from "~/server/machines/web-deactivation.server";
import { claimDomainSeat } from "~/server/teams/team-accept.server";
import { setDomainClaim } from "~/server/teams/team-members.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { licenseApiApp, NONCE, openLicenseFile } from "../../support/license-api-app";
import { call, getRequest, ORIGIN, routeArgs, signInCookie } from "../../support/route-call";
import { buyTeam, givePassword } from "../../support/team";
import { createUser, testEngines } from "../../support/test-app";

// Activation without a network (decision 0071): the owner uploads the tool's activation request on a
// license card and gets the activation file; limits, replays and other licenses are refused, storing nothing.

const [, USER] = DEMO_ACCOUNTS;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const fp = (n: number) => `offline-fingerprint-${String(n).padStart(4, "0")}`;

/** A multipart post of the activation form, as the browser sends it (the file, or the pasted text). */
function upload(
  licenseId: string,
  cookie: string,
  { file, text }: { file?: string | Uint8Array<ArrayBuffer>; text?: string },
) {
  const form = new FormData();
  form.set("licenseId", licenseId);
  form.set(
    "activation_request_file",
    new File(file === undefined ? [] : [file], file === undefined ? "" : "activation-request.json", {
      type: file === undefined ? "application/octet-stream" : "application/json",
    }),
  );
  form.set("activation_request", text ?? "");
  const request = new Request(`${ORIGIN}/licenses/offline-activation`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: ORIGIN },
    body: form,
  });
  return call(() => activationRoute.action(routeArgs(request)));
}

describe.each(testEngines())("offline activation on the licenses page (%s)", (engine) => {
  const { startApp, stopApp, reseed, state, db, published, api, validate, seeded, renewing, setLicense } =
    licenseApiApp(engine);
  let cookie: string;
  beforeAll(startApp);
  afterAll(stopApp);
  // The demo customer is made again before each test, and signed in again (its sessions went with it).
  beforeEach(async () => {
    await reseed();
    cookie = await signInCookie(USER.email, USER.password);
  });

  const requestFor = (key: string, n: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      format: ACTIVATION_REQUEST_FORMAT,
      license_key: key,
      fingerprint: fp(n),
      name: `OFFLINE-${n}`,
      nonce: `request-nonce-${n}-${Math.random().toString(36).slice(2)}`,
      created_at: "2026-11-28T09:30:00Z",
      platform: "Windows 11 Pro",
      app_version: "2.4.0",
      ...extra,
    });
  const activationId = (location: string | null) => location!.split("/").pop()!;
  const confirmation = (id: string, as = cookie) =>
    call(() =>
      doneRoute.loader({
        ...routeArgs(getRequest(`/licenses/offline-activation/${id}`, as)),
        params: { activationId: id },
      }),
    );
  const download = async (id: string, as = cookie) =>
    (await fileRoute.loader({
      ...routeArgs(getRequest(`/licenses/offline-activation/${id}/file`, as)),
      params: { activationId: id },
    })) as Response;
  /** What the refusals must leave untouched: the machines, the recorded requests, the events. */
  const stored = async () => ({
    machines: (await db().select().from(machines)).length,
    requests: (await db().select().from(offline_activations)).length,
    events: (await db().select().from(webhook_events)).length,
  });

  it("activates the machine from an uploaded request and hands out its signed activation file", async () => {
    const license = await renewing();
    const text = requestFor(license.license_key, 1);
    const answer = await upload(license.id, cookie, { file: text });
    expect(answer.status).toBe(303);
    const id = activationId(answer.headers.get("Location"));
    expect(answer.headers.get("Location")).toBe(`/licenses/offline-activation/${id}`);

    const [machine] = await db()
      .select()
      .from(machines)
      .where(and(eq(machines.license_id, license.id), isNull(machines.deactivated_at)));
    expect(machine).toMatchObject({
      fingerprint_hash: sha256(fp(1)),
      name: "OFFLINE-1",
      platform: "Windows 11 Pro",
      app_version: "2.4.0",
    });
    const [recorded] = await db().select().from(offline_activations);
    expect(recorded).toMatchObject({
      license_id: license.id,
      machine_id: machine!.id,
      user_id: state.userId,
      nonce: JSON.parse(text).nonce,
    });

    const page = await confirmation(id);
    expect(page.data.activation).toMatchObject({
      shortId: license.short_id,
      machineName: "OFFLINE-1",
      fileAvailable: true,
    });
    expect(OFFLINE_ACTIVATION_TEXTS.done("OFFLINE-1", license.short_id)).toBe(
      `OFFLINE-1 is activated on license ${license.short_id}.`,
    );

    const response = await download(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".*-activation\.lic"$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    await api("GET", "/keys");
    const payload = openLicenseFile(JSON.parse(await response.text()), published());
    expect(payload).toMatchObject({
      license_id: license.id,
      fingerprint_sha256: sha256(fp(1)),
      machine_name: "OFFLINE-1",
      request_nonce: JSON.parse(text).nonce,
    });

    // Online again, the tool's validation with its fingerprint finds the machine active.
    const online = await validate({ key: license.license_key, fingerprint: fp(1) });
    expect(online.json).toMatchObject({ valid: true, code: "VALID", machine: { name: "OFFLINE-1" } });
  });

  it("reads a pasted request (base64 too), and the same machine again takes no second seat", async () => {
    const license = await renewing();
    const first = await upload(license.id, cookie, { text: requestFor(license.license_key, 2) });
    expect(first.status).toBe(303);
    const pasted = Buffer.from(requestFor(license.license_key, 2, { name: "OFFLINE-2B" })).toString("base64");
    const again = await upload(license.id, cookie, { text: pasted.replace(/(.{64})/g, "$1\n") });
    expect(again.status).toBe(303);
    const active = await db()
      .select()
      .from(machines)
      .where(and(eq(machines.license_id, license.id), isNull(machines.deactivated_at)));
    expect(active).toHaveLength(1);
    expect(active[0]!.name).toBe("OFFLINE-2B");
    expect(await db().select().from(offline_activations)).toHaveLength(2);
  });

  it("refuses a request used before, storing nothing more", async () => {
    const license = await renewing();
    const text = requestFor(license.license_key, 3);
    expect((await upload(license.id, cookie, { file: text })).status).toBe(303);
    const before = await stored();
    const replay = await upload(license.id, cookie, { text });
    expect(replay.status).toBe(409);
    expect(replay.data).toEqual({
      code: "activation_request_used",
      message: OFFLINE_ACTIVATION_TEXTS.used,
      licenseId: license.id,
    });
    expect(await stored()).toEqual(before);
  });

  it("counts toward the machine limit like an online activation: a full license is refused", async () => {
    const license = await renewing();
    for (const n of [10, 11]) {
      const online = await api("POST", "/machines/activate", {
        body: { key: license.license_key, fingerprint: fp(n), name: `PC-${n}`, nonce: NONCE },
      });
      expect(online.json.code).toBe("VALID");
    }
    const before = await stored();
    const full = await upload(license.id, cookie, { file: requestFor(license.license_key, 12) });
    expect(full.status).toBe(409);
    expect(full.data).toMatchObject({ code: "MACHINE_LIMIT", message: OFFLINE_ACTIVATION_TEXTS.full(2) });
    expect(await stored()).toEqual(before);
  });

  it("refuses a request for another license, another user's or none, storing nothing", async () => {
    const license = await renewing();
    const sibling = await seeded((l) => l.id !== license.id && l.status === "active" && !l.team_role);
    const other = await createUser(db(), "someone-else@example.com");
    const theirs = await seeded((l) => l.id !== license.id && l.id !== sibling.id && l.status === "active");
    await setLicense(theirs.id, { user_id: other.id });
    const before = await stored();

    const onAnotherCard = await upload(license.id, cookie, { file: requestFor(sibling.license_key, 20) });
    expect(onAnotherCard.status).toBe(409);
    expect(onAnotherCard.data).toMatchObject({
      code: "other_license",
      message: OFFLINE_ACTIVATION_TEXTS.otherLicense(sibling.short_id),
    });
    for (const key of [theirs.license_key, "no-such-key:0000"]) {
      const refused = await upload(license.id, cookie, { file: requestFor(key, 21) });
      expect(refused.status).toBe(404);
      expect(refused.data).toMatchObject({ code: "license_not_found", message: OFFLINE_ACTIVATION_TEXTS.notYours });
    }
    expect(await stored()).toEqual(before);
    await db().delete(users).where(eq(users.id, other.id));
  });

  it("refuses a license that is not valid with its code, and requests that are not requests", async () => {
    const revoked = await seeded((l) => l.status === "revoked");
    const before = await stored();
    const refused = await upload(revoked.id, cookie, { file: requestFor(revoked.license_key, 30) });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ code: "REVOKED", message: OFFLINE_ACTIVATION_TEXTS.notValid.REVOKED });

    const license = await renewing();
    const cases: [{ file?: string | Uint8Array<ArrayBuffer>; text?: string }, number, string][] = [
      [{}, 400, "activation_request_missing"],
      [{ text: "hello" }, 400, "not_an_activation_request"],
      [{ file: new Uint8Array([0, 1, 2, 3]) }, 400, "not_an_activation_request"],
      [
        { file: JSON.stringify({ format: "license/1", kid: "k", payload: "p", signature: "s" }) },
        400,
        "not_an_activation_request",
      ],
      [{ text: requestFor(license.license_key, 31, { fingerprint: "short" }) }, 400, "activation_request_invalid"],
      [
        { file: requestFor(license.license_key, 32, { format: "activation-request/2" }) },
        400,
        "activation_request_version",
      ],
      [{ file: "x".repeat(20_000) }, 413, "activation_request_too_large"],
    ];
    for (const [input, status, code] of cases) {
      const answer = await upload(license.id, cookie, input);
      expect(answer.status, code).toBe(status);
      expect(answer.data.code).toBe(code);
    }
    expect(await stored()).toEqual(before);
  });

  it("deactivating the machine on the web frees the seat, and the next online check says it is not activated", async () => {
    const license = await renewing();
    const answer = await upload(license.id, cookie, { file: requestFor(license.license_key, 40) });
    const id = activationId(answer.headers.get("Location"));
    const [machine] = await db().select().from(machines).where(eq(machines.license_id, license.id));
    const freed = await deactivateFromPage({ userId: state.userId, licenseId: license.id, machineId: machine!.id });
    expect(freed.status).toBe(200);

    const online = await validate({ key: license.license_key, fingerprint: fp(40) });
    expect(online.json).toMatchObject({ valid: false, code: "MACHINE_NOT_ACTIVATED" });
    const file = await api(
      "GET",
      `/licenses/file?key=${encodeURIComponent(license.license_key)}&fingerprint=${fp(40)}`,
    );
    expect(file.status).toBe(409);
    expect(file.json.code).toBe("MACHINE_NOT_ACTIVATED");

    // The seat is free: two other machines fit the license's two seats.
    for (const n of [41, 42])
      expect((await upload(license.id, cookie, { file: requestFor(license.license_key, n) })).status).toBe(303);

    // Its confirmation says so and hands out no file.
    const page = await confirmation(id);
    expect(page.data.activation).toMatchObject({
      fileAvailable: false,
      unavailable: OFFLINE_ACTIVATION_TEXTS.noLongerActive,
    });
    const gone = await download(id);
    expect(gone.status).toBe(303);
    expect(gone.headers.get("Location")).toBe(`/licenses/offline-activation/${id}`);
  });

  it("shows an activation and its file to its owner only", async () => {
    const license = await renewing();
    const answer = await upload(license.id, cookie, { file: requestFor(license.license_key, 50) });
    const id = activationId(answer.headers.get("Location"));
    const nosy = await createUser(db(), "nosy@example.com");
    // Another account: no such activation (the page and the file answer 404 on null).
    expect(await offlineActivation(nosy.id, id)).toBeNull();
    expect(await offlineActivation(state.userId, id)).not.toBeNull();
    // The license handed to someone else: its former owner no longer sees the activation.
    await setLicense(license.id, { user_id: nosy.id });
    expect(await offlineActivation(state.userId, id)).toBeNull();
    expect((await confirmation(id)).status).toBe(404);
    expect((await download(id)).status).toBe(404);
    // The next reseed makes the demo customer's licenses again: the moved one goes with its new owner.
    await db().delete(users).where(eq(users.id, nosy.id));
    // Signed out: to the login page.
    expect(
      (await call(() => activationRoute.loader(routeArgs(getRequest("/licenses/offline-activation"))))).status,
    ).toBe(302);
  });

  it("lets a team's seat holder activate on their seat; the team's owner cannot use the seat's request", async () => {
    const domain = `offline-${engine}.example.com`;
    const owner = await createUser(db(), `owner@${domain}`);
    const member = await createUser(db(), `dana@${domain}`);
    await givePassword(db(), owner.id, "owner-password-1");
    await givePassword(db(), member.id, "member-password-1");
    const { team, billing } = await buyTeam(db(), state.demo, owner, 2);
    await setDomainClaim({ teamId: team.id, actorId: owner.id, enabled: true });
    const { licenseId } = await claimDomainSeat({ teamId: team.id, userId: member.id });
    const [seat] = await db().select().from(licenses).where(eq(licenses.id, licenseId));
    const ownerCookie = await signInCookie(owner.email, "owner-password-1");
    const memberCookie = await signInCookie(member.email, "member-password-1");

    const before = await stored();
    // The owner pays for the seat but does not hold it; the team's subscription row's key opens nothing.
    for (const [card, key] of [
      [seat!.id, seat!.license_key],
      [billing.id, billing.license_key],
    ] as const) {
      const refused = await upload(card, ownerCookie, { file: requestFor(key, 60) });
      expect(refused.status).toBe(404);
      expect(refused.data.code).toBe("license_not_found");
    }
    expect(await stored()).toEqual(before);

    const answer = await upload(seat!.id, memberCookie, { file: requestFor(seat!.license_key, 61) });
    expect(answer.status).toBe(303);
    const page = await confirmation(activationId(answer.headers.get("Location")), memberCookie);
    expect(page.data.activation).toMatchObject({
      shortId: seat!.short_id,
      machineName: "OFFLINE-61",
      fileAvailable: true,
    });
  });
});
