import { type Page } from "@playwright/test";
import { expect, test, DEMO_ADMIN, DEMO_USER, logOut, openMenu, registerAndConfirm, uniqueEmail } from "./support";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test.describe("administration", () => {
  test("signed-out visitors and ordinary users who visit /admin land on /", async ({ page, signIn }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL("/");
    await signIn(DEMO_USER);
    await openMenu(page);
    await expect(page.getByRole("link", { name: "Manage" })).toHaveCount(0);
    await page.goto("/admin");
    await expect(page).toHaveURL("/");
  });

  test("an admin searches, opens a user, adds a 30-day tester license and revokes it", async ({
    page,
    signIn,
  }, info) => {
    const name = `Tess Tester ${info.project.name} ${Date.now().toString(36)}`;
    const email = uniqueEmail("admin-target", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", name);
    await logOut(page);
    await signIn(DEMO_ADMIN);
    await openMenu(page);
    await page.getByRole("link", { name: "Manage" }).click();
    await expect(page).toHaveURL("/admin");

    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Enter a name or e-mail address to search.")).toBeVisible();
    await page.getByLabel("Search users").fill(name.toUpperCase());
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("admin-user-result")).toHaveCount(1);
    await page.getByRole("link", { name: `View licenses of ${name}` }).click();
    const panel = page.getByTestId("admin-user");
    await expect(panel).toContainText(email);
    await expect(panel).toContainText("This user has no licenses.");

    await expect(panel.getByLabel("Tester license days")).toHaveValue("30");
    await panel.getByRole("button", { name: "Add tester license" }).click();
    await expect(toast(page, "Tester license added")).toContainText("30 days");
    const license = panel.getByTestId("admin-license");
    await expect(license).toHaveCount(1);
    await expect(license).toContainText("Tester license");
    await expect(license).toContainText(email);

    await license.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke license" }).click();
    await expect(toast(page, "License revoked")).toBeVisible();
    await expect(license).toHaveAttribute("data-license-status", "revoked");
    await expect(license.getByRole("button", { name: "Revoke" })).toHaveCount(0);

    await page.getByRole("tab", { name: "Audit log" }).click();
    await expect(page.getByTestId("audit-entry").first()).toContainText("Revoked a license");
  });

  test("an admin adds, edits and deletes a release and sees it on /download", async ({ page, signIn }, info) => {
    const version = `9.${info.project.name === "desktop" ? 1 : 2}.${Date.now() % 1000}`;
    await signIn(DEMO_ADMIN);
    await page.goto("/admin");
    await page.getByRole("tab", { name: "Releases" }).click();
    await page.getByRole("button", { name: "Add release" }).click();
    const form = page.getByRole("dialog", { name: "Add release" });
    await form.getByRole("button", { name: "Add release" }).click();
    await expect(form.getByText("Version is required")).toBeVisible();
    await expect(form.getByText("At least one release note is required")).toBeVisible();
    await form.getByLabel("Version").fill(version);
    await form.getByLabel("Title (optional)").fill("Shiny");
    await form.getByLabel("Release date").fill("2099-01-01");
    await form.getByLabel("Note 1", { exact: true }).fill("First change");
    await form.getByRole("button", { name: "Add note" }).click();
    await form.getByLabel("Note 2", { exact: true }).fill("Second change");
    await form.getByRole("button", { name: "Add note" }).click();
    await form.getByRole("button", { name: "Remove note 3" }).click();
    await expect(form.getByLabel("Note 3", { exact: true })).toHaveCount(0);
    await form.getByRole("button", { name: "Add release" }).click();
    await expect(toast(page, "Release added")).toBeVisible();
    await expect(form).toBeHidden();
    await expect(page.getByTestId("admin-release").first()).toContainText(version);

    await page.goto("/download");
    await expect(page.getByText(`Version ${version}`).first()).toBeVisible();
    await expect(page.getByText("Second change")).toBeVisible();

    await page.goto("/admin?tab=releases");
    await page.getByRole("button", { name: `Edit ${version}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit version ${version}` });
    await expect(edit.getByLabel("Note 2", { exact: true })).toHaveValue("Second change");
    await edit.getByRole("button", { name: "Remove note 2" }).click();
    await expect(edit.getByRole("button", { name: /Remove note/ })).toHaveCount(0);
    await edit.getByLabel("Title (optional)").fill("Shinier");
    await edit.getByRole("button", { name: "Save release" }).click();
    await expect(toast(page, "Release updated")).toBeVisible();
    await page.goto("/release-notes");
    await expect(page.getByText("Shinier")).toBeVisible();
    await expect(page.getByText("Second change")).toHaveCount(0);

    await page.goto("/admin?tab=releases");
    await page.getByRole("button", { name: `Delete ${version}` }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete this release?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Release deleted")).toBeVisible();
    await expect(page.getByRole("button", { name: `Edit ${version}` })).toHaveCount(0);
    await page.goto("/download");
    await expect(page.getByText(`Version ${version}`)).toHaveCount(0);
  });
});
