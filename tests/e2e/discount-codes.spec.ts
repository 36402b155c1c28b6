import { DEMO_ADMIN, expect, registerAndConfirm, test, uniqueEmail } from "./support";

/**
 * A discount code from the pricing page to the license (decision 0073): a bad code is refused with its
 * reason; the demo's WELCOME20 makes the checkout's first charge 20% less, bought without the trial;
 * the license exists and the admin's payment row names the code.
 */
test("a discount code from pricing to license", async ({ page, signIn }, info) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("discount", info.project.name);
  await registerAndConfirm(page, email, "secret-pass-1", "Dee Discount");
  await page.goto("/pricing");
  const code = page.getByLabel("Discount code (optional)");
  const monthly = page.getByTestId("plan-monthly");

  // A code Paddle could not have: refused with its reason, no checkout opens.
  await code.fill("SPRING-10");
  await monthly.getByRole("button", { name: "Start 7-day free trial" }).click();
  await expect(page.locator("[data-sonner-toast]").first()).toContainText("letters and numbers only");
  await expect(page.getByRole("dialog", { name: "Checkout" })).toHaveCount(0);
  await code.fill("DEMOEXPIRED");
  await monthly.getByRole("button", { name: "Start 7-day free trial" }).click();
  await expect(page.getByText('The discount code "DEMOEXPIRED" has expired.')).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Checkout" })).toHaveCount(0);

  await code.fill("welcome20");
  await monthly.getByRole("button", { name: "Start 7-day free trial" }).click();
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("demo-checkout-due")).toHaveText("$7.20");
  await expect(dialog.getByTestId("checkout-discount")).toHaveText("WELCOME20: 20% off the first charge");
  await expect(dialog.getByTestId("demo-checkout-next")).toHaveText(
    /^\$7\.20 today with WELCOME20 \(20% off\), then \$9 per month, next on .+, until you cancel\.$/,
  );
  await dialog.getByRole("button", { name: "Pay $7.20" }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_[0-9a-f]+$/);
  const transactionId = new URL(page.url()).searchParams.get("transactionId")!;

  await page.goto("/licenses");
  const card = page.getByTestId("license-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Monthly license");
  await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on /);

  await page.context().clearCookies();
  await signIn(DEMO_ADMIN);
  await page.goto("/admin/users");
  await page.getByLabel("Search users").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: "Open Dee Discount" }).first().click();
  const row = page.getByTestId("admin-payment").filter({ hasText: transactionId });
  await expect(row).toContainText("$7.20");
  await expect(row.getByTestId("admin-payment-discount")).toHaveText("with code WELCOME20");
});
