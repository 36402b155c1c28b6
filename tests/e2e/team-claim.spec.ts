import AxeBuilder from "@axe-core/playwright";
import { CLAIM_TEXTS } from "~/domain/team-claim-texts";
import { expect, logOut, openLicense, registerAndConfirm, settledToasts, test, teamOffer } from "./support";
import { toast } from "./desktop-tool";

// The domain seat claim (docs/product.md): the owner of a team turns "Seats by e-mail domain" on; a colleague
// who registers and confirms an address at the owner's domain sees the offer on /licenses, confirms
// it, and has a seat license provided by the team; the offer is gone.
test("a colleague at the owner's domain takes a free seat from the card on /licenses", async ({ page }, info) => {
  test.setTimeout(120_000);
  const domain = `claim-${info.project.name}-${Date.now().toString(36)}.example`;
  await registerAndConfirm(page, `owner@${domain}`, "secret-pass-1", "Olga Owner");
  await page.goto("/pricing");
  const offer = await teamOffer(page);
  await offer.getByLabel("Seats").fill("2");
  await offer.getByRole("button", { name: "Buy 2 seats" }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=/);
  await page.goto("/team");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(toast(page, "Domain seats on")).toBeVisible();
  const team = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
  await logOut(page);

  await registerAndConfirm(page, `dana@${domain}`, "secret-pass-1", "Dana Colleague");
  await page.goto("/licenses");
  const card = page.getByTestId("claim-seat-card");
  await expect(card).toContainText(CLAIM_TEXTS.cardTitle(team));
  await expect(card).toContainText(`@${domain}`);
  await settledToasts(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await card.getByRole("button", { name: CLAIM_TEXTS.take }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(CLAIM_TEXTS.confirmTitle(team));
  await confirm.getByRole("button", { name: CLAIM_TEXTS.confirm }).click();
  await expect(toast(page, `Welcome to ${team}`)).toBeVisible();
  await expect(page.getByTestId("claim-seat-card")).toHaveCount(0);
  const seat = page.getByTestId("license-card").filter({ hasText: `provided by ${team}` });
  await expect(seat).toHaveCount(1);
  await openLicense(seat);
  await expect(seat.getByTestId("seat-note")).toContainText(`Provided by ${team}`);
});
