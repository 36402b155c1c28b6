import { nextCode, withUnusedCode } from "../support/totp";
import { test as base, expect, type APIRequest, type Cookie, type Locator, type Page } from "@playwright/test";
import { startWorkerSite, type WorkerSite } from "./site";

export interface Account {
  email: string;
  password: string;
  /** Base32 two-factor secret, for accounts with two-factor on. */
  totpSecret?: string;
}

/** The 6-digit code of a base32 secret an authenticator app shows, not used yet by this process (each works once). */
export const totp = nextCode;

/**
 * Playwright's test on this worker's own site (`site`, tests/e2e/site.ts: its server and database;
 * `baseURL` points at it), with `sessions`: a session made once per worker for each account signed in
 * with `signIn` (only the tests about signing in go through the form, so the suite signs in a few
 * times, not dozens). Pages as Playwright gives them: for the specs that run without JavaScript.
 */
export const plainTest = base.extend<object, { site: WorkerSite; sessions: SessionCache }>({
  site: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, provide, workerInfo) => {
      const site = await startWorkerSite(workerInfo.parallelIndex);
      // The demo secrets (secrets.json) some specs read are in this worker's site's data directory.
      process.env.E2E_DATA_DIR = site.dataDir;
      await provide(site);
      await site.stop();
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ site }, provide) => provide(site.origin),
  sessions: [
    async ({ playwright, site }, provide) => {
      const made = new Map<string, Promise<Cookie[]>>();
      await provide({
        cookies(account) {
          let cookies = made.get(account.email);
          if (!cookies) {
            cookies = signInOverHttp(playwright, site.origin, account);
            made.set(account.email, cookies);
          }
          return cookies;
        },
      });
    },
    { scope: "worker" },
  ],
});

/**
 * The same, with a page whose goto waits for the app to hydrate after loading an HTML page, so a
 * click is never lost on server-rendered markup whose handlers are not attached yet; and
 * `signIn(account, path = "/")`, which gives the page the worker's session of that account and opens `path`.
 */
export const test = plainTest.extend<{ signIn: (account: Account, path?: string) => Promise<void> }>({
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (response?.headers()["content-type"]?.includes("text/html")) await waitForHydration(page);
      return response;
    };
    await provide(page);
  },
  signIn: async ({ page, sessions }, provide) => {
    await provide(async (account, path = "/") => {
      await page.context().addCookies(await sessions.cookies(account));
      await page.goto(path);
    });
  },
});

interface SessionCache {
  cookies(account: Account): Promise<Cookie[]>;
}

/** Posts the login form once, as a browser would (with the site's Origin), and keeps the session cookie. */
async function signInOverHttp(playwright: { request: APIRequest }, baseURL: string, account: Account) {
  const api = await playwright.request.newContext({ baseURL });
  try {
    const response = await api.post("/login", {
      form: { email: account.email, password: account.password, redirectTo: "/" },
      headers: { Origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    if (response.status() !== 302) throw new Error(`signing in ${account.email} answered ${response.status()}`);
    if (response.headers()["location"]?.startsWith("/login/two-factor")) {
      // Two-factor on (the seeded admin): the second step with the current code of its secret.
      if (!account.totpSecret) throw new Error(`${account.email} asks for a two-factor code: give its totpSecret`);
      await withUnusedCode(account.totpSecret, async (code) => {
        const second = await api.post("/login/two-factor", {
          form: { code, redirectTo: "/" },
          headers: { Origin: new URL(baseURL).origin },
          maxRedirects: 0,
        });
        if (second.status() === 401) return null;
        if (second.status() !== 302) throw new Error(`two-factor for ${account.email} answered ${second.status()}`);
        return true;
      });
    }
    // Only the session: the flash toast of this sign-in must not show up in every test.
    return (await api.storageState()).cookies.filter((cookie) => cookie.name.endsWith("session_token"));
  } finally {
    await api.dispose();
  }
}
export { expect };

/**
 * Waits until every toast on the page has finished coming in (opacity 1): axe measures colour
 * contrast on what is painted, and a toast still fading in reads as faint text.
 */
export async function settledToasts(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-sonner-toast]")].every((t) => getComputedStyle(t).opacity === "1"),
  );
}

export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // Parts that hydrate on their own (the license cards, decision 0083) follow the page by a moment.
  await page.waitForFunction(() => !document.querySelector("[data-awaiting-hydration]"));
}

export const DEMO_USER = { email: "demo@forgekit.example", password: "user-demo-1" };
export const DEMO_ADMIN = {
  email: "admin@forgekit.example",
  password: "admin-demo-1",
  // The seeded admin has two-factor on (app/server/seed.server.ts prints this in the banner).
  totpSecret: "FORGEKITDEMOADMIN2FASECRET234567",
};

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

/**
 * Logs in through the form and waits for the home page; an account with two-factor on (the seeded
 * admin by default) gets the code of its secret on the second step.
 */
export async function logIn(
  page: Page,
  email: string,
  password: string,
  totpSecret = email === DEMO_ADMIN.email ? DEMO_ADMIN.totpSecret : undefined,
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  if (totpSecret) {
    await expect(page).toHaveURL(/\/login\/two-factor/);
    await waitForHydration(page);
    await withUnusedCode(totpSecret, async (code) => {
      await page.getByLabel("Code").fill(code);
      await page.getByRole("button", { name: "Verify" }).click();
      // Each code works once: a code used already (by another sign-in) is refused on the same page.
      return page
        .waitForURL((url) => url.pathname === "/", { timeout: 5000 })
        .then(
          () => true,
          () => null,
        );
    });
  }
  await expect(page).toHaveURL("/");
  await waitForHydration(page);
}

/**
 * The confirmation link's page (decision 0059): the link alone signs nobody in; logging in there with
 * the password chosen at registration confirms the address.
 */
export async function confirmFromLink(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await expect(page).toHaveURL(/\/email-confirmation\?token=/);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirm and log in" }).click();
}

/** Registers through the form, confirms from the mailbox link with the password, and ends signed in at /. */
export async function registerAndConfirm(
  page: Page,
  email: string,
  password = "secret-pass-1",
  fullName = "Test User",
): Promise<void> {
  await page.goto("/register");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("checkbox").click();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/confirm-email/);
  const mail = await latestMail(page, email);
  await confirmFromLink(page, mail.link, password);
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

/** A fresh customer with a monthly trial and a paid yearly license (demo checkout); the yearly card. */
export async function buyerWithPaidLicense(page: Page, prefix: string, project: string) {
  const email = uniqueEmail(prefix, project);
  await registerAndConfirm(page, email);
  for (const [plan, button, pay] of [
    ["monthly", "Start 7-day free trial", "Start free trial"],
    ["yearly", "Choose Yearly", "Pay $90"],
  ] as const) {
    await page.goto("/pricing");
    await page.getByTestId(`plan-${plan}`).getByRole("button", { name: button }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);
  }
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
  await expect(card).toBeVisible();
  return { email, card };
}

/** Opens a license's row on /licenses (a native <details>) unless it is open already. */
export async function openLicense(card: Locator): Promise<void> {
  if (!(await card.evaluate((el) => (el as HTMLDetailsElement).open))) await card.locator(":scope > summary").click();
  await expect(card).toHaveAttribute("open", "");
}

/** A native disclosure's summary (a <details>), by its text: "Inactive licenses (4)", "About offline licenses". */
export function disclosure(page: Page, text: string | RegExp): Locator {
  return page.locator("summary").filter({ hasText: text });
}

/** Opens every license row on /licenses, the inactive ones' disclosure first. */
export async function openAllLicenses(page: Page): Promise<void> {
  const inactive = page.getByTestId("inactive-licenses");
  if ((await inactive.count()) > 0 && !(await inactive.evaluate((el) => (el as HTMLDetailsElement).open)))
    await inactive.locator(":scope > summary").click();
  for (const card of await page.getByTestId("license-card").all()) await openLicense(card);
}

/**
 * The pricing page's team offer once its code is in: the server's copy of the form is replaced on first
 * use (a pointer or focus on it, decision 0053), and a field filled at that moment would be typed into the
 * copy that is going away. Hovering loads it; the live form is marked `data-team-form="live"`.
 */
export async function teamOffer(page: Page): Promise<Locator> {
  await page.getByTestId("team-offer").hover();
  const live = page.locator('[data-team-form="live"]');
  await live.waitFor({ state: "attached" });
  return live.getByTestId("team-offer");
}
