import { buyerWithPaidLicense, expect, openLicense, test, DEMO_USER, registerAndConfirm, uniqueEmail } from "./support";

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

  test("extend by 2 months and 1 year and see the new expiry", async ({ page }, info) => {
    test.setTimeout(60_000);
    const { card } = await buyerWithPaidLicense(page, "extend", info.project.name);
    await openLicense(card);
    await card.getByRole("link", { name: "Extend" }).click();
    await expect(page).toHaveURL(/\/extend-license\?license=[0-9a-f-]{36}$/);
    await expect(page.getByTestId("price-comparison")).toContainText("$99");
    await expect(page.getByTestId("price-comparison")).toContainText("$90 (Yearly)");
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
    await expect(page.getByTestId("license-card").filter({ hasText: "Yearly license" })).toContainText(newEnd);
  });

  test("/extend-license reloaded renders the same page on the server and in the browser", async ({ page, signIn }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await signIn(DEMO_USER, "/licenses");
    const yearly = page.locator("[data-status=active]").filter({ hasText: "Yearly license" });
    await openLicense(yearly);
    await yearly.getByRole("link", { name: "Extend" }).click();
    await expect(page.getByRole("heading", { name: "Extend license" })).toBeVisible();
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByRole("heading", { name: "Extend license" })).toBeVisible();
    await expect(page.getByText("Yearly license")).toBeVisible();
    await page.getByRole("button", { name: "More additional months" }).click();
    await expect(page.getByTestId("extension-total")).toHaveText("$9");
    expect(errors).toEqual([]);
  });

  test("a license that cannot be extended is not offered and its address leads back", async ({ page, signIn }) => {
    await signIn(DEMO_USER, "/licenses");
    const trial = page.locator("[data-status=trial-active]");
    await expect(trial).toBeVisible();
    await expect(trial.getByRole("link", { name: "Extend" })).toHaveCount(0);
    // A free tester license is given with its days: no paid extension (decision 0057).
    const tester = page.getByTestId("license-card").filter({ hasText: "Tester license" });
    await openLicense(tester);
    await expect(tester.getByRole("link", { name: "Extend" })).toHaveCount(0);
    const testerId = await tester.getAttribute("id");
    await page.goto(`/extend-license?license=${testerId!.replace("license-", "")}`);
    await expect(page).toHaveURL("/licenses");
    await page.goto("/extend-license?license=00000000-0000-4000-8000-000000000000");
    await expect(page).toHaveURL("/licenses");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Extension not available" })).toBeVisible();
  });

  test("an unknown transaction id claims no payment; the page links to licenses and download", async ({
    page,
    signIn,
  }) => {
    await signIn(DEMO_USER, "/success?transactionId=txn_demo_123");
    await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toHaveCount(0);
    await expect(page.getByTestId("transaction-id")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Go to Licenses" })).toHaveAttribute("href", "/licenses");
    await expect(page.getByRole("link", { name: "Download" }).last()).toHaveAttribute("href", "/download");
    await page.goto("/success");
    await expect(page.getByTestId("transaction-id")).toHaveCount(0);
  });
});
