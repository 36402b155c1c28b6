import { expect, test, DEMO_USER, registerAndConfirm, uniqueEmail } from "./support";

test.describe("extend license and payment success", () => {
  test("signed-out visitors are sent to /login from /extend-license and /success", async ({ page }) => {
    await page.goto("/extend-license");
    await expect(page).toHaveURL("/login?redirectTo=%2Fextend-license");
    await page.goto("/success?transactionId=txn_1");
    await expect(page).toHaveURL("/login?redirectTo=%2Fsuccess%3FtransactionId%3Dtxn_1");
  });

  test("a direct visit to /extend-license without a license goes to /licenses", async ({ page }, info) => {
    await registerAndConfirm(page, uniqueEmail("extend-direct", info.project.name));
    await page.goto("/extend-license");
    await expect(page).toHaveURL("/licenses");
  });

  test("extend by 2 months and 1 year and see the new expiry", async ({ page, signIn }) => {
    await signIn(DEMO_USER);
    await page.goto("/licenses");
    const tester = page.getByTestId("license-card").filter({ hasText: "Tester license" });
    await tester.getByRole("link", { name: "Extend" }).click();
    await expect(page).toHaveURL("/extend-license");
    const pay = page.getByRole("button", { name: /Pay/ });
    await expect(pay).toBeDisabled();
    await page.getByRole("button", { name: "More additional months" }).click();
    await page.getByRole("button", { name: "More additional months" }).click();
    await page.getByRole("button", { name: "More additional years" }).click();
    await expect(page.getByTestId("extension-total")).toHaveText("$117");
    const newEnd = (await page.getByTestId("extension-new-end").innerText()).trim();
    await pay.click();
    await expect(page.getByRole("button", { name: "Processing payment…" })).toBeDisabled();
    await expect(page).toHaveURL("/licenses", { timeout: 10_000 });
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "License Extended" })).toBeVisible();
    await expect(page.getByTestId("license-card").filter({ hasText: "Tester license" })).toContainText(newEnd);
  });

  test("the success page shows the transaction id and links to licenses and download", async ({ page, signIn }) => {
    await signIn(DEMO_USER);
    await page.goto("/success?transactionId=txn_demo_123");
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    await expect(page.getByTestId("transaction-id")).toHaveText("txn_demo_123");
    await expect(page.getByRole("link", { name: "Go to Licenses" })).toHaveAttribute("href", "/licenses");
    await expect(page.getByRole("link", { name: "Download" }).last()).toHaveAttribute("href", "/download");
    await page.goto("/success");
    await expect(page.getByTestId("transaction-id")).toHaveCount(0);
  });
});
