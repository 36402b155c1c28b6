import { ENTITLEMENT_LABELS, ENTITLEMENTS } from "~/domain/entitlements";
import { floatingLeasesLine, PLANS } from "~/domain/plans";
import { expect, test, DEMO_USER, registerAndConfirm, uniqueEmail } from "./support";

test.describe("pricing", () => {
  test("three plan cards with prices, savings and the trial for visitors", async ({ page }) => {
    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).toContainText("$9");
    await expect(page.getByTestId("plan-6_months")).toContainText("$49.50");
    await expect(page.getByTestId("plan-6_months")).toContainText("Save 8%");
    await expect(page.getByTestId("plan-yearly")).toContainText("$90");
    await expect(page.getByTestId("plan-yearly")).toContainText("Save 17%");
    // Each card lists its plan's entitlements from the plan table (the desktop API carries the same).
    for (const plan of PLANS) {
      const card = page.getByTestId(`plan-${plan.id}`);
      for (const entitlement of ENTITLEMENTS) {
        const label = ENTITLEMENT_LABELS[entitlement];
        if (plan.entitlements.includes(entitlement)) await expect(card).toContainText(label);
        else await expect(card).not.toContainText(label);
      }
    }
    // And its floating leases, from the same table: Yearly's 3, none on the others.
    for (const plan of PLANS) {
      const card = page.getByTestId(`plan-${plan.id}`);
      const line = floatingLeasesLine(plan.floatingLeases);
      if (line) await expect(card).toContainText(line);
      else await expect(card).not.toContainText(/floating lease/i);
    }
    await expect(page.getByTestId("plan-yearly")).toContainText("3 floating leases for build servers");
    // The plans differ in what they include, so the page does not say they all include everything.
    await expect(page.getByRole("main")).not.toContainText(/every feature/i);
    await expect(page.getByRole("main")).toContainText("Each plan lists the features it includes");
    for (const id of ["monthly", "6_months", "yearly"]) {
      await expect(page.getByTestId(`plan-${id}`)).toContainText("Auto-renewing");
      await expect(page.getByTestId(`plan-${id}`)).toContainText("Cancel anytime");
      await expect(page.getByTestId(`plan-${id}`)).toContainText("7-day free trial");
      await expect(page.getByTestId(`plan-${id}`)).toContainText("Use it on 2 machines at once");
    }
    // Every card's content starts level (a wrapped price line once pushed one card's down).
    const tops = await page
      .locator('[data-testid^="plan-"] ul')
      .evaluateAll((lists) => lists.map((list) => Math.round(list.getBoundingClientRect().top)));
    expect(tops).toHaveLength(3);
    if ((page.viewportSize()?.width ?? 0) >= 1024) expect(new Set(tops).size).toBe(1);
    // The questions and the terms state the cards' machine rule, not a rule of their own.
    await expect(page.getByText("One person, on up to 2 Windows computers at once.")).toBeVisible();
    await page.goto("/terms-of-service");
    await expect(page.getByText("One person, on up to 2 Windows computers at once.")).toBeVisible();
  });

  test("a visitor choosing a plan is sent to /register, which keeps the plan", async ({ page }) => {
    await page.goto("/pricing");
    await page.getByTestId("plan-yearly").getByRole("link").click();
    await expect(page).toHaveURL("/register?redirectTo=%2Fpricing%3Fplan%3Dyearly");
  });

  test("the trial is offered to a user with no license, not to one with licenses", async ({ page, signIn }, info) => {
    await registerAndConfirm(page, uniqueEmail("pricing", info.project.name));
    await page.goto("/pricing");
    await expect(page.getByTestId("plan-monthly")).toContainText("7-day free trial");
    await page.context().clearCookies();
    await signIn(DEMO_USER, "/pricing");
    await expect(page.getByTestId("plan-monthly")).not.toContainText("free trial");
  });

  test("loads the team form's code when used, keeping what was typed, with no CSP violation", async ({ page }) => {
    // Chromium reports a violation as an event on the document (Lighthouse counted zod's eval probe).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.sourceFile}`));
    });
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto("/pricing");
    const offer = page.getByTestId("team-offer");
    // Hydrated, the server's form stands as rendered and its code is not loaded.
    await expect(offer.getByRole("button", { name: "Show the total" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(scripts.filter((url) => url.includes("team-seats-form"))).toEqual([]);
    // Chosen in the server's form (the yearly plan is the default), which loads its code: the form that
    // takes its place keeps the choice and the focus. (Seats are typed after the swap: a fill racing it
    // could select the old field's text and type into the new one.)
    const monthly = offer.getByRole("radio", { name: /^Monthly/ });
    await monthly.check();
    // The server's copy says "Show the total"; the form's own says what it will do.
    await expect(offer.getByRole("button", { name: "Continue with 5 seats" })).toBeVisible();
    expect(scripts.filter((url) => url.includes("team-seats-form"))).toHaveLength(1);
    await expect(monthly).toBeChecked();
    await expect(monthly).toBeFocused();
    await offer.getByLabel("Seats").fill("12");
    await expect(offer.getByRole("button", { name: "Continue with 12 seats" })).toBeVisible();
    await expect(offer.getByTestId("team-total")).toHaveText(/^Total: 12 seats × \$9(\.00)? = \$108(\.00)? per month$/);
    await offer.getByRole("button", { name: "Continue with 12 seats" }).click();
    await expect(page).toHaveURL(/^[^?]*\/register\?redirectTo=.*seats%3D12/);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });

  test("loads the checkout's code when a checkout opens, not for reading the prices", async ({ page, signIn }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    const checkoutCode = () =>
      scripts.filter((path) =>
        /\/(demo-checkout-dialog|paddle-checkout-summary|dialog|schemas)-[\w-]+\.js$/.test(path),
      );
    await signIn(DEMO_USER, "/pricing");
    await expect(page.getByTestId("plan-monthly").getByRole("button")).toBeEnabled();
    await page.waitForLoadState("networkidle");
    // Neither dialog, nor Radix's dialog, nor the form library the server validates with.
    expect(checkoutCode()).toEqual([]);
    await page.getByTestId("plan-monthly").getByRole("button").click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog.getByTestId("demo-checkout-plan")).toHaveText("Monthly");
    expect(checkoutCode().some((path) => path.includes("/demo-checkout-dialog-"))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // Opened again at once: the dialog stayed mounted.
    await page.getByTestId("plan-monthly").getByRole("button").click();
    await expect(dialog.getByTestId("demo-checkout-plan")).toHaveText("Monthly");
  });
});

test.describe("contact", () => {
  test("shows the support address and copies it", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/contact");
    await expect(page.getByTestId("support-email")).toHaveText("support@forgekit.example");
    await expect(page.getByText("We usually reply within 24 hours on business days.")).toBeVisible();
    await page.getByRole("button", { name: "Copy e-mail address" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("support@forgekit.example");
  });
});
