import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { pdfText } from "../support/pdf-text";
import { expect, openMenu, registerAndConfirm, test, uniqueEmail } from "./support";

/** The e2e server's demo webhook secret (DATA_DIR/secrets.json): what `npm run demo:renew` sends. */
function demoSecret(): string {
  const secrets = JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "secrets.json"), "utf8")) as Record<
    string,
    string
  >;
  return secrets.DEMO_WEBHOOK_SECRET!;
}

/** Buys a plan through the demo checkout from /pricing; `button` is the plan card's button text. */
async function buy(page: Page, plan: string, button: string, pay: string) {
  await page.goto("/pricing");
  await page.getByTestId(`plan-${plan}`).getByRole("button", { name: button }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=/);
}

test.describe("billing history, invoices and a failed renewal", () => {
  // Each registers, confirms and buys through the UI first: more than the default 30 s on a busy machine.
  test.slow();
  test("after a purchase the billing history lists it and its invoice downloads as a PDF with the buyer's name", async ({
    page,
  }, info) => {
    const email = uniqueEmail("invoice", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", "Grace Hopper");
    // The profile promises the name and company appear on receipts.
    await page.goto("/profile");
    await page.getByLabel(/Company name/).fill("Compilers & Co");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.locator("[data-sonner-toast]").first()).toBeVisible();

    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    await buy(page, "yearly", "Choose Yearly", "Pay $90");

    // The nav links to it (in the drawer on narrow screens).
    await page.goto("/licenses");
    await openMenu(page);
    await page.getByRole("link", { name: "Billing", exact: true }).locator("visible=true").click();
    await expect(page).toHaveURL("/billing");
    await expect(page.getByRole("heading", { name: "Billing history" })).toBeVisible();
    const entries = page.getByTestId("billing-entry");
    await expect(entries).toHaveCount(2);
    const yearly = entries.first();
    await expect(yearly).toContainText("Yearly license");
    await expect(yearly).toContainText(/FK-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    await expect(yearly).toContainText("$90.00");
    await expect(yearly).toContainText("Paid");
    const trial = entries.nth(1);
    await expect(trial).toContainText("Monthly license, free trial");
    await expect(trial).toContainText("No invoice");

    const downloading = page.waitForEvent("download");
    await yearly.getByRole("link", { name: "Download invoice" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^invoice-INV-\d{8}-[0-9A-F]{6}\.pdf$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain("Grace Hopper");
    expect(text).toContain("Compilers & Co");
    expect(text).toContain("$90.00");
  });

  test("a failed renewal shows on the license card; updating the payment method renews it", async ({ page }, info) => {
    const email = uniqueEmail("past-due", info.project.name);
    await registerAndConfirm(page, email);
    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    await page.goto("/billing");
    const shortId = (await page.getByTestId("billing-entry").first().innerText()).match(
      /FK-[0-9A-Z]{4}-[0-9A-Z]{4}/,
    )![0];

    // npm run demo:renew -- --fail <license>: what the command sends to the running site.
    const failed = await page.request.post("/api/demo/renew", {
      data: { subscriptionId: shortId, fail: true },
      headers: { Authorization: `Bearer ${demoSecret()}` },
    });
    expect(failed.status()).toBe(200);
    expect((await failed.json()).outcomes[0].outcome).toBe("payment-failed");

    await page.goto("/licenses");
    const card = page.getByTestId("license-card");
    const problem = card.getByTestId("payment-problem");
    await expect(problem).toContainText("Payment failed");
    await expect(problem).toContainText(/keeps working until \w{3} \d{1,2}, \d{4}/);
    // The card's one status line agrees with the notice: nothing about renewing while it failed.
    await expect(card.getByTestId("license-status")).toHaveText(/^Payment failed: active until /);
    await problem.getByRole("button", { name: "Update payment method" }).click();
    const dialog = page.getByRole("dialog", { name: "Update payment method" });
    await expect(dialog).toContainText("demo checkout");
    await expect(dialog).toContainText("$9");
    await dialog.getByRole("button", { name: "Save and pay $9" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Payment method updated" })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId("payment-problem")).toHaveCount(0);
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on /);

    await page.goto("/billing");
    await expect(page.getByTestId("billing-entry").first()).toContainText(
      "Monthly license, first payment after the free trial",
    );
    await expect(page.getByTestId("billing-entry").first()).toContainText("$9.00");
  });
});
