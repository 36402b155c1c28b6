import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  confirmFromLink,
  openLicense,
  expect,
  test,
  DEMO_ADMIN,
  latestMail,
  logOut,
  openAllLicenses,
  registerAndConfirm,
  settledToasts,
  uniqueEmail,
  teamOffer,
} from "./support";
import { toast, Tool } from "./desktop-tool";

// Teams (decisions 0046 and 0047): an owner buys 3 seats, invites two colleagues, both accept from the mailbox and
// see their seat licenses; one is removed and the desktop tool sees REVOKED; the seats go to 5 with
// the prorated charge; the admin finds the team by name.

async function noAxeViolations(page: Page) {
  await settledToasts(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
}

/** A colleague accepts their invitation from the mailbox: registers with the invited address, accepts. */
async function accept(page: Page, email: string, name: string, team: string): Promise<string> {
  const invitation = await latestMail(page, email);
  expect(invitation.subject).toContain("invited you to");
  expect(invitation.subject).toContain(team);
  await page.goto(invitation.link);
  await expect(page.getByTestId("invited-address")).toContainText(email);
  // "Create an account" leads to /register, which names the team and starts with the invited address.
  await page.getByRole("main").getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Join ${team}` })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Password").fill("secret-pass-1");
  await page.getByRole("checkbox").click();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/confirm-email/);
  // Confirming with the password signs them in (decision 0059), back where they were going.
  await confirmFromLink(page, (await latestMail(page, email)).link, "secret-pass-1");
  await expect(page).not.toHaveURL(/\/email-confirmation/);
  await page.goto(invitation.link);
  await page.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(page).toHaveURL("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: `provided by ${team}` });
  await expect(card).toHaveCount(1);
  await openLicense(card);
  await expect(card.getByTestId("seat-note")).toContainText(`Provided by ${team}`);
  // No billing actions on a seat: no refund, renewal or extension.
  await expect(card.getByRole("link", { name: "Extend" })).toHaveCount(0);
  await expect(card.getByTestId("license-danger")).toHaveCount(0);
  const key = (await card.getByTestId("license-key").innerText()).trim();
  await logOut(page);
  return key;
}

test.describe("teams", () => {
  test("an owner buys seats, hands them out, removes one, adds seats; the admin finds the team", async ({
    page,
    request,
    signIn,
  }, info) => {
    test.setTimeout(180_000);
    const run = `${info.project.name}-${Date.now().toString(36)}`;
    const owner = { email: uniqueEmail("team-owner", info.project.name), password: "secret-pass-1" };
    const team = `Team ${run}`;
    const [grace, alan] = [uniqueEmail("team-grace", info.project.name), uniqueEmail("team-alan", info.project.name)];

    // The owner buys 3 yearly seats through the demo checkout.
    await registerAndConfirm(page, owner.email, owner.password, "Ada Owner");
    await page.goto("/pricing");
    const offer = await teamOffer(page);
    await offer.getByLabel("Seats").fill("3");
    await expect(offer.getByTestId("team-total")).toHaveText("Total: 3 seats × $90 = $270 per year");
    await offer.getByRole("button", { name: "Buy 3 seats" }).click();
    await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Pay $270" }).click();
    await expect(page).toHaveURL(/\/success\?transactionId=/);
    // /success names the seats and links to the team page; the subscription's key is no license to use.
    await expect(page.getByTestId("success-lead")).toContainText("for 3 seats of");
    await expect(page.getByTestId("success-team")).toBeVisible();
    await expect(page.getByTestId("license-key")).toHaveCount(0);

    // The team page: rename, then invite two colleagues at once.
    await page.goto("/team");
    await expect(page.getByTestId("team-seats-line")).toContainText("0 of 3 seats used");
    await page.getByLabel("Team name").fill(team);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 1, name: team })).toBeVisible();
    await page.getByLabel(/E-mail addresses/).fill(`${grace}, ${alan}`);
    await page.getByRole("button", { name: "Send invitations" }).click();
    await expect(toast(page, "Invitations sent")).toBeVisible();
    await expect(page.getByTestId("team-invitation")).toHaveCount(2);
    await noAxeViolations(page);
    await logOut(page);

    // Both accept from the mailbox and see their seat licenses.
    const graceKey = await accept(page, grace, "Grace Hopper", team);
    const alanKey = await accept(page, alan, "Alan Turing", team);
    const tool = new Tool(request);
    await tool.fetchKeys();
    expect(await tool.validate(alanKey)).toMatchObject({ valid: true, code: "VALID" });

    // The owner removes Alan: the tool holding his key sees REVOKED; Grace's still works.
    await signIn(owner, "/team");
    await expect(page.getByTestId("team-member")).toHaveCount(3);
    // Grace becomes a manager (the rows share one role form's fetcher, then back to member).
    await page.getByRole("button", { name: `Make ${grace} a manager` }).click();
    await expect(toast(page, "Role changed")).toContainText("The member is now a manager.");
    await expect(page.getByTestId("team-member").filter({ hasText: grace })).toContainText("manager");
    await expect(page.getByRole("button", { name: `Make ${grace} a member` })).toBeEnabled();
    // The rows share one confirmation: it names the member asked about, and Keep gives the focus back.
    const removeAlan = page.getByRole("button", { name: `Remove ${alan}` });
    await removeAlan.click();
    await expect(page.getByRole("alertdialog")).toContainText("Remove Alan Turing from the team?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Keep" }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(removeAlan).toBeFocused();
    await removeAlan.click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
    await expect(toast(page, "Member removed")).toBeVisible();
    await expect(page.getByTestId("team-member")).toHaveCount(2);
    expect(await tool.validate(alanKey)).toMatchObject({ valid: false, code: "REVOKED" });
    expect(await tool.validate(graceKey)).toMatchObject({ valid: true, code: "VALID" });
    // Alan's card says what his e-mail says: removed from the team, ask its owner (not support).
    await expect.poll(async () => (await latestMail(page, alan)).subject).toContain(`you were removed from ${team}`);
    // (Cookies cleared, not signed out: the owner's cached session stays good for the steps below.)
    await page.context().clearCookies();
    await signIn({ email: alan, password: "secret-pass-1" }, "/licenses");
    const alanCard = page.getByTestId("license-card").filter({ hasText: `provided by ${team}` });
    await openAllLicenses(page);
    await expect(alanCard.getByTestId("revoked-note")).toHaveText(
      `You were removed from ${team}; ask its owner if you think this is a mistake.`,
    );
    await expect(alanCard.getByText(/Contact support/)).toHaveCount(0);
    await expect(alanCard.getByTestId("seat-note")).toHaveCount(0);
    await page.context().clearCookies();
    await signIn(owner, "/team");

    // Five seats: confirmed with the prorated charge.
    await page.getByLabel("Number of seats").fill("5");
    await page.getByRole("button", { name: "Review the change" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByTestId("seat-quote")).toContainText(/\$\d+(\.\d\d)? is charged today/);
    await confirm.getByRole("button", { name: "Pay and add seats" }).click();
    await expect(toast(page, "Seats changed")).toBeVisible();
    await expect(page.getByTestId("team-seats-line")).toContainText("1 of 5 seats used");
    // /billing: the prorated charge is in the history with its invoice; the next renewal bills 5 seats.
    await page.goto("/billing");
    const added = page.getByTestId("billing-entry").filter({ hasText: "Added seats" });
    await expect(added).toHaveCount(1);
    await expect(added.getByRole("link", { name: /invoice/i })).toHaveAttribute("href", /^\/billing\/invoices\//);
    await expect(page.getByTestId("upcoming-charge")).toContainText("5 seats");
    await expect(page.getByTestId("billing-entry").filter({ hasText: "Yearly team subscription" })).toHaveCount(1);
    // On /licenses the owner's row is the team's subscription: no key, a link to /team, and the refund
    // confirmation says how many members lose their seat.
    await page.goto("/licenses");
    const subscription = page.getByTestId("license-card").filter({ hasText: "team subscription" });
    await openLicense(subscription);
    await expect(subscription.getByTestId("team-subscription-note").getByRole("link")).toHaveAttribute("href", "/team");
    await expect(subscription.getByTestId("license-key")).toHaveCount(0);
    await subscription.getByRole("button", { name: "Request Refund" }).click();
    await expect(page.getByTestId("refund-team-members")).toContainText("1 member loses their seat");
    await page.getByRole("button", { name: "Keep license" }).click();
    await logOut(page);

    // The admin finds the team by name and opens its page.
    await signIn(DEMO_ADMIN, "/admin/users");
    await page.getByLabel("Search users").fill(team);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByTestId("admin-team-match").getByRole("link", { name: team }).click();
    await expect(page.getByRole("heading", { level: 1, name: team })).toBeVisible();
    await expect(page.getByRole("region", { name: "Members" }).getByText(grace)).toBeVisible();
    await noAxeViolations(page);
  });
});
