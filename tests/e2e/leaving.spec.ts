import { buyerWithPaidLicense, expect, openLicense, test } from "./support";
import { expectNoHorizontalScroll } from "./layout";

// Leaving (decision 0065): the cancel step asks why and makes the license's one offer. This site has
// no discount configured, so a yearly license is offered the 6-month period.

test.describe("cancelling renewal with a reason and an offer", () => {
  test(
    "the offer taken: the renewal stays on and switches to 6 Months at the renewal",
    { tag: "@phone" },
    async ({ page }, info) => {
      const { card } = await buyerWithPaidLicense(page, "leave-take", info.project.name);
      await openLicense(card);
      await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByLabel(/Why are you cancelling/).selectOption({ label: "It costs too much" });
      await dialog.getByLabel(/Anything else we should know/).fill("Yearly is a lot at once.");
      await expect(dialog.getByTestId("retention-offer")).toContainText("Stay on a shorter period: 6 Months");
      await expectNoHorizontalScroll(page);
      await page.screenshot({ path: `test-results/leaving-offer-${info.project.name}.png` });
      await dialog.getByRole("button", { name: "Switch to 6 Months and keep renewing" }).click();
      await expect(
        page.locator("[data-sonner-toast]").filter({ hasText: "Renewal kept, switching to 6 Months" }),
      ).toBeVisible();
      await expect(card).toContainText(/Switching to 6 Months at the next renewal on/);
      // Made once: the cancel step of the same license now asks only why.
      await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
      await expect(page.getByRole("alertdialog").getByTestId("retention-offer")).toHaveCount(0);
    },
  );

  test("the offer declined: the renewal is cancelled as before", async ({ page }, info) => {
    const { card } = await buyerWithPaidLicense(page, "leave-decline", info.project.name);
    await openLicense(card);
    await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByTestId("retention-offer")).toBeVisible();
    await dialog.getByLabel(/Why are you cancelling/).selectOption({ label: "I don't use it enough" });
    await dialog.getByRole("button", { name: "Cancel renewal" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "cancelled at the end" })).toBeVisible();
    await card.getByRole("button", { name: "Re-enable auto-renewal" }).click();
    // The offer is made once per license: cancelling again asks only why, and the button that ends the
    // renewal is red on the outline as on the page without JavaScript (not the primary colour of a go-ahead).
    await card.getByRole("button", { name: "Cancel auto-renewal" }).click();
    await expect(dialog.getByTestId("retention-offer")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Cancel renewal" })).toHaveClass(/border-destructive/);
    await dialog.getByRole("button", { name: "Keep renewing" }).click();
    await expect(dialog).toBeHidden();
  });
});
