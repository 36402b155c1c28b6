import { startLocalProviders, type LocalProviders } from "../support/oauth-providers";
import { startServer, tempDir, type ServerProcess } from "../support/server-process";
import { expect, test, waitForHydration } from "./support";

/**
 * Sign in with GitHub and Google in the browser, end to end: a site of its own (the shared one has
 * no client ids) whose providers point at local OAuth/OIDC servers this test starts.
 */
let providers: LocalProviders;
let site: ServerProcess;

test.beforeAll(async ({ site: shared }) => {
  test.setTimeout(150_000);
  providers = await startLocalProviders();
  site = await startServer({
    // The port after this worker's shared site's (tests/e2e/site.ts).
    port: shared.port + 1,
    dataDir: tempDir("fk-e2e-oauth-"),
    env: { ...providers.env, AUTH_RATE_LIMIT: "1000" },
  });
});
test.afterAll(async () => {
  await site?.stop();
  await providers?.stop();
});

let n = 0;
for (const [provider, name] of [
  ["github", "GitHub"],
  ["google", "Google"],
] as const) {
  test(`sign in with ${name}: a new account named after the provider's profile`, async ({ page }, info) => {
    const email = `oauth-${provider}-${info.project.name}-${Date.now().toString(36)}-${++n}@example.com`;
    providers.setIdentity({ id: String(5000 + n), name: `Grace ${name}`, email, emailVerified: true });
    await page.goto(`${site.origin}/login?redirectTo=%2Fprofile`);
    await waitForHydration(page);
    await page.getByRole("button", { name: `Log in with ${name}` }).click();
    await expect(page).toHaveURL(`${site.origin}/profile`);
    await expect(page.getByLabel("Full name")).toHaveValue(`Grace ${name}`);
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(email);
    await expect(page.locator("#connected-accounts")).toContainText(`${name}: connected`);
  });
}

test("an existing account's e-mail: refused until its owner connects the provider from the profile", async ({
  page,
}) => {
  // The seeded demo user (password user-demo-1) already has this address.
  const email = "demo@forgekit.example";
  providers.setIdentity({ id: "7777", name: "Dana Google", email, emailVerified: true });
  await page.goto(`${site.origin}/login`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Log in with Google" }).click();
  await expect(page).toHaveURL(/\/login\?error=account_not_linked/);
  await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();

  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password").fill("user-demo-1");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${site.origin}/`);
  await page.goto(`${site.origin}/profile`);
  await waitForHydration(page);
  await page.locator("#connected-accounts").getByRole("button", { name: "Connect Google" }).click();
  await expect(page).toHaveURL(/\/profile\?linked=1/);
  await expect(page.locator("#connected-accounts")).toContainText("Google: connected");
});

test("a GitHub address GitHub has not verified: refused with a message, nobody signed in", async ({ page }, info) => {
  const email = `oauth-unverified-${info.project.name}-${Date.now().toString(36)}@example.com`;
  providers.setIdentity({ id: String(8000 + ++n), name: "Mallory GitHub", email, emailVerified: false });
  await page.goto(`${site.origin}/login?redirectTo=%2Fprofile`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Log in with GitHub" }).click();
  await expect(page).toHaveURL(/\/login\?error=provider_email_unverified/);
  await expect(page.getByRole("alert").filter({ hasText: "has not verified this e-mail address" })).toBeVisible();
  await page.goto(`${site.origin}/profile`);
  await expect(page).toHaveURL(/\/login/);
});
