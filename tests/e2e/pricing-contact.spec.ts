import { expect, test, DEMO_USER, registerAndConfirm, uniqueEmail } from "./support";

test.describe("pricing", () => {
  test("three plan cards with prices, savings and the trial for visitors", async ({ page }) => {
    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).toContainText("$9");
    await expect(page.getByTestId("plan-6_months")).toContainText("$49.50");
    await expect(page.getByTestId("plan-6_months")).toContainText("Save 8%");
    await expect(page.getByTestId("plan-yearly")).toContainText("$90");
    await expect(page.getByTestId("plan-yearly")).toContainText("Save 17%");
    for (const id of ["monthly", "6_months", "yearly"]) {
      await expect(page.getByTestId(`plan-${id}`)).toContainText("Auto-renewing");
      await expect(page.getByTestId(`plan-${id}`)).toContainText("Cancel anytime");
      await expect(page.getByTestId(`plan-${id}`)).toContainText("7-day free trial");
    }
  });

  test("a visitor choosing a plan is sent to /register, which keeps the plan", async ({ page }) => {
    await page.goto("/pricing");
    await page.getByTestId("plan-yearly").getByRole("link").click();
    await expect(page).toHaveURL("/register?redirectTo=%2Fpricing%3Fplan%3Dyearly");
  });

  test("the trial is offered to a user with no license, not to one with licenses", async ({ page, signIn }, info) => {
    await registerAndConfirm(page, uniqueEmail("pricing", info.project.name));
    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).toContainText("7-day free trial");
    await page.context().clearCookies();
    await signIn(DEMO_USER);
    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).not.toContainText("free trial");
  });
});

test.describe("contact", () => {
  test("shows the support address and copies it", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/contact");
    await expect(page.getByTestId("support-email")).toHaveText("support@forgekit.example");
    await expect(page.getByText("We usually reply within 24 hours on business days.")).toBeVisible();
    await page.getByRole("button", { name: "Copy e-mail address" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("support@forgekit.example");
  });
});
