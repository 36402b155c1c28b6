import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENTITLEMENTS, type Entitlement } from "~/domain/entitlements";
import { getPlan } from "~/domain/plans";
import { machines } from "~/server/db/schema";
import { licenseApiApp, NONCE, openLicenseFile } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

// Entitlements (app/domain/entitlements.ts, the plan table): the validation answer and the license file
// carry the plan's entitlements as the table names them when the answer is made; a request naming an
// entitlement the site does not know is a signed 400 with its code, and nothing is recorded.

const FINGERPRINT = "e".repeat(40);
const HOUR = 60 * 60 * 1000;

describe.each(testEngines())("entitlements on the desktop API (%s)", (engine) => {
  const { startApp, stopApp, reseed, db, api, validate, published, renewing, setLicense } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(reseed);

  const fileOf = async (key: string) => {
    const answer = await api("GET", `/licenses/file?key=${encodeURIComponent(key)}`);
    expect(answer.status).toBe(200);
    return openLicenseFile(answer.json, published());
  };

  it("a monthly license carries its plan's entitlements in the signed answer and the signed file", async () => {
    const license = await renewing();
    const answer = await validate({ key: license.license_key });
    expect(answer.json).toMatchObject({ valid: true, license: { entitlements: ["generate", "batch"] } });
    const payload = await fileOf(license.license_key);
    expect(payload.entitlements).toEqual(["generate", "batch"]);
    expect(payload.entitlements_as_of).toBe(payload.issued_at);
  });

  it("a tester license includes every entitlement; a yearly license includes the command line", async () => {
    const tester = await setLicense((await renewing()).id, { license_type: "tester", paddle_subscription_id: null });
    expect((await validate({ key: tester.license_key })).json.license.entitlements).toEqual([...ENTITLEMENTS]);
    expect((await fileOf(tester.license_key)).entitlements).toEqual([...ENTITLEMENTS]);
    const yearly = await setLicense(tester.id, { license_type: "yearly" });
    expect((await validate({ key: yearly.license_key })).json.license.entitlements).toEqual([
      "generate",
      "batch",
      "cli",
    ]);
  });

  it("an entitlement added to a plan reaches the tool at its next validation, and the next file says from when", async () => {
    const license = await renewing();
    const before = await validate({ key: license.license_key });
    expect(before.json.license.entitlements).not.toContain("cli");
    const oldFile = await fileOf(license.license_key);
    // The plan table as a deploy would change it: the monthly plan now includes the command line.
    const row = getPlan("monthly").entitlements as Entitlement[];
    row.push("cli");
    try {
      const after = await validate({ key: license.license_key });
      expect(after.json.license.entitlements).toEqual(["generate", "batch", "cli"]);
      const newFile = await fileOf(license.license_key);
      expect(newFile.entitlements).toEqual(["generate", "batch", "cli"]);
      expect(Date.parse(newFile.entitlements_as_of)).toBeGreaterThanOrEqual(Date.parse(oldFile.entitlements_as_of));
      expect(oldFile.entitlements).toEqual(["generate", "batch"]);
    } finally {
      row.pop();
    }
    expect((await validate({ key: license.license_key })).json.license.entitlements).toEqual(["generate", "batch"]);
  });

  it("a tool asking about entitlements is told whether the license gives them all", async () => {
    const license = await renewing();
    const given = await validate({ key: license.license_key, entitlements: ["batch", "generate"] });
    expect(given.json).toMatchObject({ valid: true, code: "VALID", entitled: true });
    const missing = await validate({ key: license.license_key, entitlements: ["cli"] });
    // The license is still valid: only the feature asked about is not included.
    expect(missing.json).toMatchObject({ valid: true, code: "VALID", entitled: false });
    const unknownKey = await validate({ key: "no-such-key", entitlements: ["generate"] });
    expect(unknownKey.json).toMatchObject({ code: "NOT_FOUND", entitled: false, license: null });
    // A tool that does not ask gets no `entitled`: the answer it was built against.
    expect((await validate({ key: license.license_key })).json).not.toHaveProperty("entitled");
  });

  it("an unknown entitlement is a signed 400 with its code, and nothing is recorded", async () => {
    const license = await renewing();
    const activated = await api("POST", "/machines/activate", {
      body: { key: license.license_key, fingerprint: FINGERPRINT, name: "DESK-1", nonce: NONCE },
    });
    expect(activated.json.code).toBe("VALID");
    const lastSeen = new Date(Date.now() - 2 * HOUR);
    await db().update(machines).set({ last_seen_at: lastSeen }).where(eq(machines.license_id, license.id));
    const seen = async () =>
      (await db().select().from(machines).where(eq(machines.license_id, license.id)))[0]!.last_seen_at.getTime();

    for (const entitlements of [["export"], ["generate", "Batch"], [7]]) {
      const refused = await validate({
        key: license.license_key,
        fingerprint: FINGERPRINT,
        app_version: "9.9.9",
        entitlements,
      });
      expect(refused.status, JSON.stringify(entitlements)).toBe(400);
      expect(refused.json).toMatchObject({
        field: "entitlements",
        code: "unknown_entitlement",
        error: expect.stringContaining("generate, batch, cli"),
        nonce: NONCE,
      });
      expect(await seen()).toBe(lastSeen.getTime());
    }
    // A list that is not one is malformed: 400 naming the field, and nothing recorded either.
    for (const entitlements of [[], "generate", { generate: true }]) {
      const refused = await validate({ key: license.license_key, fingerprint: FINGERPRINT, entitlements });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ field: "entitlements", error: expect.stringContaining("a list") });
      expect(await seen()).toBe(lastSeen.getTime());
    }
    // The same request with a known entitlement records the machine's last sighting: the refusal was what stopped it.
    const accepted = await validate({ key: license.license_key, fingerprint: FINGERPRINT, entitlements: ["generate"] });
    expect(accepted.json).toMatchObject({ code: "VALID", entitled: true, machine: { name: "DESK-1" } });
    expect(await seen()).toBeGreaterThan(lastSeen.getTime());
  });
});
