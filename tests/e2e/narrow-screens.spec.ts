import { expect, test, DEMO_ADMIN, registerAndConfirm, uniqueEmail } from "./support";
import { expectNoHorizontalScroll } from "./layout";

/** Long unbroken text (an e-mail, a search term, a link) must never widen a page beyond a 390 px screen. */
const LONG = "a".repeat(70);

test.describe("narrow screens and long inputs", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("confirm-email with a long address", async ({ page }) => {
    await page.goto(`/confirm-email?email=${LONG}@${"b".repeat(40)}.example.com`);
    await expectNoHorizontalScroll(page);
  });

  test("the dev mailbox with its long links, and registration with a long address", async ({ page }, info) => {
    const email = uniqueEmail(`long-${"x".repeat(40)}`, info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", `Name ${"N".repeat(60)}`);
    await page.goto("/dev/mailbox");
    await expectNoHorizontalScroll(page);
    await page.goto("/profile");
    await expectNoHorizontalScroll(page);
    await page.goto("/licenses");
    await expectNoHorizontalScroll(page);
  });

  test("an admin search for a long term", async ({ page, signIn }) => {
    await signIn(DEMO_ADMIN, `/admin/users?q=${LONG}${LONG}`);
    await expectNoHorizontalScroll(page);
    await page.getByLabel("Search users").fill(`${LONG}${LONG}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("search")).toBeVisible();
    await expectNoHorizontalScroll(page);
  });
});
