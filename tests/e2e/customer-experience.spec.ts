import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import { formatBytes } from "../../app/domain/installer";
import {
  buyerWithPaidLicense,
  expect,
  confirmFromLink,
  latestMail,
  openAllLicenses,
  test,
  DEMO_USER,
  uniqueEmail,
  waitForHydration,
} from "./support";
import { expectNoHorizontalScroll } from "./layout";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** A new customer with one paid yearly license (the first purchase is the trial of a monthly plan). */

test.describe("buying", () => {
  test("a plan picked while signed out survives registration and its checkout opens after the e-mail is confirmed", async ({
    page,
  }, info) => {
    test.setTimeout(60_000);
    const email = uniqueEmail("plan-kept", info.project.name);
    await page.goto("/pricing");
    await page.getByRole("link", { name: "Start 7-day free trial (Yearly)" }).click();
    await expect(page).toHaveURL("/register?redirectTo=%2Fpricing%3Fplan%3Dyearly");
    await waitForHydration(page);
    await page.getByLabel("Full name").fill("Plan Keeper");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("secret-pass-1");
    await page.getByRole("checkbox").click();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/confirm-email\?email=.+&redirectTo=%2Fpricing%3Fplan%3Dyearly$/);
    await expect(page.getByText("brings you back to where you were going")).toBeVisible();

    const mail = await latestMail(page, email);
    await confirmFromLink(page, mail.link, "secret-pass-1");
    await expect(page).toHaveURL("/pricing");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("demo-checkout-plan")).toHaveText("Yearly");
    await expect(dialog.getByTestId("demo-checkout-next")).toHaveText(
      /^Free for 7 days, then \$90 on .+ unless you cancel\.$/,
    );
    await dialog.getByRole("button", { name: "Start free trial" }).click();

    // The success page names the new license and the next steps.
    await expect(page).toHaveURL(/\/success\?transactionId=/);
    await expect(page.getByTestId("purchased-license-id")).toHaveText(/^FK-[0-9A-Z]{4}-[0-9A-Z]{4}$/, {
      timeout: 15_000,
    });
    await expect(page.getByTestId("purchased-license")).toContainText("Yearly (free trial)");
    await expect(page.getByTestId("next-steps")).toContainText("Download");
    await expect(page.getByTestId("next-steps")).toContainText("Activate");
    const shortId = (await page.getByTestId("purchased-license-id").innerText()).trim();
    await page.getByRole("link", { name: "Go to Licenses" }).click();
    await expect(page.getByTestId("license-short-id")).toHaveText(shortId);
  });

  test("logging in from a guard returns to the page the visitor was going to", async ({ page }) => {
    await page.goto("/licenses");
    await expect(page).toHaveURL("/login?redirectTo=%2Flicenses");
    await expect(page.getByRole("link", { name: "Register" }).last()).toHaveAttribute(
      "href",
      "/register?redirectTo=%2Flicenses",
    );
    await page.getByLabel("E-mail").fill(DEMO_USER.email);
    await page.getByLabel("Password").fill(DEMO_USER.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL("/licenses");
    await expect(page.getByRole("heading", { name: "Your licenses" })).toBeVisible();
  });
});

test.describe("the licenses page", () => {
  test("offline data: both empty is refused, the Windows rules are checked, and saving asks to confirm both values", async ({
    page,
  }, info) => {
    // Registration and two purchases first: a long test on a busy machine.
    test.setTimeout(60_000);
    const { card } = await buyerWithPaidLicense(page, "offline-rules", info.project.name);
    await card.getByRole("button", { name: "Set offline data" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("The values can be set only once");

    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Enter a Windows username, a computer name, or both.");

    const long = "x".repeat(80);
    await dialog.getByLabel("Windows username").fill(long);
    await dialog.getByLabel("Computer name").fill(`MY PC ${long}`);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog).toContainText("A Windows username has at most 20 characters.");
    await expect(dialog).toContainText("A computer name has at most 15 characters.");
    await expectNoHorizontalScroll(page);

    await dialog.getByLabel("Windows username").fill("da/na");
    await dialog.getByLabel("Computer name").fill("MY PC");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog).toContainText("A Windows username cannot contain");
    await expect(dialog).toContainText("A computer name uses only letters, digits and hyphens.");
    await expect(dialog.getByLabel("Windows username")).toHaveAttribute("aria-invalid", "true");

    await dialog.getByLabel("Windows username").fill("CORP\\dana");
    await dialog.getByLabel("Computer name").fill("");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByRole("heading", { name: "Save this offline data?" })).toBeVisible();
    await expect(dialog.getByTestId("confirm-windows-username")).toHaveText("CORP\\dana");
    await expect(dialog.getByTestId("confirm-computer-name")).toHaveText("not set");
    await expect(dialog.getByTestId("confirm-empty-warning")).toHaveText(
      "The computer name stays empty: it can never be added to this license later.",
    );
    await dialog.getByRole("button", { name: "Back" }).click();
    await expect(dialog.getByLabel("Windows username")).toHaveValue("CORP\\dana");
    await dialog.getByLabel("Computer name").fill("DESKTOP-42");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByTestId("confirm-computer-name")).toHaveText("DESKTOP-42");
    await expect(dialog.getByTestId("confirm-empty-warning")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Save offline data" }).click();
    await expect(toast(page, "License updated")).toContainText("and new encrypted key generated");
    await expect(card.getByTestId("windows-username")).toHaveText("CORP\\dana");
    await expect(card.getByTestId("computer-name")).toHaveText("DESKTOP-42");
    await expect(card.getByRole("button", { name: "Set offline data" })).toHaveCount(0);
  });

  test("while one action of a card runs, only its button spins and a thin progress bar shows", async ({
    page,
  }, info) => {
    test.setTimeout(60_000);
    const { card } = await buyerWithPaidLicense(page, "one-spinner", info.project.name);
    // The answer waits until the test has looked at the pending state.
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/licenses.data*", async (route) => {
      if (route.request().method() === "POST") await answered;
      await route.continue();
    });
    await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel renewal" }).click();
    await expect(page.getByTestId("navigation-progress")).toBeVisible();
    await expect(card.getByRole("button", { name: "Cancel auto-renewal" }).getByRole("status")).toBeVisible();
    const refund = card.getByRole("button", { name: "Request Refund" });
    await expect(refund).toBeDisabled();
    await expect(refund.getByRole("status")).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Set offline data" })).toBeDisabled();
    await expect(card.getByRole("status")).toHaveCount(1);
    release();
    await expect(card.getByTestId("license-status")).toHaveText(/automatic renewal is cancelled$/, { timeout: 15_000 });
    await expect(page.getByTestId("navigation-progress")).toHaveCount(0);
  });

  test("a slow page change shows the progress bar until the page arrives", async ({ page, signIn }) => {
    await signIn(DEMO_USER, "/licenses");
    await page.route("**/pricing.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.getByRole("link", { name: "Buy More Licenses" }).click();
    await expect(page.getByTestId("navigation-progress")).toBeVisible();
    await expect(page).toHaveURL("/pricing");
    await expect(page.getByTestId("navigation-progress")).toHaveCount(0);
  });

  test("each key is one line with Show and Copy, and the page fits a 390 px screen", async ({ page, signIn }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(DEMO_USER, "/licenses");
    await openAllLicenses(page);
    await expectNoHorizontalScroll(page);
    const key = page.getByTestId("license-key").first();
    const folded = (await key.boundingBox())!.height;
    expect(folded).toBeLessThan(40);
    // A native disclosure named with the license's short id (decision 0057).
    const show = page.getByTestId("license-key-show").first().locator("summary");
    await expect(show).toHaveAccessibleName(/^Show license key FK-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await show.click();
    await expect(show).toHaveAccessibleName(/^Hide license key FK-/);
    expect((await key.boundingBox())!.height).toBeGreaterThan(folded * 2);
    await expectNoHorizontalScroll(page);
  });
});

test.describe("the download page", () => {
  test("shows the installer's size and SHA-256, how to install, and the winget command", async ({ page }) => {
    await page.goto("/download");
    // The seeded newest release describes the demo archive the download link serves, byte for byte.
    const archive = await (await page.request.get("/downloads/forgekit-latest.zip")).body();
    await expect(page.getByTestId("installer-size")).toHaveText(formatBytes(archive.length));
    await expect(page.getByTestId("installer-sha256")).toHaveText(createHash("sha256").update(archive).digest("hex"));
    await expect(page.getByRole("heading", { name: "How to install" })).toBeVisible();
    await expect(page.getByText("Get-FileHash .\\forgekit-latest.zip -Algorithm SHA256")).toBeVisible();
    await expect(page.getByTestId("winget")).toContainText("winget install --id ForgeKit.ForgeKit --exact");
    await expectNoHorizontalScroll(page);
  });
});
