import AxeBuilder from "@axe-core/playwright";
import { DEMO_ADMIN, expect, logIn, logOut, registerAndConfirm, test, uniqueEmail, waitForHydration } from "./support";

/**
 * Decision 0036: a customer buys a monthly license in the demo checkout, extends it by a month, asks for
 * a refund, reads the confirmation listing both charges, sees both refunded in /billing and reads
 * the refund e-mail in the demo mailbox. Screenshots of the dialog and the billing history go to
 * test-results/ at the project's width (1280 or 390).
 */
test(
  "buy, extend, refund: the confirmation, the billing history and the e-mail list both charges",
  { tag: "@phone" },
  async ({ page }, info) => {
    test.setTimeout(90_000);
    const email = uniqueEmail("refund-ext", info.project.name);
    await registerAndConfirm(page, email);
    // A first-time buyer's first plan is the trial; the second is paid at once.
    for (const [button, pay] of [
      ["Start 7-day free trial", "Start free trial"],
      ["Choose Monthly", "Pay $9"],
    ] as const) {
      await page.goto("/pricing");
      await page.getByTestId("plan-monthly").getByRole("button", { name: button }).click();
      await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
      await expect(page).toHaveURL(/\/success\?transactionId=/);
    }
    await page.goto("/licenses");
    const card = page.locator("[data-testid=license-card][data-status=active]").filter({ hasText: "Monthly license" });
    await expect(card).toHaveCount(1);
    // A trial's section says what happens when it ends: no refund button and no second note about it.
    const trial = page.locator("[data-status=trial-active]");
    await expect(trial.getByTestId("trial-conversion")).toBeVisible();
    await expect(trial.getByTestId("refund-note")).toHaveCount(0);
    await expect(trial.getByRole("button", { name: "Request refund" })).toHaveCount(0);

    await card.getByRole("link", { name: "Extend" }).click();
    await page.getByRole("button", { name: "More additional months" }).click();
    await expect(page.getByTestId("extension-total")).toHaveText("$9");
    await page.getByRole("button", { name: /Pay/ }).click();
    await expect(page).toHaveURL("/licenses", { timeout: 15_000 });
    await waitForHydration(page);

    await card.getByRole("button", { name: "Request Refund" }).click();
    const dialog = page.getByTestId("refund-dialog");
    await expect(dialog.getByRole("heading", { name: "Request a refund of $17.10?" })).toBeVisible();
    const charges = dialog.getByTestId("refund-charges").getByRole("listitem");
    await expect(charges).toHaveCount(3);
    await expect(charges.nth(0)).toContainText("Monthly license");
    await expect(charges.nth(0)).toContainText("Refund $8.55");
    await expect(charges.nth(1)).toContainText("Extension of a Monthly license");
    await expect(charges.nth(1)).toContainText("Refund $8.55");
    await expect(dialog.getByTestId("refund-total")).toHaveText("$17.10");
    await expect(charges.nth(2)).toContainText("of $18.00 paid");
    expect((await new AxeBuilder({ page }).include("[data-testid=refund-dialog]").analyze()).violations).toEqual([]);
    await page.screenshot({ path: info.outputPath(`refund-dialog-${info.project.name}.png`) });
    await page.screenshot({ path: `test-results/refund-dialog-${info.project.name}.png` });
    await dialog.getByRole("button", { name: "Request refund" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Refund Requested" })).toContainText("$17.10");

    // The demo approves a refund 10 seconds after it was requested: each charge then reads refunded.
    await expect(async () => {
      await page.goto("/billing");
      const refunded = page.getByTestId("billing-entry").filter({ hasText: "Refunded $8.55 (95%)" });
      await expect(refunded).toHaveCount(2, { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByText("Partially refunded")).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: `test-results/refund-billing-${info.project.name}.png`, fullPage: true });

    // The e-mail goes out from the job queue after the approval: reload the mailbox until it is there.
    const mail = page
      .getByTestId("dev-mail")
      .filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) })
      .filter({ hasText: "refund was processed" })
      .first();
    await expect(async () => {
      await page.goto("/dev/mailbox");
      await expect(mail).toContainText("refund of $17.10", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(mail).toContainText("paid $9.00, refunded $8.55");
    await expect(mail).toContainText("Extension of a Monthly license");
  },
);

/** Support refunds a customer's payment from the user's admin page, naming the amount. */
test(
  "support refunds the full amount of a payment with a reason, after a confirmation naming it",
  { tag: "@phone" },
  async ({ page }, info) => {
    test.setTimeout(90_000);
    const name = `Refund Customer ${info.project.name} ${Date.now().toString(36)}`;
    const email = uniqueEmail("staff-refund", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", name);
    for (const [button, pay] of [
      ["Start 7-day free trial", "Start free trial"],
      ["Choose Monthly", "Pay $9"],
    ] as const) {
      await page.goto("/pricing");
      await page.getByTestId("plan-monthly").getByRole("button", { name: button }).click();
      await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
      await expect(page).toHaveURL(/\/success\?transactionId=/);
    }
    await logOut(page);
    await logIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.goto("/admin/users");
    await page.getByLabel("Search users").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: `Open ${name}` }).click();
    await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    await waitForHydration(page);

    const refunds = page.getByTestId("admin-refunds");
    // Only the paid payment is offered (the trial's $0 is not).
    await expect(refunds.getByRole("button", { name: "Refund…" })).toHaveCount(1);
    await refunds.getByRole("button", { name: "Refund…" }).click();
    const dialog = page.getByTestId("admin-refund-dialog");
    await dialog.getByLabel(/Full amount/).check();
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Charged by mistake, customer wrote on day 20");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByRole("heading", { name: "Refund $9.00 to the customer?" })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: `test-results/admin-refund-dialog-${info.project.name}.png` });
    await dialog.getByRole("button", { name: "Refund $9.00" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Refund requested" })).toContainText("$9.00");
    await expect(refunds).toContainText("No payment that can be refunded.");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  },
);
