import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as licensesRoute from "~/routes/licenses";
import { audit_log } from "~/server/db/schema";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { licenseApiApp, NONCE, openLicenseFile } from "../../support/license-api-app";
import { call, formRequest, routeArgs, signInCookie } from "../../support/route-call";
import { testEngines } from "../../support/test-app";

const [, USER] = DEMO_ACCOUNTS;
const DAY = 24 * 60 * 60 * 1000;

describe.each(testEngines())("desktop API /api/v1 (%s)", (engine) => {
  const {
    startApp,
    stopApp,
    reseed,
    state,
    db,
    published,
    api,
    validate,
    activate,
    seeded,
    reload,
    renewing,
    setLicense,
  } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(reseed);

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
        actor_id: state.userId,
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
        "entitlements",
        "entitlements_as_of",
        "fallback_version",
        "updates_until",
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
        // The plan's entitlements as of the file's issued_at.
        entitlements: ["generate", "batch"],
        entitlements_as_of: payload.issued_at,
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
});
