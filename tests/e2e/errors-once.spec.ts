import type { Locator, Page } from "@playwright/test";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { BILLING_DETAILS_TEXTS as B } from "~/domain/billing-details";
import { EMAIL_CHANGE_TEXTS as E } from "~/domain/email-change-texts";
import { DEMO_ADMIN, DEMO_USER, expect, test } from "./support";

/**
 * An error is said once (decision 0060, docs/voice.md): beside its field or at the top of its form, or as
 * a toast, never both. Each form here is refused by the server (not by the browser's check), and
 * the refusal's text appears exactly once on the page, with no toast.
 */

const toasts = (page: Page) => page.locator("[data-sonner-toast]");

/** The text is on the page once, in `where`, and no toast says anything. */
async function saidOnce(page: Page, where: Locator, text: string) {
  await expect(where.getByText(text)).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(1);
  // A toast would come after the answer: give it the time it takes to appear.
  await page.waitForTimeout(500);
  await expect(toasts(page)).toHaveCount(0);
}

test.describe("an error is said once", () => {
  test("register: a common password is refused beside the password, not as a toast too", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Common Choice");
    await page.getByLabel("E-mail").fill("common-choice@example.com");
    await page.getByLabel("Password").fill("password");
    await page.getByRole("checkbox").click();
    await page.getByRole("button", { name: "Create account" }).click();
    await saidOnce(page, page.locator("#password-error"), T.passwordCommon);
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  });

  test("profile: each section's refusal is beside its field", async ({ page, signIn }) => {
    await signIn(DEMO_USER, "/profile");

    // A new address without the current password.
    await page.getByLabel("E-mail", { exact: true }).fill("demo-elsewhere@example.com");
    await page.getByRole("button", { name: "Save changes" }).click();
    await saidOnce(page, page.locator("#profile-current-password-error"), E.passwordRequired);
    await page.getByLabel("E-mail", { exact: true }).fill(DEMO_USER.email);

    // The password section with a wrong current password.
    const password = page.locator("#password");
    await password.getByLabel("Current password").fill("not-the-password");
    await password.getByLabel("New password", { exact: true }).fill("another-pass-42");
    await password.getByLabel("Confirm new password").fill("another-pass-42");
    await password.getByRole("button", { name: "Change password" }).click();
    await saidOnce(page, password, A.passwordWrong);

    // Billing details the server refuses.
    const billing = page.getByTestId("billing-details-form");
    await billing.getByLabel(/VAT or tax id/).fill("#12");
    await billing.getByRole("button", { name: "Save billing details" }).click();
    await saidOnce(page, billing, B.taxIdInvalid);
  });

  test("login: a wrong password is said at the top of the form with its title", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(DEMO_USER.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText(`${T.loginFailedTitle}:`);
    await saidOnce(page, alert, "Invalid email or password");
  });

  test("admin: a support dialog's missing reason is said in the dialog, marked required before", async ({
    page,
    signIn,
  }) => {
    await signIn(DEMO_ADMIN, "/admin/users");
    await page.getByLabel("Search users").fill(DEMO_USER.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "Open Dana Developer" }).first().click();
    await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}/);
    const renewing = page.getByTestId("admin-license").filter({ hasText: "renews on" }).first();
    await renewing.getByRole("button", { name: "Cancel renewal" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText("required", { exact: true })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Keep renewing" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel renewal" }).click();
    await saidOnce(page, dialog, "Enter the reason");
    await dialog.getByRole("button", { name: "Keep renewing" }).click();
    await expect(renewing).toContainText("renews on");
  });
});
