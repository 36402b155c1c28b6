import { expect, test, registerAndConfirm, uniqueEmail } from "./support";

test.describe("the license e-mail after a purchase", () => {
  test("buy with the demo checkout → the license e-mail in the dev mailbox has the key, the short id and a link to the licenses page", async ({
    page,
    baseURL,
  }, info) => {
    // Registering, paying and waiting for the background job take a while on a busy machine.
    test.setTimeout(90_000);
    const email = uniqueEmail("mailed", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", "Mia Mailed");
    await page.goto("/pricing");
    await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_/);
    await page.goto("/licenses");
    const key = (await page.getByTestId("license-card").getByTestId("license-key").innerText()).trim();

    // The e-mail leaves through a background job: the mailbox shows it within a few seconds.
    const mail = page
      .getByTestId("dev-mail")
      .filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) })
      .filter({ hasText: "Your free trial has started" });
    await expect(async () => {
      await page.goto("/dev/mailbox");
      await expect(mail).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    const subject = (await mail.locator("[data-slot=card-title]").innerText()).trim();
    expect(subject).toMatch(/^Your ForgeKit license FK-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const shortId = subject.slice(-12);
    const body = await mail.locator("pre").innerText();
    expect(body).toContain("Hello Mia Mailed,");
    expect(body).toContain(`License ${shortId}`);
    expect(body).toContain("Plan: Monthly (7-day free trial)");
    // A trial's e-mail says when the first charge comes, how much, and how to cancel before it.
    expect(body).toContain("Charged today: Nothing");
    expect(body).toMatch(/First charge: \$9\.00 on [A-Z][a-z]{2} \d{1,2}, \d{4}, unless you cancel before/);
    expect(body).toMatch(/choose "Cancel trial" before [A-Z][a-z]{2} \d{1,2}, \d{4}: nothing is charged/);
    expect(body).toContain(key);
    expect(body).toContain(`${baseURL}/billing`);
    expect(body).not.toMatch(/password/i);

    // Its link opens the licenses page.
    await mail
      .getByRole("link", { name: `${baseURL}/licenses` })
      .first()
      .click();
    await expect(page).toHaveURL("/licenses");
    await expect(page.getByTestId("license-card")).toHaveCount(1);
    if (info.project.name === "desktop") {
      await page.goto("/dev/mailbox");
      await mail.scrollIntoViewIfNeeded();
      await mail.screenshot({ path: info.outputPath("license-email.png") });
    }
  });
});

test.describe("reminder e-mails on the profile", () => {
  test("a customer turns reminder e-mails off and on again", async ({ page }, info) => {
    test.setTimeout(60_000);
    const email = uniqueEmail("reminders", info.project.name);
    await registerAndConfirm(page, email);
    await page.goto("/profile");
    const form = page.getByTestId("reminder-emails-form");
    const box = form.getByRole("checkbox", { name: "Send me reminders before I am charged" });
    await expect(page.getByText("E-mail reminders", { exact: true })).toBeVisible();
    await expect(box).toBeChecked();
    await page.screenshot({ path: info.outputPath(`profile-${info.project.name}.png`), fullPage: true });

    await box.uncheck();
    await form.getByRole("button", { name: "Save e-mail preferences" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Reminder e-mails are off" })).toBeVisible();
    await expect(page).toHaveURL("/profile");
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Send me reminders before I am charged" })).not.toBeChecked();

    await page.getByRole("checkbox", { name: "Send me reminders before I am charged" }).check();
    await page.getByRole("button", { name: "Save e-mail preferences" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Reminder e-mails are on" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Send me reminders before I am charged" })).toBeChecked();
  });
});
