import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  DEMO_ADMIN,
  DEMO_USER,
  buyerWithPaidLicense,
  expect,
  registerAndConfirm,
  settledToasts,
  test,
  uniqueEmail,
} from "./support";
import { expectNoHorizontalScroll } from "./layout";
import { expectMail, toast, turnOnTwoFactor } from "./two-factor-steps";

/**
 * A support session (decision 0038): tickets resolved from the admin's search box on the customer's
 * page — refund on day 20, cancel a renewal, fix a mistyped address, explain a failed payment,
 * reset a lost two-factor — and a seeded customer's timeline. Each ticket's customer is made for it (or seeded, read only).
 */

async function openCustomer(page: Page, term: string, name: RegExp | string) {
  await page.goto("/admin/users");
  await page.getByLabel("Search users").fill(term);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("admin-user-result").first()).toBeVisible();
  await page
    .getByRole("link", { name: typeof name === "string" ? `Open ${name}` : name })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}/);
}

async function asAdmin(page: Page, signIn: (account: typeof DEMO_ADMIN) => Promise<void>) {
  await page.context().clearCookies();
  await signIn(DEMO_ADMIN);
}

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("support desk", () => {
  test("refund me, it is day 20: support refunds the policy amount outside the window, with a reason", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    // Seeded (app/server/seed-support.server.ts): two monthly licenses bought 20 days ago, window closed.
    const email = "rae.refund@forgekit.example";
    await signIn(DEMO_ADMIN);
    await openCustomer(page, email, "Rae Refund");
    // Each screen width's run refunds one of the two: the first payment still offered.
    const row = page.getByTestId("admin-refunds").getByRole("listitem").first();
    await expect(row).toContainText("$9.00");
    const transactionId = (await row.locator(".font-mono").last().innerText()).trim();
    const shortId = (await row.locator(".font-mono").first().innerText()).trim();
    const license = page.getByTestId("admin-license").filter({ hasText: shortId });
    await expect(license.getByTestId("support-refund-window")).toHaveText(/^Closed on /);
    const payment = page.getByTestId("admin-payment").filter({ hasText: transactionId });
    await expect(payment).toHaveAttribute("data-status", "paid");

    await row.getByRole("button", { name: "Refund…" }).click();
    const dialog = page.getByTestId("admin-refund-dialog");
    await expect(dialog).toContainText("Allowed outside the customer's refund window.");
    await expect(dialog.getByLabel("Policy amount (95%): $8.55")).toBeChecked();
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByRole("heading", { name: "Refund $8.55 to the customer?" })).toBeVisible();
    await dialog.getByRole("button", { name: "Refund $8.55" }).click();
    // No reason: refused, nothing refunded, the dialog stays open with the server's answer.
    await expect(dialog.getByRole("alert")).toHaveText("Enter the reason for this refund.");
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Ticket: day 20, the tool never ran on her machine");
    await dialog.getByRole("button", { name: "Refund $8.55" }).click();
    await expect(toast(page).filter({ hasText: "Refund requested" })).toContainText(
      "A refund of $8.55 was sent to the payment provider.",
    );
    await expect(
      page.getByTestId("admin-refunds").getByRole("listitem").filter({ hasText: transactionId }),
    ).toHaveCount(0);
    await expect(
      page.getByTestId("timeline-entry").filter({ hasText: "Refunded a payment" }).filter({ hasText: shortId }),
    ).toContainText("reason: Ticket: day 20, the tool never ran on her machine");
    // The demo provider approves the adjustment after a few seconds: the payment reads refunded, 95%.
    // Approval arrives as the provider's event, which settles the payment and the license together;
    // under load it can take longer than one look, so each look reloads.
    await expect(async () => {
      await page.reload();
      await expect(payment).toHaveAttribute("data-status", "partially-refunded", { timeout: 1000 });
      await expect(license.getByTestId("license-badge")).toHaveText("Refunded", { timeout: 1000 });
    }).toPass({ timeout: 45_000 });
    await expect(payment).toContainText("Refunded $8.55 (95%)");
    await expectMail(page, email, "refund was processed");
  });

  test("cancel my renewal: cancelled through the provider with a reason, the customer sees it", async ({
    page,
    signIn,
  }, info) => {
    test.setTimeout(120_000);
    const { email } = await buyerWithPaidLicense(page, "renewal-ticket", info.project.name);
    await asAdmin(page, signIn);
    await openCustomer(page, email, "Test User");
    const yearly = page.getByTestId("admin-license").filter({ hasText: "Yearly license" });
    await expect(yearly.getByTestId("license-line")).toContainText("Active, renews on");
    await yearly.getByRole("button", { name: "Cancel renewal" }).click();
    const dialog = page.getByRole("alertdialog");
    // The reason is marked required before any attempt, and the way out says what it keeps.
    await expect(dialog.getByLabel(/^Reason \(kept in the audit log\)\s*required$/)).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Keep renewing" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel renewal" }).click();
    await expect(dialog.getByText("Enter the reason")).toBeVisible();
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Ticket: customer switches to yearly invoices");
    await dialog.getByRole("button", { name: "Cancel renewal" }).click();
    await expect(toast(page).filter({ hasText: "Renewal cancelled" })).toBeVisible();
    await expect(yearly.getByTestId("license-line")).toContainText("automatic renewal is cancelled");
    await expect(yearly.getByRole("button", { name: "Re-enable renewal" })).toBeVisible();
    await expect(
      page.getByTestId("timeline-entry").filter({ hasText: "Cancelled a renewal for the customer" }),
    ).toContainText("Ticket: customer switches to yearly invoices");
    await expectMail(page, email, "cancel");
  });

  test("I typed my e-mail wrong: the address is fixed, a taken one refused", async ({ page, signIn }, info) => {
    test.setTimeout(90_000);
    const typo = uniqueEmail("typo", info.project.name).replace("@example.com", "@exmaple.com");
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Tia Typo");
    await page.getByLabel("E-mail").fill(typo);
    await page.getByLabel("Password").fill("secret-pass-1");
    await page.getByRole("checkbox").click();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/confirm-email/);
    await asAdmin(page, signIn);
    await openCustomer(page, typo, "Tia Typo");
    await expect(page.getByTestId("email-confirmed")).toHaveText("No, never confirmed");
    await page.getByRole("button", { name: "Change e-mail address" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel("New e-mail address").fill(DEMO_USER.email);
    await dialog.getByLabel("Reason (kept in the audit log)").fill("Customer wrote from the right address");
    await dialog.getByRole("button", { name: "Change e-mail address" }).click();
    await expect(dialog.getByText("already in use by another account")).toBeVisible();
    const fixed = typo.replace("@exmaple.com", "@example.com");
    await dialog.getByLabel("New e-mail address").fill(fixed);
    await dialog.getByRole("button", { name: "Change e-mail address" }).click();
    await expect(toast(page).filter({ hasText: "E-mail address changed" })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("account-email")).toHaveText(fixed);
    await expect(
      page.getByTestId("timeline-entry").filter({ hasText: "Changed the customer's e-mail address" }),
    ).toBeVisible();
    await expectMail(page, fixed, "Confirm your ForgeKit account");
    await expectMail(page, typo, "your e-mail address is being changed");
  });

  test(
    "my payment failed: the past-due state with its grace end, the card and the failed charge",
    { tag: "@phone" },
    async ({ page, signIn }, info) => {
      await signIn(DEMO_ADMIN);
      // Found by the subscription id the customer's receipt shows; the result says the state.
      await page.goto("/admin/users");
      await page.getByLabel("Search users").fill("sub_demo_seed_support_past_due");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByTestId("admin-result-license")).toContainText("Payment failed");
      await page.getByRole("link", { name: "Open Pat Pastdue" }).click();
      const license = page.getByTestId("admin-license").first();
      await expect(license.getByTestId("license-badge")).toHaveText("Payment failed");
      await expect(license.getByTestId("license-line")).toContainText("Payment failed: active until");
      await expect(license.getByTestId("support-grace-period-ends")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      await expect(license.getByTestId("support-payment-method")).toHaveText("Visa •••• 4242");
      // The failed payment explained (decision 0057): the reason, the last day, what the customer does.
      const problem = license.getByRole("note", { name: "Failed payment" });
      await expect(problem).toContainText("Decline reason");
      await expect(problem).toContainText(/retries the charge automatically until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      await expect(problem).toContainText('"Update payment method" on the card of license FK-');
      // The provider refuses changes to a past-due subscription: support is offered none either.
      await expect(license.getByRole("button", { name: /renewal/i })).toHaveCount(0);
      // A customer who cannot find it gets the link by e-mail, from the explanation itself.
      await problem.getByRole("button", { name: "E-mail the update-payment link" }).click();
      await expect(toast(page).filter({ hasText: "Payment link e-mailed" })).toContainText(
        "pat.pastdue@forgekit.example",
      );
      // axe measures what is painted: a toast still fading in reads as faint text.
      await settledToasts(page);
      await expect(page.getByTestId("admin-payment").filter({ hasText: "Failed" })).toBeVisible();
      await expect(page.getByTestId("timeline-entry").filter({ hasText: "Renewal payment failed" })).toBeVisible();
      await expectAccessible(page);
      // The page fits the screen: no sideways scrolling (at 1280 and 390 px).
      await expectNoHorizontalScroll(page);
      await page.screenshot({ path: `test-results/support-user-page-${info.project.name}.png`, fullPage: true });
      // The audit log names the action in its filter, its longest label: the filter still fits a phone.
      await page.goto("/admin/audit");
      await expect(page.getByLabel("Action")).toContainText(
        "E-mailed the customer the link to update their payment method",
      );
      await expectNoHorizontalScroll(page);
    },
  );

  test("I lost my phone: two-factor reset after identity checks, the customer e-mailed", async ({
    page,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    const email = uniqueEmail("lost-phone", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", "Lou Lost");
    await turnOnTwoFactor(page, "secret-pass-1");
    await asAdmin(page, signIn);
    await openCustomer(page, email, "Lou Lost");
    await expect(page.getByTestId("two-factor-state")).toHaveText("On");
    await page.getByRole("button", { name: "Reset two-factor" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Reset two-factor" }).click();
    await expect(dialog.getByText("Enter the reason")).toBeVisible();
    await dialog
      .getByLabel("Reason (kept in the audit log)")
      .fill("Identity checked: invoice number and last 4 of the card");
    await dialog.getByRole("button", { name: "Reset two-factor" }).click();
    await expect(toast(page).filter({ hasText: "Two-factor authentication reset" })).toBeVisible();
    await expect(page.getByTestId("two-factor-state")).toHaveText("Off");
    await expect(
      page.getByTestId("timeline-entry").filter({ hasText: "Reset two-factor authentication" }),
    ).toContainText("Identity checked");
    await expectMail(page, email, "two-factor authentication was reset");
  });

  test("the timeline of a seeded customer: purchases, refunds, sign-ins, newest first", async ({ page, signIn }) => {
    test.setTimeout(60_000);
    // The customer signs in (a sign-in the timeline records), then support looks.
    await signIn(DEMO_USER);
    await asAdmin(page, signIn);
    await openCustomer(page, "Dana Developer", "Dana Developer");
    // Twenty entries a page: after a whole browser run the seeded entries sit pages down, behind sign-ins.
    const base = page.url().replace(/\?.*$/, "");
    const onSomePage = async (title: string) => {
      for (let n = 1; n <= 40; n++) {
        await page.goto(`${base}?timeline=${n}`);
        const entries = page.getByTestId("timeline-entry");
        if ((await entries.filter({ hasText: title }).count()) > 0) return true;
        if ((await entries.count()) === 0) return false;
      }
      return false;
    };
    for (const title of ["Signed in", "Refund requested", "Refund paid out", "Bought a license"])
      expect(await onSomePage(title), title).toBe(true);
    await page.goto(base);
    const entries = page.getByTestId("timeline-entry");
    await expect(entries.first()).toBeVisible();
    const times = await entries.locator("time").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime")!));
    expect([...times].sort().reverse()).toEqual(times);
  });
});
