import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { revokeLicense } from "~/server/admin/manage-licenses.server";
import { demo_billing, users, type License } from "~/server/db/schema";
import { requestRefund } from "~/server/licenses/request-refund.server";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { licenseApiApp, NONCE } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

const [ADMIN, USER] = DEMO_ACCOUNTS;
const DAY = 24 * 60 * 60 * 1000;

describe.each(testEngines())("desktop API /api/v1 (%s)", (engine) => {
  const { startApp, stopApp, reseed, state, db, api, validate, seeded, reload, renewing, setLicense } =
    licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(reseed);

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
        entitlements: ["generate", "batch"],
        fallback_version: null,
        updates_until: null,
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
      await requestRefund({ user: { id: state.userId, email: USER.email }, licenseId: license.id });
      expect((await validate({ key })).json.code).toBe("REFUND_REQUESTED");
      const [adjustment] = await db()
        .select()
        .from(demo_billing)
        .where(and(eq(demo_billing.kind, "adjustment"), eq(demo_billing.subscription_id, "sub_demo_seed_renewing")));
      await state.demo.settleRefund(adjustment!.id, "approved");
      expect((await validate({ key })).json.code).toBe("REFUNDED");

      const cancelling = await seeded((l) => l.paddle_subscription_id === "sub_demo_seed_cancelling");
      expect((await validate({ key: cancelling.license_key })).json.code).toBe("VALID");
      const admin = (await db().select().from(users).where(eq(users.email, ADMIN.email)))[0]!;
      await revokeLicense({ admin: { id: admin.id, email: admin.email }, licenseId: cancelling.id });
      expect((await validate({ key: cancelling.license_key })).json.code).toBe("REVOKED");
    });

    it("a key superseded by a renewal still resolves, and the answer carries the current key", async () => {
      const license = await renewing();
      const outcome = await state.demo.renew("sub_demo_seed_renewing");
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
});
