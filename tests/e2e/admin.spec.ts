import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { expect, test, DEMO_ADMIN, DEMO_USER, logOut, openMenu, registerAndConfirm, uniqueEmail } from "./support";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
/** The admin area's own navigation, on every page under /admin. */
const adminNav = (page: Page) => page.getByRole("navigation", { name: "Administration" });

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("administration", () => {
  test("signed-out visitors and ordinary users who visit /admin land on /", async ({ page, signIn }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL("/");
    await signIn(DEMO_USER);
    await openMenu(page);
    await expect(page.getByRole("link", { name: "Manage" })).toHaveCount(0);
    await page.goto("/admin");
    await expect(page).toHaveURL("/");
    await page.goto("/admin/users/00000000-0000-4000-8000-000000000000");
    await expect(page).toHaveURL("/");
    expect((await page.request.get("/admin/audit.csv")).status()).toBe(403);
  });

  test("an admin opens a user's page from the list, adds a tester license, resets its offline data and revokes it", async ({
    page,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    const name = `Tess Tester ${info.project.name} ${Date.now().toString(36)}`;
    const email = uniqueEmail("admin-target", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", name);
    await logOut(page);
    await signIn(DEMO_ADMIN);
    await openMenu(page);
    await page.getByRole("link", { name: "Manage" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(adminNav(page).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

    // Users: the list without a term, newest first; then a search.
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await expect(page).toHaveURL("/admin/users");
    await expect(page.getByText("All users, newest first")).toBeVisible();
    await expect(page.getByTestId("admin-user-result").first()).toContainText(name);
    await page.getByLabel("Search users").fill(name.toUpperCase());
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("admin-user-result")).toHaveCount(1);
    await page.reload();
    await expect(page.getByLabel("Search users")).toHaveValue(name.toUpperCase());
    await page.getByRole("link", { name: `Open ${name}` }).click();
    await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    const userUrl = page.url();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const panel = page.getByTestId("admin-user");
    await expect(panel).toContainText(email);
    await expect(panel).toContainText("E-mail confirmed");
    await expect(page.getByTestId("last-sign-in")).not.toHaveText("Never");
    // The licenses section and the machines section both say so.
    await expect(page.getByText("This user has no licenses.")).toHaveCount(2);
    await expectAccessible(page);

    // Tester days: 1 to 365, anything else refused with a message.
    await expect(page.getByLabel("Tester license days")).toHaveValue("30");
    await page.getByLabel("Tester license days").fill("99999");
    await page.getByRole("button", { name: "Add tester license" }).click();
    await expect(page.getByLabel("Tester license days")).toHaveAccessibleDescription(
      "Tester license days must be a whole number from 1 to 365.",
    );
    await expect(page.getByTestId("admin-license")).toHaveCount(0);
    await page.getByLabel("Tester license days").fill("30");
    await page.getByRole("button", { name: "Add tester license" }).click();
    await expect(toast(page, "Tester license added")).toContainText("30 days");
    const license = page.getByTestId("admin-license");
    await expect(license).toHaveCount(1);
    await expect(license).toContainText(/Tester license FK-[0-9A-Z]{4}-[0-9A-Z]{4}/);

    // The customer's tool binds it to the wrong computer; support resets it.
    const key = (await license.locator("code").innerText()).trim();
    const activated = await page.request.post("/api/v1/licenses/activate", {
      data: { key, nonce: `n${Date.now()}abcdefgh`, windows_username: "CORP\\tess", computer_name: "WRONG-PC" },
    });
    expect(activated.status()).toBe(200);
    await page.reload();
    await expect(license).toContainText("CORP\\tess on WRONG-PC");
    await license.getByRole("button", { name: "Reset offline data" }).click();
    const reset = page.getByRole("alertdialog");
    await expect(reset).toContainText("WRONG-PC");
    await reset.getByRole("button", { name: "Reset offline data" }).click();
    await expect(toast(page, "Offline data reset")).toBeVisible();
    await expect(license).toContainText("not set");
    await expect(license.getByRole("button", { name: "Reset offline data" })).toHaveCount(0);

    // The customer lost the e-mail with the key: support sends it again.
    await license.getByRole("button", { name: "Resend license e-mail" }).click();
    await expect(toast(page, "License e-mail queued")).toContainText(email);

    // Revoke: a reason is required; the confirmation is destructive-styled.
    await license.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("alertdialog");
    const confirm = dialog.getByRole("button", { name: "Revoke license" });
    await expect(confirm).toHaveAttribute("class", /bg-destructive/);
    await confirm.click();
    await expect(dialog).toBeVisible();
    await expect(license).toHaveAttribute("data-license-status", "active");
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Shared the key publicly");
    await confirm.click();
    await expect(toast(page, "License revoked")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(license).toHaveAttribute("data-license-status", "revoked");
    await expect(license.getByRole("button", { name: "Revoke" })).toHaveCount(0);
    await expect(license.getByRole("button", { name: "Resend license e-mail" })).toHaveCount(0);
    const entries = page.getByTestId("audit-entry");
    await expect(entries.first()).toContainText("Revoked a license");
    await expect(entries.first()).toContainText("reason: Shared the key publicly");
    await expect(entries.filter({ hasText: "Reset offline data" })).toContainText("computer WRONG-PC");

    // The audit log, filtered to this user, links back to their page.
    await page.getByRole("link", { name: "Open in the audit log" }).click();
    await expect(page).toHaveURL(/\/admin\/audit\?target=/);
    // Added, bound by the tool, reset, resent, revoked.
    await expect(page.getByTestId("audit-entry")).toHaveCount(5);
    await page
      .getByTestId("audit-entry")
      .first()
      .getByRole("link", { name: /^license FK-/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`${userUrl.replace(/[/.]/g, "\\$&")}#license-`));
  });

  test("the overview shows figures, charts with tables, the nav marks the page shown, and old tab addresses move", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(60_000);
    await signIn(DEMO_ADMIN, "/admin");
    const overview = page.getByTestId("admin-overview");
    await expect(overview.getByTestId("overview-stat")).toHaveCount(7);
    // Disputes are counted beside the money (the seeded charged-back customer's within the window).
    await expect(overview.getByTestId("overview-stat").filter({ hasText: "Chargebacks, last" })).toBeVisible();
    await expect(overview).toContainText("Monthly recurring revenue");
    await expect(overview.getByTestId("overview-stat").filter({ hasText: "Monthly recurring revenue" })).toContainText(
      /\$[\d,]+\.\d{2}/,
    );
    // Each chart is an image with a text summary, drawn once the chart library has loaded.
    const charts = overview.getByTestId("overview-chart");
    await expect(charts).toHaveCount(2);
    await expect(charts.first()).toHaveAttribute("aria-label", /Bar chart of active licenses by type: Monthly \d+/);
    await expect(overview.locator(".recharts-wrapper")).toHaveCount(2);
    await expect(overview.getByRole("table", { name: "Active licenses by type" })).toBeVisible();
    await overview.getByText("Show the figures per day").click();
    await expect(overview.getByRole("table", { name: /per day/ }).getByRole("row")).toHaveCount(91);
    // The last six months: MRR movement and cancellations by reason, a row a month (and the head).
    const months = page.getByTestId("admin-months-overview");
    await expect(months.getByRole("heading", { name: "The last 6 months" })).toBeVisible();
    await expect(months.getByRole("table", { name: /MRR movement per month/ }).getByRole("row")).toHaveCount(7);
    await expect(months.getByRole("table", { name: /Renewals cancelled per month/ })).toContainText("Offers taken");
    await expectAccessible(page);
    await adminNav(page).getByRole("link", { name: "Audit log" }).click();
    await expect(page).toHaveURL("/admin/audit");
    await page.reload();
    await expect(adminNav(page).getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    // An address of the old tabbed page (a bookmark, an e-mail) opens that page, its filters kept.
    await page.goto("/admin?tab=users&q=nobody-here&page=1");
    await expect(page).toHaveURL("/admin/users?q=nobody-here&page=1");
    await expect(page.getByLabel("Search users")).toHaveValue("nobody-here");
    await expect(adminNav(page).getByRole("link", { name: "Users" })).toHaveAttribute("aria-current", "page");
  });

  test("the audit log filters by action and dates in the URL, pages, and exports CSV", async ({ page, signIn }) => {
    test.setTimeout(60_000);
    await signIn(DEMO_ADMIN);
    // Something to find: a one-day tester license for the admin's own account (the demo user's
    // seeded licenses are what other browser tests read, so they stay as seeded).
    await page.goto(`/admin/users?q=${encodeURIComponent(DEMO_ADMIN.email)}`);
    await page.getByTestId("admin-user-result").getByRole("link").click();
    await page.getByLabel("Tester license days").fill("1");
    await page.getByRole("button", { name: "Add tester license" }).click();
    await expect(toast(page, "Tester license added")).toBeVisible();
    await page.goto("/admin/audit");
    await expect(page.getByTestId("audit-entry").first()).toBeVisible();
    await page.getByLabel("Action").selectOption({ label: "Added a tester license" });
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel("To (UTC)").fill(today);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`action=license.add_tester.*to=${today}`));
    await expect(page.getByTestId("audit-entry").first()).toContainText("Added a tester license");
    await page.reload();
    await expect(page.getByLabel("Action")).toHaveValue("license.add_tester");
    for (const row of await page.getByTestId("audit-entry").all()) {
      await expect(row).toContainText("Added a tester license");
    }
    await expectAccessible(page);
    const exportLink = page.getByRole("link", { name: "Export CSV" });
    await expect(exportLink).toHaveAttribute("href", `/admin/audit.csv?action=license.add_tester&to=${today}`);
    const file = await page.request.get((await exportLink.getAttribute("href"))!);
    expect(file.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = (await file.text()).trim().split("\r\n");
    expect(lines[0]).toContain('"time_utc","actor_email"');
    expect(lines.slice(1).every((line) => line.includes('"license.add_tester"'))).toBe(true);

    await page.getByLabel("From (UTC)").fill("2026-12-31");
    await page.getByLabel("To (UTC)").fill("2026-01-01");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("The start date must not be after the end date.")).toBeVisible();
  });

  test("an admin adds and publishes, edits and deletes a release and sees it on /download", async ({
    page,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    const version = `9.${info.project.name === "desktop" ? 1 : 2}.${Date.now() % 1000}`;
    await signIn(DEMO_ADMIN, "/admin");
    await adminNav(page).getByRole("link", { name: "Releases" }).click();
    await page.getByRole("button", { name: "Add release" }).click();
    const form = page.getByRole("dialog", { name: "Add release" });
    await form.getByRole("button", { name: "Save and publish" }).click();
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
    await form.getByRole("button", { name: "Save and publish" }).click();
    await expect(toast(page, "Release published")).toBeVisible();
    await expect(form).toBeHidden();
    await expect(page.getByTestId("admin-release").first()).toContainText(version);

    await page.goto("/download");
    await expect(page.getByText(`Version ${version}`).first()).toBeVisible();
    await expect(page.getByText("Second change")).toBeVisible();

    await page.goto("/admin/releases");
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

    await page.goto("/admin/releases");
    await page.getByRole("button", { name: `Delete ${version}` }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete this release?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Release deleted")).toBeVisible();
    await expect(page.getByRole("button", { name: `Edit ${version}` })).toHaveCount(0);
    await page.goto("/download");
    await expect(page.getByText(`Version ${version}`)).toHaveCount(0);
  });
});
