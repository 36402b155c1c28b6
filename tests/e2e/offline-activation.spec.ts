import AxeBuilder from "@axe-core/playwright";
import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { ACTIVATION_REQUEST_FORMAT, OFFLINE_ACTIVATION_TEXTS } from "../../app/domain/activation-request";
import { Tool } from "./desktop-tool";
import { buyerWithPaidLicense, expect, openLicense, test } from "./support";

// Activation without a network (decision 0071): the tool on a computer without a network saves an
// activation request; its owner uploads it on the license's card and downloads the signed activation
// file (checked with OpenSSL, desktop-tool.ts); the same request again is refused; the machine freed on
// the web is not activated at the tool's next online check. The same form then works without JavaScript.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const FINGERPRINT = sha256("MachineGuid of AIRGAP-PC");

function activationRequest(key: string, name: string) {
  return {
    format: ACTIVATION_REQUEST_FORMAT,
    license_key: key,
    fingerprint: FINGERPRINT,
    name,
    nonce: randomBytes(16).toString("hex"),
    created_at: new Date().toISOString(),
    platform: "Windows 11 Pro 23H2 x64",
    app_version: "2.4.0",
  };
}

/** The card's offline activation form, its disclosure opened. */
async function offlineForm(page: Page): Promise<Locator> {
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
  await openLicense(card);
  const section = card.getByTestId("offline-activation");
  await section.getByText(OFFLINE_ACTIVATION_TEXTS.title).click();
  return section;
}

test("a computer without a network is activated from its uploaded request and gets a signed activation file", async ({
  page,
  request,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const { card } = await buyerWithPaidLicense(page, "offline-activation", info.project.name);
  const key = (await card.getByTestId("license-key").innerText()).trim();
  const shortId = (await card.getByTestId("license-short-id").first().innerText()).trim();
  const tool = new Tool(request);
  await tool.fetchKeys();

  // The tool's request file, uploaded on the card.
  const asked = activationRequest(key, "AIRGAP-PC");
  const file = {
    name: "activation-request.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(asked)),
  };
  let form = await offlineForm(page);
  expect((await new AxeBuilder({ page }).include("[data-testid=offline-activation]").analyze()).violations).toEqual([]);
  await form.getByLabel(OFFLINE_ACTIVATION_TEXTS.fileLabel).setInputFiles(file);
  await form.getByRole("button", { name: OFFLINE_ACTIVATION_TEXTS.submit }).click();
  await expect(page).toHaveURL(/\/licenses\/offline-activation\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("offline-activation-done")).toContainText(
    OFFLINE_ACTIVATION_TEXTS.done("AIRGAP-PC", shortId),
  );

  // The answer: a download of the activation file, a license file bound to this machine that carries the request's nonce.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: OFFLINE_ACTIVATION_TEXTS.download }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-activation\.lic$/);
  const payload = tool.verifyLicenseFile(JSON.parse(await readFile((await download.path())!, "utf8")));
  expect(payload).toMatchObject({
    machine_name: "AIRGAP-PC",
    fingerprint_sha256: sha256(FINGERPRINT),
    request_nonce: asked.nonce,
  });

  // The card lists the machine, which takes one of the two seats.
  await page.goto("/licenses");
  await openLicense(card);
  await expect(card.getByTestId("machines-used")).toHaveText("1 of 2 machines active");
  const machine = card.getByTestId("machine").filter({ hasText: "AIRGAP-PC" });
  await expect(machine).toContainText("Windows 11 Pro 23H2 x64 · version 2.4.0");

  // The same request again: refused, saying why.
  form = await offlineForm(page);
  await form.getByLabel(OFFLINE_ACTIVATION_TEXTS.fileLabel).setInputFiles(file);
  await form.getByRole("button", { name: OFFLINE_ACTIVATION_TEXTS.submit }).click();
  const refused = page.getByTestId("offline-activation-refused");
  await expect(refused).toContainText(OFFLINE_ACTIVATION_TEXTS.used);
  await expect(page.getByTestId("offline-activation-refused-code")).toHaveText(
    OFFLINE_ACTIVATION_TEXTS.refusalCode("activation_request_used"),
  );
  await expect(refused).toHaveAttribute("data-code", "activation_request_used");
  expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

  // Freed on the web: the tool's next online check says it is not activated.
  await page.goto("/licenses");
  await openLicense(card);
  await machine.getByText("Deactivate", { exact: true }).click();
  await machine.getByRole("button", { name: "Yes, deactivate AIRGAP-PC" }).click();
  await expect(card.getByTestId("machines-used")).toHaveText("0 of 2 machines active");
  const online = await tool.post("/licenses/validate", { key, fingerprint: FINGERPRINT });
  expect(online.json).toMatchObject({ valid: false, code: "MACHINE_NOT_ACTIVATED" });

  // Without JavaScript, a pasted request (its base64) activates the machine again through the plain form.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: new URL(page.url()).origin });
  await context.addCookies(await page.context().cookies());
  const plain = await context.newPage();
  await plain.goto("/licenses");
  const plainCard = plain.getByTestId("license-card").filter({ hasText: "Yearly license" });
  await openLicense(plainCard);
  const plainForm = plainCard.getByTestId("offline-activation");
  await plainForm.getByText(OFFLINE_ACTIVATION_TEXTS.title).click();
  const again = Buffer.from(JSON.stringify(activationRequest(key, "AIRGAP-PC"))).toString("base64");
  await plainForm.getByLabel(OFFLINE_ACTIVATION_TEXTS.pasteLabel).fill(again);
  await plainForm.getByRole("button", { name: OFFLINE_ACTIVATION_TEXTS.submit }).click();
  await expect(plain.getByTestId("offline-activation-done")).toContainText(
    OFFLINE_ACTIVATION_TEXTS.done("AIRGAP-PC", shortId),
  );
  expect((await tool.post("/licenses/validate", { key, fingerprint: FINGERPRINT })).json.code).toBe("VALID");
  await context.close();
});
