import type { Page } from "@playwright/test";
import { expect, totp } from "./support";

/** The profile's two-factor steps, as a person takes them (account-security and recovery-codes specs). */

export const toast = (page: Page) => page.locator("[data-sonner-toast]");

/** Waits for an e-mail with this subject to the address in the dev mailbox. */
export async function expectMail(page: Page, to: string, subject: string) {
  await expect(async () => {
    await page.goto("/dev/mailbox");
    const mail = page
      .getByTestId("dev-mail")
      .filter({ has: page.getByTestId("mail-to").getByText(to, { exact: true }) })
      .filter({ hasText: subject });
    await expect(mail.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

export async function openProfile(page: Page) {
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "Profile", level: 1 })).toBeVisible();
}

/** Starts two-factor on the profile (password); the page then shows the QR code, the key and the codes. */
export async function startTwoFactor(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await openProfile(page);
  const section = page.locator("#two-factor");
  await section.getByLabel("Password").fill(password);
  await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(section.getByTestId("two-factor-qr").locator("svg")).toBeVisible();
  const secret = (await section.getByTestId("two-factor-secret").innerText()).trim();
  const codes = await section.getByTestId("recovery-codes").locator("li").allInnerTexts();
  expect(codes).toHaveLength(10);
  return { secret, codes };
}

/** Confirms the set-up with the app's current code. */
export async function confirmTwoFactor(page: Page, secret: string) {
  const section = page.locator("#two-factor");
  await section.getByLabel("Code from the app").fill(await totp(secret));
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(toast(page).filter({ hasText: "Two-factor authentication is on" })).toBeVisible();
  await expect(section.getByText("On", { exact: true })).toBeVisible();
}

/** Turns two-factor on from the profile as a person would; returns the secret and codes the page showed. */
export async function turnOnTwoFactor(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  const shown = await startTwoFactor(page, password);
  await confirmTwoFactor(page, shown.secret);
  return shown;
}

/** The password step of the login form, ending on the code step. */
export async function passwordStep(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
