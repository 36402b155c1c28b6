import type { Page } from "@playwright/test";
import { expect, registerAndConfirm, teamOffer, test, uniqueEmail } from "./support";

// A team's plan change on /team (decision 0074): the owner picks a longer period, sees the
// provider's preview for every seat, confirms, and the team is on the new plan.

const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title });

test.describe("changing a team's plan", () => {
  test.slow();

  test("the owner previews monthly → yearly for 2 seats, keeps, then confirms; the team is yearly", async ({
    page,
  }, info) => {
    await registerAndConfirm(page, uniqueEmail("team-plan", info.project.name), "secret-pass-1", "Ada Owner");
    await page.goto("/pricing");
    const offer = await teamOffer(page);
    await offer.getByRole("radio", { name: /^Monthly/ }).check();
    await offer.getByLabel("Seats").fill("2");
    await offer.getByRole("button", { name: "Buy 2 seats" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Pay $18" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);

    await page.goto("/team");
    const section = page.getByTestId("team-plan");
    await expect(section.getByTestId("team-plan-current")).toContainText("The team is on Monthly for 2 seats.");
    await section.getByRole("button", { name: /^Preview Yearly/ }).click();
    const dialog = page.getByRole("alertdialog");
    const preview = dialog.getByTestId("plan-switch-preview");
    await expect(preview).toContainText("From now: the new period starts today.");
    await expect(preview.getByTestId("plan-switch-now")).toHaveText(
      /^Charged now\$1\d\d\.\d\d \(\$\d\d\.\d\d unused time credited\)$/,
    );
    await expect(preview.getByTestId("plan-switch-next")).toHaveText(/^Next charge\$180\.00 on .+$/);
    await expect(preview.getByTestId("plan-switch-becomes")).toHaveText(
      /^Each of the 2 seats becomesYearly, until .+, 2 machines$/,
    );

    // Nothing changes before confirming.
    await dialog.getByRole("button", { name: "Keep the team's plan" }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(section.getByTestId("team-plan-current")).toContainText("on Monthly");

    await section.getByRole("button", { name: /^Preview Yearly/ }).click();
    await expect(dialog.getByTestId("plan-switch-preview")).toBeVisible();
    await dialog.getByRole("button", { name: "Switch the team to Yearly" }).click();
    await expect(toast(page, "Team plan changed")).toContainText("The team's 2 seats are now Yearly");
    await expect(section.getByTestId("team-plan-current")).toContainText("The team is on Yearly for 2 seats.");
    // Only shorter periods are offered now, from the next renewal.
    await expect(section.getByRole("button", { name: /^Preview Monthly/ })).toBeVisible();
    await expect(section.getByRole("button", { name: /^Preview Yearly/ })).toHaveCount(0);
    // On a phone the long labels wrap: the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(section.getByRole("button", { name: /^Preview 6 Months/ })).toBeVisible();
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll, `/team is ${scroll}px wide on a ${client}px screen`).toBeLessThanOrEqual(client);
  });
});
