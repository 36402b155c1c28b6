import { expect, test } from "./support";

test.describe("download and release notes", () => {
  test("the download page: latest version, direct zip and store links, the three newest releases", async ({ page }) => {
    await page.goto("/download");
    await expect(page).toHaveTitle(/Download/);
    await expect(page.getByRole("heading", { name: /Latest version 2\.4\.0/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download for Windows (.zip)" })).toHaveAttribute(
      "href",
      "/downloads/forgekit-latest.zip",
    );
    await expect(page.getByRole("link", { name: "Get it from the Microsoft Store" })).toHaveAttribute(
      "href",
      /apps\.microsoft\.com/,
    );
    const versions = page.locator("article h3 .font-mono");
    await expect(versions).toHaveText(["Version 2.4.0", "Version 2.3.2", "Version 2.3.0"]);
    await expect(page.getByText("Batch generation").first()).toBeVisible();
    await page.getByRole("link", { name: "View all release notes" }).click();
    await expect(page).toHaveURL("/release-notes");
    await expect(page.locator("article h2 .font-mono")).toHaveText([
      "Version 2.4.0",
      "Version 2.3.2",
      "Version 2.3.0",
      "Version 2.2.0",
      "Version 2.1.0",
      "Version 2.0.0",
    ]);
  });

  test("the Atom feed lists every release", async ({ request }) => {
    const response = await request.get("/release-notes.atom");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/atom+xml");
    const xml = await response.text();
    expect(xml.match(/<entry>/g)).toHaveLength(6);
    expect(xml).toContain("Version 2.4.0 — Batch generation");
  });
});
