import { expect, test, openMenu, DEMO_USER } from "./support";

test.describe("home", () => {
  test("the headline rotates every 4 seconds with a fade", async ({ browser }) => {
    // The suite runs with reduced motion (playwright.config.ts); this visitor has no such preference.
    const context = await browser.newContext({ reducedMotion: "no-preference" });
    const page = await context.newPage();
    await page.goto("/");
    const line = page.getByTestId("rotating-headline");
    const first = await line.innerText();
    await page.waitForTimeout(3_000);
    expect(await line.innerText()).toBe(first);
    await expect(line).not.toHaveText(first, { timeout: 3_000 });
    const transition = await line.evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(transition).toBe("0.3s");
    await context.close();
  });

  test("the headline stays still for visitors who prefer reduced motion", async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto("/");
    const line = page.getByTestId("rotating-headline");
    const first = await line.innerText();
    await page.waitForTimeout(5_000);
    expect(await line.innerText()).toBe(first);
    await context.close();
  });

  test("the tutorial video loads only when asked", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("iframe")).toHaveCount(0);
    await page.getByRole("link", { name: /play video/i }).click();
    await expect(page.locator("iframe[title$='tutorial']")).toHaveCount(1);
  });

  test("three feature cards and a footer with privacy and terms links", async ({ page }) => {
    await page.goto("/");
    for (const title of ["Load existing components", "Define changes and preview results", "Generate new components"]) {
      await expect(page.getByText(title, { exact: true })).toBeVisible();
    }
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL("/privacy-policy");
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" }).click();
    await expect(page).toHaveURL("/terms-of-service");
  });

  test("at 1280 px the footer has a column per group, signed in (no Account group) and out", async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const columns = () =>
      page
        .getByRole("contentinfo")
        .locator("div.grid")
        .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(" ").length);
    await page.goto("/");
    await expect(page.getByRole("contentinfo").getByRole("navigation")).toHaveCount(4);
    expect(await columns()).toBe(5);
    await signIn(DEMO_USER, "/");
    await expect(page.getByRole("contentinfo").getByRole("navigation")).toHaveCount(3);
    expect(await columns()).toBe(4);
  });

  test(
    "the navigation offers Download, Pricing, Contact Us, Login and Register to visitors",
    { tag: "@phone" },
    async ({ page }) => {
      await page.goto("/");
      await openMenu(page);
      for (const name of ["Download", "Pricing", "Contact Us", "Login", "Register"]) {
        await expect(page.getByRole("link", { name, exact: true }).locator("visible=true").first()).toBeVisible();
      }
      await expect(page.getByRole("link", { name: "Licenses", exact: true })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Manage", exact: true })).toHaveCount(0);
    },
  );

  test("below 768 px the links sit in a bottom drawer that navigates", { tag: "@phone" }, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" })).toHaveCount(0);
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    const box = await drawer.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(800);
    await drawer.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL("/pricing");
    await expect(drawer).toBeHidden();
  });

  test("the mobile drawer by keyboard: focus stays inside, Escape closes it, focus returns to Menu", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const menu = page.getByRole("button", { name: "Open menu" });
    await menu.focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    // Twenty tabs forward and back never leave the drawer.
    for (const key of [...Array(20).fill("Tab"), ...Array(5).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
  });

  test("a button focused by keyboard shows a clear outline (the primary button's ring was invisible on its own colour)", async ({
    page,
  }) => {
    await page.goto("/login");
    await page.getByLabel("Password").focus();
    const button = page.getByRole("button", { name: "Log in" });
    for (let i = 0; i < 5 && !(await button.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await expect(button).toBeFocused();
    const outline = await button.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        style: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
        offset: parseFloat(style.outlineOffset),
      };
    });
    expect(outline.style).toBe("solid");
    expect(outline.width).toBeGreaterThanOrEqual(2);
    expect(outline.offset).toBeGreaterThanOrEqual(2);
  });
});
