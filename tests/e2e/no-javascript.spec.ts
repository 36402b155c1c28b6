import type { Page } from "@playwright/test";
import { DEMO_USER, openLicense, uniqueEmail, expect, plainTest as test } from "./support";

// Forms must work before the scripts load, and without them: native form posts, no hydration.
// (support.ts's `test` waits for hydration, which never comes here, so Playwright's own is used.)
test.use({ javaScriptEnabled: false });

/** Records the Origin header of every POST the page sends (helmet's old no-referrer made it "null"). */
function postOrigins(page: Page): (string | undefined)[] {
  const origins: (string | undefined)[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") origins.push(request.headers()["origin"]);
  });
  return origins;
}

/** Signed in: /licenses is served instead of redirecting to /login (the mobile menu needs scripts). */
async function expectSignedIn(page: Page): Promise<void> {
  await page.goto("/licenses");
  await expect(page).toHaveURL("/licenses");
  await expect(
    page
      .getByTestId("license-card")
      .or(page.getByRole("link", { name: /Buy/ }))
      .first(),
  ).toBeAttached();
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL("/");
}

test.describe("without JavaScript", () => {
  test("a user logs in through the plain form", async ({ page, baseURL }) => {
    const origins = postOrigins(page);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    expect(origins).toEqual([baseURL]);
    await expectSignedIn(page);
  });

  test("a visitor registers, confirms the address from the mailbox and is signed in", async ({
    page,
    baseURL,
  }, info) => {
    const origins = postOrigins(page);
    const email = uniqueEmail("nojs", info.project.name);
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Noscript User");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("no-scripts-1");
    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/confirm-email/);
    expect(origins).toEqual([baseURL]);

    await page.goto("/dev/mailbox");
    const mail = page
      .getByTestId("dev-mail")
      .filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) })
      .first();
    const link = await mail.locator("pre a").first().getAttribute("href");
    // The link alone signs nobody in (decision 0059): a plain form asks for the password chosen.
    await page.goto(link!);
    await expect(page).toHaveURL(/\/email-confirmation\?token=/);
    await page.getByLabel("Password", { exact: true }).fill("no-scripts-1");
    await page.getByRole("button", { name: "Confirm and log in" }).click();
    await expect(page).toHaveURL("/");
    await expectSignedIn(page);
    expect(origins).toEqual([baseURL, baseURL]);
  });

  test("the demo user cancels a license's auto-renewal and turns it back on", async ({ page, baseURL }) => {
    const origins = postOrigins(page);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto("/licenses");
    const renewing = page
      .getByTestId("license-card")
      .filter({ has: page.getByTestId("license-status").getByText(/^Active, renews on /) })
      .filter({ has: page.locator("a[href*='intent=cancel-renewal']") })
      .first();
    // Each license is a row that opens without scripts (a native <details>).
    await openLicense(renewing);
    const shortId = (await renewing.getByTestId("license-short-id").first().innerText()).trim();
    const card = page.locator(`[data-short-id="${shortId}"]`);

    // Cancelling asks first, on a page of its own (decision 0057); "Keep renewing" leads back.
    await card.getByRole("link", { name: "Cancel auto-renewal" }).click();
    await expect(page).toHaveURL(/\/licenses\/confirm\?intent=cancel-renewal&license=/);
    await expect(page.getByRole("heading", { name: "Cancel automatic renewal?" })).toBeVisible();
    await expect(page.getByTestId("license-short-id")).toHaveText(shortId);
    await page.getByRole("button", { name: "Cancel renewal" }).click();
    // Back at the license's row, which says what was done.
    await expect(page).toHaveURL(/\/licenses(#license-[0-9a-f-]{36})?$/);
    await expect(page.getByTestId("no-script-notice")).toBeVisible();
    await expect(card.getByTestId("license-status")).toContainText("automatic renewal is cancelled");
    await openLicense(card);

    // Back as it was (the seeded data is shared with the other browser tests).
    await card.getByRole("button", { name: "Re-enable auto-renewal" }).click();
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, renews on /);
    expect(origins).toEqual([baseURL, baseURL, baseURL]);
  });
});
