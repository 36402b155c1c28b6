import type { Page } from "@playwright/test";
import { registerAndConfirm, totp, uniqueEmail, expect, plainTest as test } from "./support";

// The profile's password change and two-factor set-up as native form posts (docs/security.md): Better Auth
// renews the session, and the page must keep the person signed in with the new cookie.
test.use({ javaScriptEnabled: false });

const PASSWORD = "no-scripts-1";

/** Still signed in: the profile is served (not a redirect to /login) with its account sections. */
async function expectOnProfile(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/profile(#.*)?$/);
  await expect(page.getByRole("heading", { name: "Profile", level: 1 })).toBeVisible();
  await page.goto("/licenses");
  await expect(page).toHaveURL("/licenses");
}

test.describe("without JavaScript, on the profile", () => {
  test.describe.configure({ timeout: 60_000 });

  test("changing the password keeps you signed in", async ({ page }, info) => {
    const email = uniqueEmail("nojs-pw", info.project.name);
    await registerAndConfirm(page, email, PASSWORD);
    const before = (await page.context().cookies()).find((c) => c.name.endsWith("session_token"))?.value;
    await page.goto("/profile");
    const section = page.locator("#password");
    await section.getByLabel("Current password").fill(PASSWORD);
    await section.getByLabel("New password", { exact: true }).fill("no-scripts-2");
    await section.getByLabel("Confirm new password").fill("no-scripts-2");
    await section.getByRole("button", { name: "Change password" }).click();
    await expectOnProfile(page);
    const after = (await page.context().cookies()).find((c) => c.name.endsWith("session_token"))?.value;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });

  test("turning on two-factor keeps you signed in", async ({ page }, info) => {
    const email = uniqueEmail("nojs-tfa", info.project.name);
    await registerAndConfirm(page, email, PASSWORD);
    await page.goto("/profile");
    const section = page.locator("#two-factor");
    await section.getByLabel("Password").fill(PASSWORD);
    await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.locator("#two-factor").getByTestId("two-factor-qr").locator("svg")).toBeVisible();
    const secret = (await page.locator("#two-factor").getByTestId("two-factor-secret").innerText()).trim();
    await page
      .locator("#two-factor")
      .getByLabel("Code from the app")
      .fill(await totp(secret));
    await page.locator("#two-factor").getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expectOnProfile(page);
    await page.goto("/profile");
    await expect(page.locator("#two-factor").getByText("On", { exact: true })).toBeVisible();
  });
});
