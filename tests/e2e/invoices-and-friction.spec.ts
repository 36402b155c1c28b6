import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { pdfText } from "../support/pdf-text";
import { expect, registerAndConfirm, settledToasts, test, DEMO_ADMIN, uniqueEmail } from "./support";
import { expectNoHorizontalScroll } from "./layout";

// Invoices a business can file (decision 0040), the register page's hints, admin tables on a phone.

async function expectAccessible(page: Page) {
  await settledToasts(page);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("invoices a business can file", () => {
  test(
    "billing details from the profile and the checkout are on the invoice with the seller's",
    { tag: "@phone" },
    async ({ page }, info) => {
      test.setTimeout(60_000);
      await registerAndConfirm(page, uniqueEmail("invoice", info.project.name), "secret-pass-1", "Ada Lovelace");
      await page.goto("/profile");
      const form = page.getByTestId("billing-details-form");
      await form.getByLabel("Billing name").fill("Analytical Engines GmbH");
      await form.getByLabel("Billing address").fill("Hauptstraße 1\n10115 Berlin\nGermany");
      await form.getByLabel("VAT or tax id").fill("DE<1>");
      await form.getByRole("button", { name: "Save billing details" }).click();
      await expect(form.getByText(/^VAT or tax id: up to 32 letters/)).toBeVisible();
      await form.getByLabel("VAT or tax id").fill("de 111 222 333");
      await form.getByRole("button", { name: "Save billing details" }).click();
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Billing details saved" })).toBeVisible();
      await expectAccessible(page);
      await expectNoHorizontalScroll(page);

      // The demo checkout offers them, open, and takes a change.
      await page.goto("/pricing");
      await page.getByTestId("plan-yearly").getByRole("button", { name: "Start 7-day free trial" }).click();
      const checkout = page.getByRole("dialog", { name: "Checkout" });
      await expect(checkout.getByLabel("Billing name")).toHaveValue("Analytical Engines GmbH");
      await expect(checkout.getByLabel("VAT or tax id")).toHaveValue("DE 111 222 333");
      await checkout.getByLabel("VAT or tax id").fill("DE 123 456 789");
      await checkout.getByRole("button", { name: "Start free trial" }).click();
      await expect(page).toHaveURL(/\/success\?transactionId=/);
      // A trial charges nothing: its invoice comes with a paid plan. Buy one now.
      await page.goto("/pricing");
      await page.getByTestId("plan-monthly").getByRole("button", { name: "Choose Monthly" }).click();
      await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Pay $9" }).click();
      await expect(page).toHaveURL(/\/success\?transactionId=/);

      await page.goto("/billing");
      await expect(page.getByTestId("invoice-issuer")).toContainText("billing name, address and VAT or tax id");
      const downloading = page.waitForEvent("download");
      await page.getByTestId("billing-entry").first().getByRole("link", { name: "Download invoice" }).click();
      const lines = pdfText(fs.readFileSync((await (await downloading).path())!)).split("\n");
      for (const line of [
        "ForgeKit Software Ltd",
        "1 Forge Lane",
        "Leeds LS1 1AA",
        "United Kingdom",
        "VAT / tax id: GB123456789",
        "Analytical Engines GmbH",
        "Hauptstra\u00dfe 1",
        "10115 Berlin",
        "Germany",
        "VAT / tax id: DE 123 456 789",
      ])
        expect(lines).toContain(line);
    },
  );
});

test.describe("smaller friction", () => {
  test("the register page shows the chosen plan and why Create account waits", async ({ page }) => {
    await page.goto("/register?redirectTo=%2Fpricing%3Fplan%3Dyearly");
    await expect(page.getByTestId("chosen-plan")).toContainText("Your plan: Yearly, $90 per year.");
    const create = page.getByRole("button", { name: "Create account" });
    await expect(create).toBeDisabled();
    await expect(page.getByTestId("create-hint")).toHaveText(
      "Tick the box to agree to the terms, then create your account.",
    );
    await expect(create).toHaveAccessibleDescription("Tick the box to agree to the terms, then create your account.");
    await expectAccessible(page);
    await page.getByRole("checkbox").click();
    await expect(create).toBeEnabled();
    await expect(page.getByTestId("create-hint")).toHaveCount(0);
    await page.getByTestId("chosen-plan").getByRole("link", { name: "Change plan" }).click();
    await expect(page).toHaveURL("/pricing");
  });

  test(
    "admin tables fit a phone: the audit log is cards, no sideways scrolling",
    { tag: "@phone" },
    async ({ page, signIn }) => {
      await signIn(DEMO_ADMIN);
      for (const path of ["/admin", "/admin/users", "/admin/releases", "/admin/audit"]) {
        await page.goto(path);
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);
      }
      // Each audit entry (a refused payment, an admin action, …) is one card as wide as the screen at most.
      for (const entry of await page.getByTestId("audit-entry").all())
        expect((await entry.boundingBox())!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    },
  );
});
