import type { Page } from "@playwright/test";
import { DEMO_USER, expect, plainTest as test } from "./support";

// Every page before JavaScript, and with it off (decision 0040): the menu, the footer's sign-in link,
// the licenses page's disclosures, and buttons that need scripts saying so.
test.use({ javaScriptEnabled: false });

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

async function logIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(DEMO_USER.email);
  await page.getByLabel("Password").fill(DEMO_USER.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL("/");
}

const summary = (page: Page, text: string | RegExp) => page.locator("summary").filter({ hasText: text });

test.describe("without JavaScript", () => {
  test(
    "the Menu opens on a phone and leads on; the footer has a Log in link with room to tap",
    { tag: "@phone" },
    async ({ page }) => {
      await page.goto("/");
      const menu = page.getByTestId("native-menu");
      if (isPhone(page)) {
        await expect(menu.getByRole("list", { name: "Menu" })).toBeHidden();
        await summary(page, "Menu").click();
        await expect(menu).toHaveAttribute("open", "");
        await menu.getByRole("link", { name: "Pricing" }).click();
        await expect(page).toHaveURL("/pricing");
      } else {
        // The bar shows the links; the phone's menu is not there to see.
        await expect(menu).toBeHidden();
        await expect(
          page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }),
        ).toBeVisible();
      }
      const footer = page.locator("footer");
      for (const link of await footer.getByRole("link").all()) {
        const box = (await link.boundingBox())!;
        expect(box.height, `${await link.innerText()} is ${box.height}px tall`).toBeGreaterThanOrEqual(24);
      }
      await footer.getByRole("link", { name: "Log in" }).click();
      await expect(page).toHaveURL("/login");
    },
  );

  test(
    "signed in, the account pages and Log Out are in the bar, or in the phone's menu",
    { tag: "@phone" },
    async ({ page }) => {
      await logIn(page);
      if (isPhone(page)) {
        await summary(page, "Menu").click();
        const menu = page.getByTestId("native-menu");
        await expect(menu.getByRole("link", { name: "Licenses" })).toBeVisible();
        await expect(menu.getByRole("button", { name: "Log Out" })).toBeVisible();
        await menu.getByRole("link", { name: "Profile" }).click();
      } else {
        await expect(page.getByTestId("native-menu")).toBeHidden();
        const bar = page.getByRole("navigation", { name: "Main" });
        await expect(bar.getByRole("link", { name: "Licenses" })).toBeVisible();
        await expect(bar.getByRole("button", { name: "Log Out" })).toBeVisible();
        await bar.getByRole("link", { name: "Profile" }).click();
      }
      await expect(page).toHaveURL("/profile");
    },
  );

  test("the licenses page's rows, Inactive licenses and About offline licenses open; script buttons say so", async ({
    page,
  }) => {
    await logIn(page);
    await page.goto("/licenses");
    // Nothing asks the demo customer to act (a refund in progress asks nothing): no attention box.
    await expect(page.getByTestId("license-card").first()).toBeVisible();
    await expect(page.getByTestId("attention-summary")).toHaveCount(0);
    const tester = page.getByTestId("license-card").filter({ hasText: "Tester license" });
    await expect(tester.getByTestId("license-key")).toBeHidden();
    await tester.locator(":scope > summary").click();
    await expect(tester.getByTestId("license-key")).toBeVisible();
    await expect(tester.getByRole("link", { name: "Download license file" })).toBeVisible();
    // Set offline data needs a dialog: disabled, and it says why.
    await expect(tester.getByRole("button", { name: "Set offline data" })).toBeDisabled();
    await expect(tester.getByTestId("offline-data").getByTestId("needs-script")).toHaveText("Needs JavaScript");

    const renewing = page
      .getByTestId("license-card")
      .filter({ has: page.getByTestId("license-status").getByText(/^Active, renews on /) });
    await renewing.locator(":scope > summary").click();
    await expect(renewing.getByRole("button", { name: "Request Refund" })).toBeDisabled();
    await expect(renewing.getByTestId("license-danger").getByTestId("needs-script")).toHaveText("Needs JavaScript");
    // Cancelling renewal works without scripts: a link to its confirmation page (decision 0057).
    await expect(renewing.getByRole("link", { name: "Cancel auto-renewal" })).toHaveAttribute(
      "href",
      /^\/licenses\/confirm\?intent=cancel-renewal&license=/,
    );

    const inactive = page.getByTestId("inactive-licenses");
    await expect(inactive.getByTestId("license-card").first()).toBeHidden();
    await summary(page, /^Inactive licenses \(\d+\)/).click();
    await expect(inactive.getByTestId("license-card").first()).toBeVisible();

    await expect(page.getByText("They can be changed only once.")).toBeHidden();
    await summary(page, "About offline licenses").click();
    await expect(page.getByText("They can be changed only once.")).toBeVisible();
  });

  test("a signed-in visitor's plan buttons need the checkout's scripts, and say so", async ({ page }) => {
    await logIn(page);
    await page.goto("/pricing");
    const yearly = page.getByTestId("plan-yearly");
    await expect(yearly.getByRole("button", { name: /Yearly|trial/ })).toBeDisabled();
    await expect(yearly.getByTestId("needs-script")).toHaveText("Needs JavaScript");
  });

  test("the register page names the plan chosen on the pricing page", async ({ page }) => {
    await page.goto("/pricing");
    await page.getByTestId("plan-6_months").getByRole("link").click();
    await expect(page).toHaveURL("/register?redirectTo=%2Fpricing%3Fplan%3D6_months");
    await expect(page.getByTestId("chosen-plan")).toContainText("Your plan: 6 Months, $49.50 every 6 months.");
    // Without scripts the server checks the terms box: the button is enabled, so no hint.
    await expect(page.getByRole("button", { name: "Create account" })).toBeEnabled();
    await expect(page.getByTestId("create-hint")).toHaveCount(0);
  });
});
