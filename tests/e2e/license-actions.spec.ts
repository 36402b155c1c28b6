import { type Page } from "@playwright/test";
import { buyerWithPaidLicense, expect, openAllLicenses, test, DEMO_USER } from "./support";
import { decodeLicenseKey } from "./support-keys";

/** A new user with two licenses bought through the demo checkout: a monthly trial, then a paid yearly. */

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test.describe("license self-service", () => {
  test("the seeded cards offer the actions their state allows", async ({ page, signIn }) => {
    await signIn(DEMO_USER, "/licenses");
    await openAllLicenses(page);
    const cards = page.getByTestId("license-card");
    const renewing = cards.filter({ has: page.getByTestId("license-status").getByText(/^Active, renews on /) });
    await expect(renewing.getByRole("button", { name: "Cancel auto-renewal" })).toBeVisible();
    await expect(renewing.getByRole("button", { name: "Request Refund" })).toBeVisible();
    const cancelling = cards.filter({ has: page.getByText(/automatic renewal is cancelled$/) });
    await expect(cancelling.getByRole("button", { name: "Re-enable auto-renewal" })).toBeVisible();
    await expect(cancelling.getByRole("button", { name: "Request Refund" })).toHaveCount(0);
    // Trial licenses: no offline data, no subscription section, no refund.
    for (const trial of await page.locator("[data-status^=trial]").all()) {
      await expect(trial.getByTestId("offline-data")).toHaveCount(0);
      await expect(trial.getByTestId("license-renewal")).toHaveCount(0);
      await expect(trial.getByRole("button", { name: "Request Refund" })).toHaveCount(0);
    }
    const testerCard = cards.filter({ hasText: "Tester license" });
    await expect(testerCard.getByTestId("license-renewal")).toHaveCount(0);
    await expect(testerCard.getByRole("button", { name: "Set offline data" })).toBeVisible();
    const revoked = page.locator("[data-status=revoked]");
    await expect(revoked.getByRole("button", { name: /auto-renewal|Refund|offline data/ })).toHaveCount(0);
    await expect(revoked.getByRole("link", { name: "Extend" })).toHaveCount(0);
    await expect(revoked.getByRole("button", { name: "Copy license key" })).toHaveCount(0);
    // Trials are not extended (a plan is bought instead); an expired plan is.
    for (const trial of await page.locator("[data-status^=trial]").all()) {
      await expect(trial.getByRole("link", { name: "Extend" })).toHaveCount(0);
    }
    await expect(page.locator("[data-status=expired]").getByRole("link", { name: "Extend" })).toBeVisible();
  });

  test("offline data is set once: the edit button disappears and the key changes to the new values", async ({
    page,
    context,
  }, info) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const { email, card } = await buyerWithPaidLicense(page, "offline", info.project.name);
    const oldKey = (await card.getByTestId("license-key").innerText()).trim();
    await card.getByRole("button", { name: "Set offline data" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("can be set only once");
    await dialog.getByLabel("Windows username").fill("CORP\\dana");
    await dialog.getByLabel("Computer name").fill("DESKTOP-42");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByTestId("confirm-windows-username")).toHaveText("CORP\\dana");
    await expect(dialog.getByTestId("confirm-computer-name")).toHaveText("DESKTOP-42");
    await dialog.getByRole("button", { name: "Save offline data" }).click();
    await expect(toast(page, "License updated")).toContainText("and new encrypted key generated");
    await expect(dialog).toBeHidden();
    await expect(card.getByRole("button", { name: "Set offline data" })).toHaveCount(0);
    await expect(card.getByTestId("windows-username")).toHaveText("CORP\\dana");
    await expect(card.getByTestId("computer-name")).toHaveText("DESKTOP-42");
    const newKey = (await card.getByTestId("license-key").innerText()).trim();
    expect(newKey).not.toBe(oldKey);
    expect(decodeLicenseKey(newKey)).toMatchObject({
      email,
      windows_username: "CORP\\dana",
      computer_name: "DESKTOP-42",
    });
    await card.getByRole("button", { name: "Copy license key" }).click();
    await expect(toast(page, "Copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newKey);
  });

  test("cancel and re-enable renewal, then request a refund of the stated amount", async ({ page }, info) => {
    const { card } = await buyerWithPaidLicense(page, "renewal", info.project.name);
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on /);
    await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel renewal" }).click();
    await expect(toast(page, "Subscription Cancelled")).toContainText(
      "will be cancelled at the end of the current billing period",
    );
    await expect(card.getByTestId("license-status")).toHaveText(/^Active until .*; automatic renewal is cancelled$/);

    await card.getByRole("button", { name: "Re-enable auto-renewal" }).click();
    await expect(toast(page, "Auto-Renewal Enabled")).toBeVisible();
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on /);
    await expect(card.getByRole("button", { name: "Cancel auto-renewal" })).toBeVisible();

    await card.getByRole("button", { name: "Request Refund" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Request a refund of $85.50?");
    await confirm.getByRole("button", { name: "Request refund" }).click();
    await expect(toast(page, "Refund Requested")).toContainText("$85.50");
    await expect(card.getByText("Refund requested", { exact: true })).toBeVisible();
    await expect(card.getByTestId("license-key")).toHaveCount(0);
    await expect(card.getByTestId("offline-data")).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Request Refund" })).toHaveCount(0);
  });
});
