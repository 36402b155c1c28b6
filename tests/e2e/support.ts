import { test as base, expect, type Page } from "@playwright/test";

/**
 * Playwright's test with a page whose goto waits for the app to hydrate after loading an HTML
 * page, so a click is never lost on server-rendered markup whose handlers are not attached yet.
 */
export const test = base.extend({
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (response?.headers()["content-type"]?.includes("text/html")) await waitForHydration(page);
      return response;
    };
    await provide(page);
  },
});
export { expect };

export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export const DEMO_USER = { email: "demo@forgekit.example", password: "user-demo-1" };
export const DEMO_ADMIN = { email: "admin@forgekit.example", password: "admin-demo-1" };

let counter = 0;
/** An e-mail address no other test uses (tests share one server and database). */
export function uniqueEmail(prefix: string, project = "p"): string {
  return `${prefix}-${project}-${Date.now().toString(36)}-${++counter}@example.com`;
}

/** The newest e-mail to an address in the dev mailbox: its subject and first link. */
export async function latestMail(page: Page, to: string): Promise<{ subject: string; link: string }> {
  let found: { subject: string; link: string } | null = null;
  await expect(async () => {
    await page.goto("/dev/mailbox");
    const mail = page
      .getByTestId("dev-mail")
      .filter({ has: page.getByTestId("mail-to").getByText(to, { exact: true }) })
      .first();
    await expect(mail).toBeVisible({ timeout: 1000 });
    const subject = (await mail.locator("[data-slot=card-title]").innerText()).trim();
    const link = await mail.locator("pre a").first().getAttribute("href");
    found = { subject, link: link! };
  }).toPass({ timeout: 10_000 });
  return found!;
}

/** Logs in through the form and waits for the home page. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL("/");
  await waitForHydration(page);
}

/** Registers through the form, confirms from the mailbox link, and ends signed in at /. */
export async function registerAndConfirm(
  page: Page,
  email: string,
  password = "secret-pass-1",
  fullName = "Test User",
): Promise<void> {
  await page.goto("/register");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("checkbox").click();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/confirm-email/);
  const mail = await latestMail(page, email);
  await page.goto(mail.link);
  await expect(page).toHaveURL("/");
}

/** The visible navigation (desktop bar or the mobile drawer's list), as link texts. */
export async function openMenu(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  if (width < 768) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
  }
}

export async function logOut(page: Page): Promise<void> {
  await openMenu(page);
  await page.getByRole("button", { name: "Log Out" }).click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeAttached();
}
