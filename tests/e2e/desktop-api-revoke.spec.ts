import { expect, test, DEMO_ADMIN, logOut, registerAndConfirm, uniqueEmail } from "./support";
import { buy, MACHINE, shownKey, toast, Tool } from "./desktop-tool";

// The desktop tool's side of an admin's revoke (docs/desktop-api.md): the tool holding a
// license's key sees REVOKED as soon as an admin revokes it.

test.describe("the desktop tool's license API", () => {
  test("an admin revokes another user's license and the tool holding its key sees REVOKED", async ({
    page,
    request,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    const name = `Tool Owner ${info.project.name} ${Date.now().toString(36)}`;
    const email = uniqueEmail("desktop-revoked", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", name);
    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    const key = await shownKey(page, "Monthly");
    await logOut(page);

    const tool = new Tool(request);
    await tool.fetchKeys();
    const trial = await tool.validate(key);
    expect(trial).toMatchObject({
      valid: true,
      code: "VALID",
      license: { license_type: "monthly", is_trial: true, trial_ends_at: expect.any(String), license_key: key },
    });

    await signIn(DEMO_ADMIN, "/admin/users");
    await page.getByLabel("Search users").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: `Open ${name}` }).click();
    const license = page.getByTestId("admin-license");
    await expect(license).toHaveCount(1);
    await license.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByLabel("Reason (kept in the audit log)").fill("Test of the desktop API");
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke license" }).click();
    await expect(toast(page, "License revoked")).toBeVisible();
    await expect(license).toHaveAttribute("data-license-status", "revoked");

    const revoked = await tool.validate(key);
    expect(revoked).toMatchObject({
      valid: false,
      code: "REVOKED",
      license: { id: trial.license.id, status: "revoked" },
    });
    expect(revoked.license.license_key ?? null).toBeNull();
    expect(await tool.activate(key, MACHINE)).toMatchObject({ valid: false, code: "REVOKED" });
    expect(await tool.downloadFile(key)).toMatchObject({ status: 409, body: { code: "REVOKED" } });
  });
});
