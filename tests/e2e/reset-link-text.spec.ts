import { AUTH_TEXTS as T } from "../../app/domain/auth-texts";
import { expect, test } from "./support";

test("the reset page shows only its own texts, never an error description from the link", async ({ page }) => {
  const planted = "Your account is locked. Call +1 555 0100 to unlock it";
  await page.goto(`/reset-password?error=access_denied&error_description=${encodeURIComponent(planted)}`);
  await expect(page).toHaveURL("/forgot-password");
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: T.resetLinkErrorTitle });
  await expect(toast).toContainText(T.resetLinkErrorFallback);
  await expect(page.getByText(planted)).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText("555 0100");
});
