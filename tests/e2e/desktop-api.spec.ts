import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test, registerAndConfirm, uniqueEmail } from "./support";
import { buy, MACHINE, OTHER_MACHINE, shownKey, toast, Tool, type Json } from "./desktop-tool";

// The desktop tool's side of the license API (docs/desktop-api.md): a customer buys in
// the browser, then the "tool" (Playwright's request, no cookies) activates, validates and downloads
// its license file, and checks every signature as a tool without Node would: OpenSSL's command line
// with the public key from /api/v1/keys chosen by the kid the answer names.

test.describe("the desktop tool's license API", () => {
  test("activate, validate and download a signed license file; an old key resolves; a refund request is seen", async ({
    page,
    request,
  }, info) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("desktop-tool", info.project.name);
    await registerAndConfirm(page, email);
    // The first purchase uses the trial; the second is a paid yearly plan that can be refunded.
    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    await buy(page, "yearly", "Choose Yearly", "Pay $90");
    const keyBeforeActivation = await shownKey(page, "Yearly");

    const tool = new Tool(request);
    await tool.fetchKeys();

    const before = await tool.validate(keyBeforeActivation);
    expect(before).toMatchObject({ valid: true, code: "VALID", detail: expect.any(String) });
    expect(before.license).toMatchObject({
      license_type: "yearly",
      status: "active",
      is_trial: false,
      auto_renew: true,
      windows_username: null,
      computer_name: null,
      license_key: keyBeforeActivation,
    });
    const licenseId = before.license.id as string;

    // Activation binds the machine, regenerates the key and hands over a signed license file.
    const activated = await tool.activate(keyBeforeActivation, MACHINE);
    expect(activated).toMatchObject({ valid: true, code: "VALID" });
    expect(activated.license).toMatchObject({ id: licenseId, ...MACHINE, status: "active" });
    const currentKey = activated.license.license_key as string;
    expect(currentKey).toEqual(expect.any(String));
    expect(currentKey).not.toBe(keyBeforeActivation);
    const activationFile = tool.verifyLicenseFile(activated.license_file);
    expect(activationFile).toMatchObject({
      email,
      license_type: "yearly",
      ...MACHINE,
      is_trial: false,
      start_date: activated.license.start_date,
      end_date: activated.license.end_date,
    });
    expect(Object.values(activationFile)).toContain(licenseId);

    // The same machine again is a success with the same key; another machine is refused.
    const again = await tool.activate(currentKey, MACHINE);
    expect(again).toMatchObject({ valid: true, code: "VALID", license: { id: licenseId, license_key: currentKey } });
    const elsewhere = await tool.activate(currentKey, OTHER_MACHINE);
    expect(elsewhere).toMatchObject({ valid: false, code: "MACHINE_MISMATCH", license: { id: licenseId, ...MACHINE } });
    expect(elsewhere.license.license_key ?? null).toBeNull();

    expect(await tool.validate(currentKey, MACHINE)).toMatchObject({
      valid: true,
      code: "VALID",
      license: { id: licenseId, license_key: currentKey },
    });
    expect(await tool.validate(currentKey, { computer_name: OTHER_MACHINE.computer_name })).toMatchObject({
      valid: false,
      code: "MACHINE_MISMATCH",
    });

    // The key from before activation still identifies the license: its current state and key.
    expect(await tool.validate(keyBeforeActivation, MACHINE)).toMatchObject({
      valid: true,
      code: "VALID",
      license: { id: licenseId, ...MACHINE, license_key: currentKey },
    });

    // A well-formed key the site never issued.
    const unknown = await tool.validate(`${randomBytes(16).toString("base64")}:${randomBytes(64).toString("base64")}`);
    expect(unknown).toMatchObject({ valid: false, code: "NOT_FOUND", license: null });

    // The license file for offline use, signed, and the answer that carries it signed too.
    const download = await tool.downloadFile(currentKey);
    expect(download.status).toBe(200);
    const payload = tool.verifyLicenseFile(download.body);
    expect(payload).toMatchObject({ email, license_type: "yearly", ...MACHINE, end_date: activated.license.end_date });

    // The licenses page shows what the tool did: the machine bound once, the new key.
    await page.goto("/licenses");
    const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
    await expect(card.getByTestId("windows-username")).toHaveText(MACHINE.windows_username);
    await expect(card.getByTestId("computer-name")).toHaveText(MACHINE.computer_name);
    await expect(card.getByTestId("license-key")).toHaveText(currentKey);
    await expect(card.getByRole("button", { name: "Set offline data" })).toHaveCount(0);
    // The owner's "Download license file" gives a file the tool verifies the same way.
    const [saved] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("link", { name: "Download license file" }).click(),
    ]);
    const pageFile = JSON.parse(fs.readFileSync((await saved.path())!, "utf8")) as Json;
    expect(tool.verifyLicenseFile(pageFile)).toMatchObject({ email, ...MACHINE, end_date: activated.license.end_date });

    // The owner asks for a refund in the browser: the tool's very next answer says so, for both keys.
    await card.getByRole("button", { name: "Request Refund" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Request refund" }).click();
    await expect(toast(page, "Refund Requested")).toBeVisible();
    for (const key of [currentKey, keyBeforeActivation]) {
      const refunding = await tool.validate(key, MACHINE);
      expect(refunding).toMatchObject({ valid: false, code: "REFUND_REQUESTED", license: { id: licenseId } });
      expect(refunding.license.license_key ?? null).toBeNull();
    }
    // No license file while the refund is pending: 409 with the code, signed like every answer.
    const refused = await tool.downloadFile(currentKey);
    expect(refused).toMatchObject({ status: 409, body: { code: "REFUND_REQUESTED", error: expect.any(String) } });
    expect(refused.body.format).toBeUndefined();

    // The demo provider approves the refund a few seconds later; the tool then sees REFUNDED.
    await expect
      .poll(async () => (await tool.validate(currentKey, MACHINE)).code, { timeout: 30_000, intervals: [2_000] })
      .toBe("REFUNDED");
  });
});
