import { describe, expect, it } from "vitest";
import * as licensesRoute from "~/routes/licenses";
import { licenseKeys } from "~/server/license-keys/keys.server";
import { OFFLINE_DATA_MESSAGES } from "~/domain/offline-data";
import { call, formRequest, routeArgs } from "../support/route-call";
import { testEngines } from "../support/test-app";

import { licenseActionsSuite } from "../support/license-actions-suite";

describe.each(testEngines())("license self-service actions on %s", (engine) => {
  const { state, seeded, reload, post, renewing, tester } = licenseActionsSuite(engine);

  it("a signed-out visitor is sent to /login and an unknown intent is refused", async () => {
    const signedOut = await post({ intent: "cancel-renewal", licenseId: (await renewing()).id }, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    expect((await post({ intent: "delete-everything", licenseId: (await renewing()).id })).status).toBe(400);
  });

  it("a body that is not a form answers 400, not 500", async () => {
    const request = new Request("http://localhost:3000/licenses", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: state.userCookie },
      body: "{}",
    });
    const result = await call(() => licensesRoute.action(routeArgs(request)));
    expect(result.status).toBe(400);
  });

  it("the page's data hides the key and offline data of refunded and refund-requested licenses", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.userCookie))));
    const rows = page.data.licenses as { status: string; license_key: string | null }[];
    for (const row of rows) {
      if (row.status === "refunded" || row.status === "refund_requested") expect(row.license_key).toBeNull();
      else expect(row.license_key).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    }
    expect(rows.filter((r) => r.license_key === null)).toHaveLength(2);
  });

  it("the page's data holds only what a card shows: no subscription id, user id or sync time", async () => {
    const page = await call(() => licensesRoute.loader(routeArgs(formRequest("/licenses", {}, state.userCookie))));
    const json = JSON.stringify(page.data);
    for (const internal of [
      "paddle_subscription_id",
      "sub_demo_seed",
      "user_id",
      "subscription_synced_at",
      "extended_months",
      state.userId,
    ]) {
      expect(json).not.toContain(internal);
    }
    const renewingCard = (page.data.licenses as { has_subscription: boolean; license_type: string }[]).filter(
      (l) => l.has_subscription,
    );
    expect(renewingCard.length).toBeGreaterThan(0);
  });

  describe("offline data", () => {
    it("stores both values once and regenerates the key from the e-mail, the values and the existing dates", async () => {
      const license = await tester();
      const result = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "  CORP\\dana ",
        computer_name: "DESKTOP-42",
      });
      expect(result.status).toBe(200);
      expect(result.data.toast).toMatchObject({
        title: "License updated",
        description: "Offline data saved and new encrypted key generated.",
      });
      const after = await reload(license.id);
      expect(after).toMatchObject({ windows_username: "CORP\\dana", computer_name: "DESKTOP-42" });
      expect(after.license_key).not.toBe(license.license_key);
      expect(licenseKeys().decode(after.license_key)).toEqual({
        email: license.email,
        windows_username: "CORP\\dana",
        computer_name: "DESKTOP-42",
        start_date: license.start_date.toISOString(),
        end_date: license.end_date.toISOString(),
      });
      const again = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "other",
        computer_name: "",
      });
      expect(again.status).toBe(409);
      expect(again.data.toast.description).toBe("Offline data can be changed only once.");
      expect((await reload(license.id)).windows_username).toBe("CORP\\dana");
    });

    it("both values empty is refused with 400 and saves nothing; one value alone regenerates the key", async () => {
      const license = await renewing();
      const empty = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: " ",
        computer_name: "",
      });
      expect(empty.status).toBe(400);
      expect(empty.data.toast.description).toBe(OFFLINE_DATA_MESSAGES.bothEmpty);
      expect(empty.data.fieldErrors).toEqual({ form: [OFFLINE_DATA_MESSAGES.bothEmpty] });
      expect(await reload(license.id)).toMatchObject({
        windows_username: null,
        computer_name: null,
        license_key: license.license_key,
      });
      const one = await post({
        intent: "offline-data",
        licenseId: license.id,
        windows_username: "",
        computer_name: "BUILD-01",
      });
      expect(one.data.toast.description).toContain("and new encrypted key generated");
      expect(licenseKeys().decode((await reload(license.id)).license_key)).toMatchObject({
        windows_username: null,
        computer_name: "BUILD-01",
      });
    });

    it("two saves at once: one wins, the other is refused", async () => {
      const license = await tester();
      const results = await Promise.all([
        post({ intent: "offline-data", licenseId: license.id, windows_username: "first", computer_name: "" }),
        post({ intent: "offline-data", licenseId: license.id, windows_username: "second", computer_name: "" }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it("checks the Windows rules on the server: 400 with a message per field, nothing saved", async () => {
      const license = await tester();
      const cases: [Record<string, string>, Record<string, string[]>][] = [
        [
          { windows_username: "x".repeat(21), computer_name: "" },
          { windows_username: [OFFLINE_DATA_MESSAGES.usernameTooLong] },
        ],
        [
          { windows_username: "da/na", computer_name: "" },
          { windows_username: [OFFLINE_DATA_MESSAGES.usernameCharacters] },
        ],
        [
          { windows_username: "", computer_name: "MY PC" },
          { computer_name: [OFFLINE_DATA_MESSAGES.computerCharacters] },
        ],
        [
          { windows_username: "", computer_name: "DESKTOP-1234567X" },
          { computer_name: [OFFLINE_DATA_MESSAGES.computerTooLong] },
        ],
        [
          { windows_username: "a|b", computer_name: "pc_1" },
          {
            windows_username: [OFFLINE_DATA_MESSAGES.usernameCharacters],
            computer_name: [OFFLINE_DATA_MESSAGES.computerCharacters],
          },
        ],
      ];
      for (const [values, fieldErrors] of cases) {
        const result = await post({ intent: "offline-data", licenseId: license.id, ...values });
        expect(result.status).toBe(400);
        expect(result.data.fieldErrors).toEqual(fieldErrors);
      }
      expect(await reload(license.id)).toMatchObject({ windows_username: null, computer_name: null });
    });

    it("refuses trial, refund-requested and revoked licenses, too-long values, and another user's license", async () => {
      const fields = { intent: "offline-data", windows_username: "dana", computer_name: "" };
      for (const license of [
        await seeded((l) => l.is_trial),
        await seeded((l) => l.status === "refund_requested"),
        await seeded((l) => l.status === "revoked"),
      ]) {
        expect((await post({ ...fields, licenseId: license.id })).status).toBe(409);
        expect((await reload(license.id)).windows_username).toBeNull();
      }
      const tooLong = await post({ ...fields, licenseId: (await tester()).id, windows_username: "x".repeat(300) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.data.fieldErrors.windows_username).toEqual([OFFLINE_DATA_MESSAGES.usernameTooLong]);
      const foreign = await post({ ...fields, licenseId: (await tester()).id }, state.otherCookie);
      expect(foreign.status).toBe(404);
      expect((await reload((await tester()).id)).windows_username).toBeNull();
    });
  });
});
