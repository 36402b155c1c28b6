import { DEMO_USER, expect, test, teamOffer } from "./support";

// A team's choice is named as seats and their total, never as one seat with a trial (decision 0057).
test.describe("a team's plan in words", () => {
  test.describe.configure({ timeout: 90_000 });

  test("/register reached from Continue with 3 seats names 3 seats, $27 a month and no trial", async ({ page }) => {
    await page.goto("/pricing");
    const offer = await teamOffer(page);
    await offer.getByRole("radio", { name: /Monthly/ }).check();
    await offer.getByLabel("Seats").fill("3");
    await offer.getByRole("button", { name: "Continue with 3 seats" }).click();
    await expect(page).toHaveURL(/\/register\?redirectTo=/);
    const chosen = page.getByTestId("chosen-plan");
    await expect(chosen).toContainText("Your plan: Monthly for 3 seats, 3 seats × $9 = $27 per month.");
    await expect(chosen).toContainText("A team plan has no free trial: it is charged at checkout.");
    await expect(chosen).not.toContainText("7-day");
    await page.screenshot({ path: test.info().outputPath("register-team.png"), fullPage: true });
  });

  test("the demo checkout of a team names its seats and how the total is made", async ({ page, signIn }) => {
    await signIn(DEMO_USER, "/pricing");
    const offer = await teamOffer(page);
    await offer.getByRole("radio", { name: /Monthly/ }).check();
    await offer.getByLabel("Seats").fill("3");
    await offer.getByRole("button", { name: "Buy 3 seats" }).click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("demo-checkout-plan")).toHaveText("Monthly, 3 seats");
    await expect(dialog.getByTestId("demo-checkout-price")).toHaveText("3 seats × $9 = $27 per month");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });
});
