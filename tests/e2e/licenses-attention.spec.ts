import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { expect, openLicense, test, DEMO_USER } from "./support";
import { expectNoHorizontalScroll } from "./layout";

// The licenses page says what needs the customer first (decision 0040): the seeded demo user's renewal is
// declined (as `npm run demo:renew -- --fail` does), its license comes first with a summary linking
// to it, and paying through "Update payment method" puts the seeded data back as it was.

function demoSecret(): string {
  const file = path.join(process.env.E2E_DATA_DIR!, "secrets.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>).DEMO_WEBHOOK_SECRET!;
}

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("licenses: what needs you first", () => {
  test(
    "the seeded user's failed payment comes first, the summary links to it, and paying clears it",
    { tag: "@phone" },
    async ({ page, signIn }) => {
      test.setTimeout(60_000);
      const declined = await page.request.post("/api/demo/renew", {
        data: { subscriptionId: "sub_demo_seed_renewing", fail: true },
        headers: { Authorization: `Bearer ${demoSecret()}` },
      });
      expect(declined.status()).toBe(200);
      expect((await declined.json()).outcomes[0].outcome).toBe("payment-failed");

      await signIn(DEMO_USER, "/licenses");
      const summary = page.getByTestId("attention-summary");
      // The refund in progress asks nothing of the customer: not an attention item (decision 0057).
      await expect(summary.getByRole("heading")).toHaveText("Needs your attention (1)");
      const items = summary.getByRole("listitem");
      await expect(items.first()).toHaveAttribute("data-attention", "payment-failed");
      await expect(items.first()).toContainText(
        /Monthly license FK-[0-9A-Z]{4}-[0-9A-Z]{4}: Payment failed: update the/,
      );
      await expect(items).toHaveCount(1);

      // First in the list, open, with its badge; the rows that need nothing are closed.
      const rows = page.getByTestId("active-licenses").getByTestId("license-card");
      const first = rows.first();
      await expect(first).toHaveAttribute("open", "");
      await expect(first.getByTestId("license-badge")).toHaveText("Payment failed");
      await expect(rows.filter({ hasText: "Tester license" })).not.toHaveAttribute("open");
      await expect(rows.filter({ hasText: "Tester license" }).getByTestId("license-next")).toHaveText(/^Ends /);
      await expect(page.locator("[data-status=trial-active]").getByTestId("license-badge")).toHaveText("Trial");

      // The summary's link goes to the row.
      const shortId = (await first.getByTestId("license-short-id").innerText()).trim();
      await items
        .first()
        .getByRole("link", { name: `Monthly license ${shortId}` })
        .click();
      await expect(page).toHaveURL(/\/licenses#license-[0-9a-f-]{36}$/);
      await expect(first).toBeInViewport();

      // Paddle refuses every change to a past-due subscription: the card offers none, and says what the
      // customer can do instead and what happens at the grace end (decision 0056).
      await expect(first.getByRole("button", { name: /auto-renewal|Cancel renewal|Change plan/i })).toHaveCount(0);
      await expect(first).toContainText("While the payment is overdue, automatic renewal and seats cannot be changed.");
      await expect(first).toContainText(/if none goes through by \w{3} \d{1,2}, \d{4}, the license stops working/);
      // Destructive actions sit apart, after Extend and the key; never the first button of the row.
      const buttons = first.locator("button:visible, a[data-slot=button]:visible");
      await expect(buttons.first()).not.toHaveText(/Refund|Cancel/);
      await expect(first.getByTestId("license-danger").getByRole("button", { name: "Request Refund" })).toBeVisible();
      await expectAccessible(page);
      await expectNoHorizontalScroll(page);

      // Paying through the demo overlay renews it: the summary and the notice go.
      await first.getByRole("button", { name: "Update payment method" }).click();
      await page
        .getByRole("dialog", { name: "Update payment method" })
        .getByRole("button", { name: /Save and pay/ })
        .click();
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Payment method updated" })).toBeVisible();
      // Nothing else asks anything of the customer: the box goes with its only item.
      await expect(summary).toHaveCount(0);
      const renewed = page.locator(`[data-short-id="${shortId}"]`);
      await expect(renewed.getByTestId("license-badge")).toHaveText("Active");
      await expect(renewed.getByTestId("license-next")).toHaveText(/^Renews \w{3} \d{1,2}, \d{4} · \$9\.00$/);
    },
  );

  test(
    "on a phone the key has Copy, Share where the browser has it, and the license file beside it",
    { tag: "@phone" },
    async ({ page, signIn }) => {
      await page.addInitScript(() => {
        // A phone's share sheet: records what it was given.
        Object.defineProperty(navigator, "share", {
          value: async (data: ShareData) => void ((window as unknown as { shared: ShareData }).shared = data),
        });
      });
      await signIn(DEMO_USER, "/licenses");
      const tester = page.getByTestId("license-card").filter({ hasText: "Tester license" });
      await openLicense(tester);
      const key = (await tester.getByTestId("license-key").innerText()).trim();
      await expect(tester.getByRole("button", { name: "Copy license key" })).toBeVisible();
      await expect(tester.getByRole("link", { name: "Download license file" })).toBeVisible();
      await tester.getByRole("button", { name: "Share license key" }).click();
      expect(await page.evaluate(() => (window as unknown as { shared: ShareData }).shared)).toEqual({
        title: "License key",
        text: key,
      });
    },
  );
});
