import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ROLLOUT_FORM_ERROR } from "~/domain/admin";
import { expect, test, DEMO_ADMIN } from "./support";

// Releases from CI and drafts with a preview (decision 0039), as an admin and a CI job do them:
// a token made on /admin/tokens, `npm run release:publish` publishing a beta, the beta update check
// offering it with the SHA-256 of the very file it points to, a yank withdrawing it.

const run = promisify(execFile);
const SHOTS = process.env.RELEASE_SHOTS_DIR;

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function noSideways(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** A local file server for the installer (the CDN a CI job uploads to). */
async function serveFile(bytes: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) =>
    req.url === "/installer.zip" ? res.end(bytes) : res.writeHead(404).end(),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/installer.zip`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function createToken(page: Page, name: string): Promise<string> {
  await page.goto("/admin");
  await page.getByRole("link", { name: "API tokens" }).click();
  await expect(page).toHaveURL("/admin/tokens");
  await page.getByLabel("Name").fill(name);
  await expect(page.getByRole("checkbox", { name: /releases:write/ })).toBeChecked();
  await page.getByLabel("Expires after").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toHaveText(/^fkt_/);
  await expect(page.getByTestId("api-token").filter({ hasText: name })).toContainText("Active");
  return (await shown.textContent())!.trim();
}

test.describe("releases from CI", () => {
  test("a CI job publishes a beta with release:publish; the beta update check offers it with the file's SHA-256; a yank withdraws it", async ({
    page,
    signIn,
    request,
    baseURL,
  }, info) => {
    test.setTimeout(120_000);
    await signIn(DEMO_ADMIN);
    const name = `CI ${info.project.name} ${Date.now().toString(36)}`;
    const token = await createToken(page, name);
    await expectAccessible(page);
    await noSideways(page);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `tokens-${info.project.name}.png`), fullPage: true });

    const bytes = Buffer.from(`ForgeKit installer ${info.project.name} ${Date.now()}\n`.repeat(5000));
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fk-release-")), "installer.zip");
    fs.writeFileSync(file, bytes);
    const cdn = await serveFile(bytes);
    // Below admin.spec's 9.x releases, which the admin form must see as the newest (no "older" confirmation).
    const version = `8.${Date.now() % 1_000_000}.0-beta.1`;
    try {
      const args = ["run", "--silent", "release:publish", "--", "--version", version, "--file", file];
      const env = { ...process.env, FORGEKIT_API_TOKEN: token, FORGEKIT_API_URL: baseURL! };
      const published = await run("npm", [...args, "--channel", "beta", "--download-url", cdn.url], { env });
      expect(JSON.parse(published.stdout)).toMatchObject({ version, channel: "beta", status: "published", sha256 });

      const beta = await (await request.get(`/api/v1/updates/latest?current=1.0.0&channel=beta`)).json();
      expect(beta.latest).toMatchObject({ version, sha256, size: bytes.length, download_url: cdn.url });
      const downloaded = Buffer.from(await (await fetch(beta.latest.download_url)).arrayBuffer());
      expect(createHash("sha256").update(downloaded).digest("hex")).toBe(beta.latest.sha256);
      const stable = await (await request.get(`/api/v1/updates/latest?current=1.0.0`)).json();
      expect(stable.latest.version).not.toBe(version);

      await page.goto("/release-notes");
      const entry = page.locator("article").filter({ hasText: `Version ${version}` });
      await expect(entry.getByText("Beta", { exact: true })).toBeVisible();

      const auth = { Authorization: `Bearer ${token}` };
      const yanked = await request.patch(`/api/v1/releases/${version}`, { data: { yanked: true }, headers: auth });
      expect(yanked.status()).toBe(200);
      const after = await (await request.get(`/api/v1/updates/latest?current=1.0.0&channel=beta`)).json();
      expect(after.latest?.version).not.toBe(version);
      await page.goto("/release-notes");
      await expect(entry.getByTestId("yanked-notice")).toBeVisible();
      // A second run with the same version is refused by the API, naming the field.
      const again = await run("npm", [...args, "--channel", "beta"], { env }).catch((error) => error);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("HTTP 409 (version)");
      // A rollout outside 0–100 (decision 0062) is refused with its code, and nothing is stored.
      const outside = await run("npm", [...args.slice(0, 5), `${version}.2`, ...args.slice(6), "--rollout", "150"], {
        env,
      }).catch((error) => error);
      expect(outside.code).toBe(1);
      expect(outside.stderr).toContain("HTTP 400 (rollout, rollout_out_of_range)");
      const listed = await (await request.get("/api/v1/releases?channel=beta", { headers: auth })).json();
      expect(listed.releases.map((r: { version: string }) => r.version)).not.toContain(`${version}.2`);
      // Leave the public pages as the other specs expect them: the beta back to a draft.
      await request.patch(`/api/v1/releases/${version}`, { data: { published: false }, headers: auth });

      // Revoked on the tokens page, the token stops working at once; its last use is listed.
      await page.goto("/admin/tokens");
      const row = page.getByTestId("api-token").filter({ hasText: name });
      await expect(row.getByTestId("token-last-used")).not.toHaveText("Never");
      await row.getByRole("button", { name: `Revoke ${name}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
      await expect(row).toContainText("Revoked");
      const refused = await request.get("/api/v1/releases", { headers: auth });
      expect(refused.status()).toBe(401);
      expect((await refused.json()).code).toBe("token_revoked");
    } finally {
      await cdn.close();
    }
  });

  test("an admin saves a draft with a preview of the download card, confirms an older version, publishes and unpublishes it", async ({
    page,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    await signIn(DEMO_ADMIN, "/admin/releases");
    await page.getByRole("button", { name: "Add release" }).click();
    const dialog = page.getByRole("dialog");
    // An older line's fix: it sorts before the newest release (2.4.0), so the form asks first.
    const version = `2.3.${Date.now() % 1_000_000}`;
    await dialog.getByLabel("Version").fill(version);
    await dialog.getByLabel("Title (optional)").fill("Preview test");
    await dialog.getByLabel("Size in bytes").fill("1234567");
    await dialog.getByLabel("SHA-256").fill("ab".repeat(32));
    await dialog.getByLabel("Note 1").fill("Shown in the preview first.");
    const preview = dialog.getByTestId("release-preview");
    await expect(preview).toContainText(`Latest version ${version}`);
    await expect(preview).toContainText("1.2 MB");
    await expect(preview.getByTestId("installer-sha256")).toHaveText("ab".repeat(32));
    await expectAccessible(page);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `release-form-${info.project.name}.png`) });
    // The rollout (decision 0062): a percentage outside 0–100 and a minimum above the version are refused.
    await dialog.getByLabel("Offered to this percentage of machines").fill("150");
    await dialog.getByLabel("Tools older than this must update first (optional)").fill("9.0.0");
    await dialog.getByRole("button", { name: "Save draft" }).click();
    await expect(dialog.getByText(ROLLOUT_FORM_ERROR)).toBeVisible();
    await dialog.getByLabel("Offered to this percentage of machines").fill("10");
    await dialog.getByRole("button", { name: "Save draft" }).click();
    await expect(dialog.getByText(/cannot be above this release's version/)).toBeVisible();
    await dialog.getByLabel("Tools older than this must update first (optional)").fill("2.0.0");
    await dialog.getByLabel(/Critical/).check();
    await dialog.getByRole("button", { name: "Save draft" }).click();
    await expect(dialog.getByText(/sorts before the newest release/).first()).toBeVisible();
    await dialog.getByLabel(/meant to sort before the newest release/).check();
    await preview.scrollIntoViewIfNeeded();
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `release-preview-${info.project.name}.png`) });
    await dialog.getByRole("button", { name: "Save draft" }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId("admin-release").filter({ hasText: version });
    await expect(row.getByTestId("release-status")).toHaveText("Draft");
    await expect(row.getByTestId("release-rollout")).toHaveText(
      "Offered to 10% of machines · Critical · Minimum version 2.0.0",
    );
    await noSideways(page);
    await page.goto("/release-notes");
    await expect(page.getByText(`Version ${version}`)).toHaveCount(0);

    await page.goto("/admin/releases");
    await row.getByRole("button", { name: `Publish ${version}` }).click();
    await expect(row.getByTestId("release-status")).toHaveText("Published");
    await page.goto("/release-notes");
    await expect(page.getByText(`Version ${version}`)).toBeVisible();

    await page.goto("/admin/releases");
    await row.getByRole("button", { name: `Unpublish ${version}` }).click();
    await expect(row.getByTestId("release-status")).toHaveText("Draft");
  });
});
