import AxeBuilder from "@axe-core/playwright";
import { createHash } from "node:crypto";
import { type Page } from "@playwright/test";
import { Tool } from "./desktop-tool";
import { buyerWithPaidLicense, DEMO_ADMIN, expect, test } from "./support";

// One customer's machines (decision 0041). Two installs of the tool activate the yearly license; a third is
// refused with MACHINE_LIMIT naming them; the customer deactivates one on the licenses page; the tool
// on it then sees MACHINE_NOT_ACTIVATED and the third activates. Every answer's signature is checked
// with OpenSSL (desktop-tool.ts).

const fingerprint = (name: string) => createHash("sha256").update(`MachineGuid of ${name}`).digest("hex");

async function machinesOf(page: Page) {
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
  return card.getByTestId("license-machines");
}

test("two machines of one customer: a third refused, one freed from the web page, the third activates", async ({
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  const { card } = await buyerWithPaidLicense(page, "machines", info.project.name);
  const key = (await card.getByTestId("license-key").innerText()).trim();
  await expect(card.getByTestId("license-machines")).toContainText("0 of 2 machines active");

  const tool = new Tool(request);
  await tool.fetchKeys();
  const activate = (name: string) =>
    tool.post("/machines/activate", {
      key,
      fingerprint: fingerprint(name),
      name,
      platform: "Windows 11 Pro 23H2 x64",
      app_version: "2.4.0",
    });
  const validate = (name: string) => tool.post("/licenses/validate", { key, fingerprint: fingerprint(name) });

  for (const name of ["DESK-OFFICE", "LAPTOP-HOME"]) {
    const answer = await activate(name);
    expect(answer.json).toMatchObject({ valid: true, code: "VALID", machine: { name }, machine_limit: 2 });
    const file = tool.verifyLicenseFile(answer.json.license_file);
    expect(file).toMatchObject({ machine_name: name });
    expect(file.fingerprint_sha256).toBe(createHash("sha256").update(fingerprint(name)).digest("hex"));
  }
  const third = await activate("BUILD-BOX");
  expect(third.json).toMatchObject({ valid: false, code: "MACHINE_LIMIT", license_file: null });
  expect(third.json.machines.map((m: { name: string }) => m.name).sort()).toEqual(["DESK-OFFICE", "LAPTOP-HOME"]);

  // The customer sees both machines and frees the laptop (with a confirmation).
  const section = await machinesOf(page);
  await expect(section.getByTestId("machines-used")).toHaveText("2 of 2 machines active");
  const laptop = section.getByTestId("machine").filter({ hasText: "LAPTOP-HOME" });
  await expect(laptop).toContainText("Windows 11 Pro 23H2 x64 · version 2.4.0");
  await expect(section.getByTestId("machines-limit")).toContainText("3 deactivations left now.");
  expect((await new AxeBuilder({ page }).include("[data-testid=license-machines]").analyze()).violations).toEqual([]);
  await laptop.getByText("Deactivate", { exact: true }).click();
  await laptop.getByRole("button", { name: "Yes, deactivate LAPTOP-HOME" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "LAPTOP-HOME was deactivated" })).toBeVisible();
  await expect(section.getByTestId("machine")).toHaveCount(1);
  await expect(section.getByTestId("machines-limit")).toContainText("2 deactivations left now.");

  // The tool on the laptop learns it is no longer activated; the desk keeps working; the third activates.
  expect((await validate("LAPTOP-HOME")).json).toMatchObject({ valid: false, code: "MACHINE_NOT_ACTIVATED" });
  expect((await validate("DESK-OFFICE")).json).toMatchObject({ valid: true, code: "VALID" });
  const refused = await tool.downloadFile(key, fingerprint("LAPTOP-HOME"));
  expect(refused).toMatchObject({ status: 409, body: { code: "MACHINE_NOT_ACTIVATED" } });
  expect((await activate("BUILD-BOX")).json).toMatchObject({
    valid: true,
    code: "VALID",
    machine: { name: "BUILD-BOX" },
  });
  const file = await tool.downloadFile(key, fingerprint("BUILD-BOX"));
  expect(file.status).toBe(200);
  expect(tool.verifyLicenseFile(file.body)).toMatchObject({ machine_name: "BUILD-BOX" });
  // The tool frees its own machine too: counted toward the same limit.
  expect(
    (await tool.post("/machines/deactivate", { key, fingerprint: fingerprint("DESK-OFFICE") })).json,
  ).toMatchObject({
    deactivated: true,
    deactivations_left: 1,
  });
  await expect((await machinesOf(page)).getByTestId("machine")).toHaveCount(1);
});

test("without JavaScript the machine is deactivated by the form, after the same confirmation", async ({
  browser,
  request,
}, info) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const scripted = await browser.newPage();
  const { card } = await buyerWithPaidLicense(scripted, "machines-nojs", info.project.name);
  const key = (await card.getByTestId("license-key").innerText()).trim();
  const tool = new Tool(request);
  await tool.fetchKeys();
  await tool.post("/machines/activate", { key, fingerprint: fingerprint("NOJS-PC"), name: "NOJS-PC" });
  await context.addCookies(await scripted.context().cookies());
  const section = await machinesOf(page);
  const machine = section.getByTestId("machine").filter({ hasText: "NOJS-PC" });
  await machine.getByText("Deactivate", { exact: true }).click();
  await machine.getByRole("button", { name: "Yes, deactivate NOJS-PC" }).click();
  await expect(page).toHaveURL(/\/licenses$/);
  await expect(
    page.getByTestId("license-card").filter({ hasText: "Yearly license" }).getByTestId("machine"),
  ).toHaveCount(0);
  expect((await tool.post("/licenses/validate", { key, fingerprint: fingerprint("NOJS-PC") })).json.code).toBe(
    "MACHINE_NOT_ACTIVATED",
  );
  await context.close();
  await scripted.close();
});

test("an admin sees every license's machines on the user's page and deactivates one (audited, not counted)", async ({
  page,
  request,
  signIn,
}, info) => {
  test.setTimeout(120_000);
  const { email, card } = await buyerWithPaidLicense(page, "machines-admin", info.project.name);
  const key = (await card.getByTestId("license-key").innerText()).trim();
  const tool = new Tool(request);
  await tool.fetchKeys();
  await tool.post("/machines/activate", { key, fingerprint: fingerprint("SUPPORT-PC"), name: "SUPPORT-PC" });
  await page.context().clearCookies();
  await signIn(DEMO_ADMIN, `/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByTestId("admin-user-result").getByRole("link").click();
  const machinesCard = page.getByTestId("admin-user-machines");
  const license = machinesCard.getByTestId("admin-license-machines").filter({ hasText: "Yearly" });
  await expect(license).toContainText("1 of 2 machines active · 3 deactivations left now.");
  const machine = license.getByTestId("machine").filter({ hasText: "SUPPORT-PC" });
  await machine.getByText("Deactivate", { exact: true }).click();
  await machine.getByRole("button", { name: "Yes, deactivate SUPPORT-PC" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "SUPPORT-PC was deactivated" })).toBeVisible();
  await expect(license.getByTestId("machine")).toHaveCount(0);
  await expect(license).toContainText("3 deactivations left now.");
  expect((await new AxeBuilder({ page }).include("[data-testid=admin-user-machines]").analyze()).violations).toEqual(
    [],
  );
  expect((await tool.post("/licenses/validate", { key, fingerprint: fingerprint("SUPPORT-PC") })).json.code).toBe(
    "MACHINE_NOT_ACTIVATED",
  );
  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-entry").first()).toContainText("Deactivated a machine");
});
