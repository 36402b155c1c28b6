import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Download, Page } from "@playwright/test";
import { expect, plainTest, test, logOut, registerAndConfirm, settledToasts, uniqueEmail } from "./support";
import { confirmTwoFactor, expectMail, openProfile, passwordStep, startTwoFactor, toast } from "./two-factor-steps";

// Recovery codes people can keep (copy, download, any case, codes left, new codes; decision 0026).
const PASSWORD = "secret-pass-1";
const CODE = /^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/;

/** The saved file's name and text. */
async function savedFile(download: Download) {
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, "utf8") };
}

async function clipboard(page: Page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

test.describe("recovery codes", () => {
  test.describe.configure({ timeout: 120_000 });

  test("copy and download at set-up, a lowercase code signs in, codes left, new codes replace the old", async ({
    page,
    context,
  }, info) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const email = uniqueEmail("recovery", info.project.name);
    await registerAndConfirm(page, email);
    const { secret, codes } = await startTwoFactor(page, PASSWORD);
    expect(codes.every((code) => CODE.test(code))).toBe(true);
    const section = page.locator("#two-factor");

    await section.getByRole("button", { name: "Copy codes" }).click();
    await expect(toast(page).filter({ hasText: "Recovery codes copied" })).toBeVisible();
    expect(await clipboard(page)).toBe(codes.join("\n"));
    const downloading = page.waitForEvent("download");
    await section.getByRole("link", { name: "Download .txt" }).click();
    const file = await savedFile(await downloading);
    expect(file.name).toBe("forgekit-recovery-codes.txt");
    expect(file.text).toContain(`ForgeKit recovery codes for ${email}`);
    for (const code of codes) expect(file.text).toContain(code);
    await confirmTwoFactor(page, secret);

    // Signing in with a recovery code typed in lower case and without its dash.
    await logOut(page);
    await passwordStep(page, email, PASSWORD);
    await page.getByLabel("Code").fill(codes[0]!.toLowerCase().replace("-", ""));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/");
    await expectMail(page, email, "ForgeKit: a recovery code was used to log in");

    await openProfile(page);
    const recovery = page.locator("#two-factor-recovery");
    await expect(recovery.getByTestId("recovery-codes-left")).toContainText("9 of 10 recovery codes left.");
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: info.outputPath(`two-factor-${info.project.name}.png`) });
    fs.mkdirSync("/tmp/recovery-shots", { recursive: true });
    await section.screenshot({ path: `/tmp/recovery-shots/two-factor-${info.project.name}.png` });
    await settledToasts(page);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);

    // "Generate new codes": the password first, then the new codes once, with copy again.
    await recovery.getByLabel("Password").fill("not-the-password");
    await recovery.getByRole("button", { name: "Generate new codes" }).click();
    await expect(recovery.getByText("The password is not correct.").first()).toBeVisible();
    await recovery.getByLabel("Password").fill(PASSWORD);
    await recovery.getByRole("button", { name: "Generate new codes" }).click();
    await expect(toast(page).filter({ hasText: "New recovery codes made" })).toBeVisible();
    const fresh = await recovery.getByTestId("recovery-codes").locator("li").allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => codes.includes(code))).toBe(false);
    await recovery.getByRole("button", { name: "Copy codes" }).click();
    await expect.poll(() => clipboard(page)).toBe(fresh.join("\n"));
    await section.screenshot({ path: `/tmp/recovery-shots/two-factor-new-codes-${info.project.name}.png` });
    await settledToasts(page);
    const axeNew = await new AxeBuilder({ page }).analyze();
    expect(axeNew.violations.map((v) => v.id)).toEqual([]);
    await expectMail(page, email, "ForgeKit: new recovery codes were made");

    // The old codes stopped working; the new ones sign in.
    await page.goto("/");
    await logOut(page);
    await passwordStep(page, email, PASSWORD);
    await page.getByLabel("Code").fill(codes[1]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That recovery code is not correct or was already used.").first()).toBeVisible();
    await page.getByLabel("Code").fill(fresh[0]!.toLowerCase());
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL("/");
  });
});

// Playwright's own test: the project's one waits for hydration, which never comes without scripts.
plainTest.describe("recovery codes without JavaScript", () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest("the codes download as a .txt file; no copy button that would do nothing", async ({ page }, info) => {
    const email = uniqueEmail("recovery-nojs", info.project.name);
    await registerAndConfirm(page, email);
    await openProfile(page);
    const section = page.locator("#two-factor");
    await section.getByLabel("Password").fill(PASSWORD);
    await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const codes = await page.locator("#two-factor").getByTestId("recovery-codes").locator("li").allInnerTexts();
    expect(codes).toHaveLength(10);
    await expect(page.locator("#two-factor").getByRole("button", { name: "Copy codes" })).toHaveCount(0);
    const downloading = page.waitForEvent("download");
    await page.locator("#two-factor").getByRole("link", { name: "Download .txt" }).click();
    const file = await savedFile(await downloading);
    expect(file.name).toBe("forgekit-recovery-codes.txt");
    for (const code of codes) expect(file.text).toContain(code);
  });
});
