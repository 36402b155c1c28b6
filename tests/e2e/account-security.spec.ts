import fs from "node:fs";
import { expect, test, DEMO_ADMIN, logIn, logOut, openMenu, registerAndConfirm, totp, uniqueEmail } from "./support";
import { expectMail, openProfile, passwordStep, toast, turnOnTwoFactor } from "./two-factor-steps";

const PASSWORD = "secret-pass-1";

test.describe("account security", () => {
  // Each test registers and confirms an account (and some sign in a second browser) first.
  test.describe.configure({ timeout: 90_000 });
  test("two-factor: set up on the profile, asked after the password, recovery code once, turned off", async ({
    page,
  }, info) => {
    const email = uniqueEmail("tfa", info.project.name);
    await registerAndConfirm(page, email);
    const { secret, codes } = await turnOnTwoFactor(page, PASSWORD);

    await logOut(page);
    await passwordStep(page, email, PASSWORD);
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That code is not correct.").first()).toBeVisible();
    await page.getByLabel("Code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/");

    await openProfile(page);
    const section = page.locator("#two-factor");
    const off = page.locator("#two-factor-off");
    await off.getByLabel("Password").fill(PASSWORD);
    await off.getByLabel("Code from the app").fill(await totp(secret));
    await off.getByRole("button", { name: "Turn off two-factor authentication" }).click();
    await expect(toast(page).filter({ hasText: "Two-factor authentication is off" })).toBeVisible();
    await expect(section.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
  });

  test("the seeded admin signs in with password and code, and keeps two-factor on", async ({ page }) => {
    await logIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.goto("/admin");
    await expect(page).toHaveURL("/admin");
    await openProfile(page);
    await expect(
      page.locator("#two-factor").getByText("Two-factor authentication stays on for administrators."),
    ).toBeVisible();
  });

  test("password change: current password required, other sessions signed out, e-mail sent", async ({
    page,
    browser,
  }, info) => {
    const email = uniqueEmail("pwchange", info.project.name);
    await registerAndConfirm(page, email);
    // A second browser signed in to the same account.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await logIn(otherPage, email, PASSWORD);

    await openProfile(page);
    const section = page.locator("#password");
    await section.getByLabel("Current password").fill("not-the-password");
    await section.getByLabel("New password", { exact: true }).fill("brand-new-pass-1");
    await section.getByLabel("Confirm new password").fill("brand-new-pass-1");
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(section.getByText("The password is not correct.").first()).toBeVisible();
    await section.getByLabel("Current password").fill(PASSWORD);
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(toast(page).filter({ hasText: "Password changed" })).toBeVisible();

    await otherPage.goto("/profile");
    await expect(otherPage).toHaveURL(/\/login/);
    await other.close();
    await expectMail(page, email, "ForgeKit: your password was changed");
    await page.goto("/");
    await logOut(page);
    await logIn(page, email, "brand-new-pass-1");
  });

  test("sessions: lists this and another browser; signs out the other", async ({ page, browser }, info) => {
    const email = uniqueEmail("sessions", info.project.name);
    await registerAndConfirm(page, email);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await logIn(otherPage, email, PASSWORD);

    await openProfile(page);
    const rows = page.locator("#sessions").getByTestId("session");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "(this browser)" })).toHaveCount(1);
    await expect(rows.first()).toContainText("Last active");
    await expect(rows.first()).toContainText("127.0.0.1");
    await rows.filter({ hasNotText: "(this browser)" }).getByRole("button", { name: "Log out", exact: true }).click();
    await expect(toast(page).filter({ hasText: "Session logged out" })).toBeVisible();
    await expect(rows).toHaveCount(1);
    await otherPage.goto("/profile");
    await expect(otherPage).toHaveURL(/\/login/);
    await other.close();
  });

  test("export my data downloads a JSON file of the account", async ({ page }, info) => {
    const email = uniqueEmail("export", info.project.name);
    await registerAndConfirm(page, email);
    await openProfile(page);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export my data" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^forgekit-account-data-\d{4}-\d{2}-\d{2}\.json$/);
    const body = JSON.parse(fs.readFileSync((await file.path())!, "utf8"));
    expect(body.profile.email).toBe(email);
    expect(body.licenses).toEqual([]);
  });

  test("delete account: password and DELETE, then signed out with a confirmation e-mail", async ({ page }, info) => {
    const email = uniqueEmail("delete", info.project.name);
    await registerAndConfirm(page, email);
    await openProfile(page);
    const section = page.locator("#your-data");
    await section.getByLabel("Password").fill(PASSWORD);
    await section.getByLabel("Type DELETE to confirm").fill("delete");
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(section.getByText("Type DELETE to confirm.").first()).toBeVisible();
    await section.getByLabel("Type DELETE to confirm").fill("DELETE");
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL("/");
    await expect(toast(page).filter({ hasText: "Your account was deleted" })).toBeVisible();
    await openMenu(page);
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeAttached();
    await expectMail(page, email, "ForgeKit: your account was deleted");

    await page.goto("/login");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Login Failed" })).toBeVisible();
  });

  test("without GitHub or Google configured, the login page shows no provider buttons", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: /Log in with/ })).toHaveCount(0);
  });
});
