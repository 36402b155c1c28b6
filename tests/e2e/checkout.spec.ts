import { expect, test, registerAndConfirm, uniqueEmail } from "./support";
import { decodeLicenseKey } from "./support-keys";

const DAY = 86_400_000;

test.describe("buying a license through the demo checkout", () => {
  test("trial on pricing → checkout → success with the transaction id → the license and its key → no more trial", async ({
    page,
  }, info) => {
    const email = uniqueEmail("buyer", info.project.name);
    await registerAndConfirm(page, email);
    await page.goto("/pricing");
    const monthly = page.getByTestId("plan-monthly");
    await expect(monthly).toContainText("7-day free trial");

    // Closing the checkout is silent and changes nothing.
    await monthly.getByRole("button", { name: "Start 7-day free trial" }).click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("demo checkout");
    await expect(dialog).toContainText("takes no card data");
    await expect(dialog.getByTestId("demo-checkout-plan")).toHaveText("Monthly");
    await expect(dialog).toContainText("$9 per month");
    await expect(dialog).toContainText("7 days");
    await expect(dialog).toContainText(email);
    // The server created the checkout; the dialog says what happens next.
    await expect(dialog.getByTestId("demo-checkout-next")).toHaveText(
      /^Free for 7 days, then \$9 on .+ unless you cancel\.$/,
    );
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL("/pricing");
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    await page.goto("/licenses");
    await expect(page.getByRole("heading", { name: "No licenses yet" })).toBeVisible();

    await page.goto("/pricing");
    await page.getByTestId("plan-monthly").getByRole("button", { name: "Start 7-day free trial" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Start free trial" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=txn_demo_[0-9a-f]+$/);
    const transactionId = new URL(page.url()).searchParams.get("transactionId");
    await expect(page.getByTestId("transaction-id")).toHaveText(transactionId!);

    await page.getByRole("link", { name: "Go to Licenses" }).click();
    const card = page.getByTestId("license-card");
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Monthly license");
    await expect(card.getByTestId("license-status")).toHaveText(/^Active, trial until /);
    // A trial bills when it ends: it can be cancelled before that or started now (decisions 0013,
    // 0037), not refunded.
    await expect(card.getByTestId("trial-first-charge")).toHaveText(/^First charge on .+: \$9\.00$/);
    await expect(card.getByRole("button", { name: "Cancel trial" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Start paid plan now" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Cancel auto-renewal" })).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Request Refund" })).toHaveCount(0);
    const payload = decodeLicenseKey((await card.getByTestId("license-key").innerText()).trim());
    expect(payload.email).toBe(email);
    expect(new Date(payload.end_date).getTime() - new Date(payload.start_date).getTime()).toBe(7 * DAY);
    expect(Math.abs(new Date(payload.start_date).getTime() - Date.now())).toBeLessThan(5 * 60_000);

    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).not.toContainText("7-day free trial");
    await expect(page.getByTestId("plan-yearly").getByRole("button", { name: "Choose Yearly" })).toBeVisible();

    // A second purchase is paid at once, with the existing customers' price (no trial).
    await page.getByTestId("plan-yearly").getByRole("button", { name: "Choose Yearly" }).click();
    await expect(page.getByRole("dialog", { name: "Checkout" })).toContainText("Due today");
    await expect(page.getByTestId("demo-checkout-next")).toHaveText(
      /^\$90 today, then \$90 per year, next on .+, until you cancel\.$/,
    );
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Pay $90" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);
    await page.goto("/licenses");
    await expect(page.getByTestId("license-card")).toHaveCount(2);
    // Cards are ordered by their next date: the trial's end (days away) before the yearly renewal.
    const cards = page.getByTestId("license-card");
    await expect(cards.first()).toContainText("Monthly license");
    await expect(cards.nth(1)).toContainText("Yearly license");
    await expect(cards.nth(1).getByTestId("license-status")).toHaveText(/^Active, renews on /);
  });

  test("the webhook endpoint refuses an unsigned event", async ({ request }) => {
    const response = await request.post("/api/webhooks/paddle", {
      data: { event_id: "evt_1", event_type: "transaction.completed", occurred_at: new Date().toISOString(), data: {} },
      headers: { "Paddle-Signature": `ts=${Math.floor(Date.now() / 1000)};h1=${"0".repeat(64)}` },
    });
    expect(response.status()).toBe(401);
    expect((await request.get("/api/webhooks/paddle")).status()).toBe(405);
  });
});
