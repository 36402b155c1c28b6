import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { disclosure, expect, openLicense, test, DEMO_USER, registerAndConfirm, uniqueEmail } from "./support";

test.describe("licenses page", () => {
  test("signed-out visitors are sent to /login", async ({ page }) => {
    await page.goto("/licenses");
    await expect(page).toHaveURL("/login?redirectTo=%2Flicenses");
  });

  test("every seeded license state renders as docs/product.md says", async ({ page, context, signIn }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(DEMO_USER, "/licenses");
    const cards = page.getByTestId("license-card");
    // Active ones first; the expired, refunded and revoked ones wait under a collapsed heading.
    await expect(page.getByTestId("active-licenses").getByTestId("license-card")).toHaveCount(5);
    await expect(page.getByTestId("license-short-id").first()).toHaveText(/^FK-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const inactive = page.getByTestId("inactive-licenses");
    await expect(inactive).not.toHaveAttribute("open");
    await expect(inactive.getByTestId("license-card").first()).toBeHidden();
    await disclosure(page, "Inactive licenses (4)").click();
    await expect(inactive).toHaveAttribute("open", "");
    await expect(cards).toHaveCount(9);
    await expect(inactive.getByTestId("license-card")).toHaveCount(4);
    await expect(inactive.getByTestId("license-card").first()).toBeVisible();
    // Each card's heading names its short id, so two licenses of one plan read apart (decision 0057).
    for (const card of await cards.all()) {
      const shortId = (await card.getByTestId("license-short-id").innerText()).trim();
      await expect(card.getByRole("heading", { level: 2 })).toHaveAccessibleName(
        new RegExp(`^[0-9A-Za-z ]+ license ${shortId}$`),
      );
    }
    const kinds = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-status")).sort());
    expect(kinds).toEqual(
      [
        "active",
        "active",
        "active",
        "refund-requested",
        "refunded",
        "expired",
        "revoked",
        "trial-active",
        "trial-expired",
      ].sort(),
    );
    // The renewing one; the refund-requested one stopped renewing with its request.
    await expect(page.getByTestId("license-status").filter({ hasText: /^Active, renews on / })).toHaveCount(1);
    await expect(page.getByTestId("license-status").filter({ hasText: /^Active, trial until / })).toHaveCount(1);
    await expect(page.getByTestId("license-status").filter({ hasText: /^Trial Expired on / })).toHaveCount(1);
    await expect(page.getByTestId("license-status").filter({ hasText: /^Expired on / })).toHaveCount(1);
    await expect(page.getByTestId("license-status").filter({ hasText: /^Refunded on / })).toHaveCount(1);
    // The renewing monthly license says what it includes, from the plan table.
    const renewing = cards.filter({
      has: page.getByTestId("license-status").filter({ hasText: /^Active, renews on / }),
    });
    await expect(renewing.getByTestId("license-entitlements")).toHaveText("Component generation, Batch generation");
    // Shown in red with a revoked notice: the status line says it, the note says whom to ask (decision 0060).
    const revokedCard = page.locator("[data-status=revoked]");
    await expect(revokedCard.getByTestId("license-status")).toHaveText("Revoked: this license no longer works.");
    await expect(revokedCard.getByTestId("revoked-note")).toHaveText(
      /^Contact support at \S+@\S+ if you think this is a mistake\.$/,
    );
    await expect(page.getByText("Refund requested", { exact: true })).toBeVisible();
    // A trial wears its own badge, not a paid license's green "Active" (decision 0040).
    await expect(page.locator("[data-status=trial-active]").getByTestId("license-badge")).toHaveText("Trial");
    // The trial says what happens at its end, and that offline data comes with a paid plan (decision 0057).
    const seededTrial = page.locator("[data-status=trial-active]");
    await openLicense(seededTrial);
    await expect(seededTrial.getByTestId("trial-end")).toContainText(
      "When the trial ends, its key stops working and nothing is charged.",
    );
    await expect(seededTrial.getByRole("link", { name: "Buy a plan" })).toHaveAttribute("href", "/pricing");
    await expect(seededTrial.getByText("Trial ends", { exact: true })).toBeVisible();

    // One status line that agrees with the badge: the refund-requested license does not renew.
    await expect(page.locator("[data-status=refund-requested]").getByTestId("license-status")).not.toContainText(
      "renew",
    );
    await expect(page.getByText(/renews on/)).toHaveCount(1);
    // Refunded and refund-requested licenses hide their keys: 7 of 9 show one.
    await expect(page.getByTestId("license-key")).toHaveCount(7);
    const tester = cards.filter({ hasText: "Tester license" });
    await openLicense(tester);
    const key = (await tester.getByTestId("license-key").innerText()).trim();
    await tester.getByRole("button", { name: "Copy license key" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    await disclosure(page, "About offline licenses").click();
    await expect(page.getByText("They can be changed only once.")).toBeVisible();
    await expect(page.getByTestId("offline-paid-plan")).toContainText(
      "Offline data comes with a paid plan; a trial license has none",
    );
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
    await page.getByRole("link", { name: "Buy More Licenses" }).click();
    await expect(page).toHaveURL("/pricing");
  });

  test("Download license file saves the signed file of a valid license; expired and revoked ones offer none", async ({
    page,
    signIn,
  }) => {
    await signIn(DEMO_USER, "/licenses");
    const tester = page.getByTestId("license-card").filter({ hasText: "Tester license" });
    await openLicense(tester);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      tester.getByRole("link", { name: "Download license file" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^forgekit-[0-9a-f]{8}\.lic$/);
    const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as Record<string, string>;
    expect(file).toMatchObject({ format: "license/1" });
    expect(JSON.parse(Buffer.from(file.payload!, "base64url").toString("utf8"))).toMatchObject({
      license_type: "tester",
    });
    await disclosure(page, /^Inactive licenses/).click();
    await expect(
      page.locator("[data-status=revoked]").getByRole("link", { name: "Download license file" }),
    ).toHaveCount(0);
    await expect(
      page.locator("[data-status=expired]").getByRole("link", { name: "Download license file" }),
    ).toHaveCount(0);
  });

  test("a user without licenses sees the empty state", async ({ page }, info) => {
    await registerAndConfirm(page, uniqueEmail("nolicense", info.project.name));
    await page.goto("/licenses");
    await expect(page.getByRole("heading", { name: "No licenses yet" })).toBeVisible();
    await page.getByRole("link", { name: "Get Your First License" }).click();
    await expect(page).toHaveURL("/pricing");
  });
});
