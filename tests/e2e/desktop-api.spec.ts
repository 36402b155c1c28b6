import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { expect, test, DEMO_ADMIN, logOut, registerAndConfirm, uniqueEmail } from "./support";

// The desktop tool's side of the license API (issue 12, docs/desktop-api.md): a customer buys in
// the browser, then the "tool" (Playwright's request, no cookies) activates, validates and downloads
// its license file, and checks every signature as a tool without Node would: OpenSSL's command line
// with the public key from /api/v1/keys chosen by the kid the answer names.

const MACHINE = { windows_username: "CORP\\tool-user", computer_name: "TOOL-PC-1" };
const OTHER_MACHINE = { windows_username: "CORP\\someone-else", computer_name: "OTHER-PC-9" };

type Json = Record<string, any>;

/** `openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in data.bin -sigfile sig.bin`: true when verified. */
function opensslVerifies(publicKeyPem: string, data: Buffer, signature: Buffer): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "desktop-api-"));
  try {
    fs.writeFileSync(path.join(dir, "pub.pem"), publicKeyPem);
    fs.writeFileSync(path.join(dir, "data.bin"), data);
    fs.writeFileSync(path.join(dir, "sig.bin"), signature);
    const result = spawnSync(
      "openssl",
      ["pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem", "-rawin", "-in", "data.bin", "-sigfile", "sig.bin"],
      { cwd: dir, encoding: "utf8" },
    );
    if (result.error) throw result.error;
    if (result.status === 0) expect(result.stdout).toContain("Signature Verified Successfully");
    return result.status === 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What a tool keeps between calls: the published keys by kid and the greatest issued_at seen. */
class Tool {
  keys = new Map<string, string>();
  lastSeen = 0;
  verified = 0;

  constructor(private request: APIRequestContext) {}

  /** GET /api/v1/keys: each key's kid is derived from it; the answer is signed by one of them. */
  async fetchKeys(): Promise<void> {
    const response = await this.request.get("/api/v1/keys");
    expect(response.status()).toBe(200);
    const body = JSON.parse((await response.body()).toString("utf8")) as { keys: Json[] };
    expect(body.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of body.keys) {
      expect(key).toMatchObject({ algorithm: "ed25519", kid: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
      expect(key.public_key_pem).toContain("-----BEGIN PUBLIC KEY-----");
      this.keys.set(key.kid, key.public_key_pem);
    }
    await this.signed(response);
  }

  /**
   * The answer's JSON, after checking its Signature header over the exact body bytes with OpenSSL,
   * its issued_at against the last time seen (never earlier, never after now), and the echoed nonce.
   */
  async signed(response: APIResponse, nonce?: string): Promise<Json> {
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(response.headers()["set-cookie"]).toBeUndefined();
    const header = response.headers()["signature"];
    expect(header).toMatch(/^keyid="[A-Za-z0-9_-]+", algorithm="ed25519", signature="[A-Za-z0-9+/]+={0,2}"$/);
    const [, kid, signature] = /keyid="([^"]+)", algorithm="ed25519", signature="([^"]+)"/.exec(header!)!;
    const publicKey = this.keys.get(kid!);
    expect(publicKey, `kid ${kid} is published at /api/v1/keys`).toBeDefined();
    const body = await response.body();
    const signatureBytes = Buffer.from(signature!, "base64");
    expect(opensslVerifies(publicKey!, body, signatureBytes)).toBe(true);
    if (this.verified++ === 0) {
      // Once: the same check refuses a body changed by one byte, so a pass means something.
      const changed = Buffer.from(body);
      changed.writeUInt8(changed.readUInt8(changed.length - 2) ^ 1, changed.length - 2);
      expect(opensslVerifies(publicKey!, changed, signatureBytes)).toBe(false);
    }
    const json = JSON.parse(body.toString("utf8")) as Json;
    if ("issued_at" in json) this.checkIssuedAt(json.issued_at);
    if (nonce !== undefined) expect(json.nonce).toBe(nonce);
    return json;
  }

  /**
   * The tool's clock check: refuse what was issued after "now", where now is never earlier than the
   * greatest issued_at already seen (a clock set back cannot revive an old file); keep the greatest.
   */
  checkIssuedAt(issuedAt: unknown): number {
    expect(typeof issuedAt).toBe("string");
    const time = Date.parse(issuedAt as string);
    expect(Number.isNaN(time)).toBe(false);
    expect(time).toBeLessThanOrEqual(Math.max(Date.now(), this.lastSeen));
    this.lastSeen = Math.max(this.lastSeen, time);
    return time;
  }

  /** A license file: Ed25519 over the ASCII bytes of the payload string, with the key its kid names. */
  verifyLicenseFile(file: Json): Json {
    // The file's own fields (the file endpoint's answer adds the answer's issued_at and nonce beside them).
    expect(file).toMatchObject({ format: "license/1", kid: expect.any(String), signature: expect.any(String) });
    expect(file.payload).toMatch(/^[A-Za-z0-9_-]+$/);
    const publicKey = this.keys.get(file.kid);
    expect(publicKey, `kid ${file.kid} is published at /api/v1/keys`).toBeDefined();
    const signature = Buffer.from(String(file.signature).replace(/-/g, "+").replace(/_/g, "/"), "base64");
    expect(opensslVerifies(publicKey!, Buffer.from(file.payload, "ascii"), signature)).toBe(true);
    const payload = JSON.parse(Buffer.from(file.payload, "base64url").toString("utf8")) as Json;
    this.checkIssuedAt(payload.issued_at);
    expect(Date.parse(payload.refresh_by)).toBeGreaterThan(Date.parse(payload.issued_at));
    expect(Date.parse(payload.refresh_by)).toBeLessThanOrEqual(Date.parse(payload.end_date));
    return payload;
  }

  async call(method: "validate" | "activate", key: string, machine: Partial<typeof MACHINE> = {}) {
    const nonce = randomBytes(16).toString("base64url");
    const sent = Date.now();
    const response = await this.request.post(`/api/v1/licenses/${method}`, { data: { key, nonce, ...machine } });
    expect(response.status()).toBe(200);
    const answer = await this.signed(response, nonce);
    // A fresh answer to this request: the nonce is ours and it was issued after we asked.
    expect(Date.parse(answer.issued_at)).toBeGreaterThanOrEqual(sent);
    return answer;
  }

  validate(key: string, machine: Partial<typeof MACHINE> = {}) {
    return this.call("validate", key, machine);
  }

  activate(key: string, machine: typeof MACHINE) {
    return this.call("activate", key, machine);
  }

  async downloadFile(key: string): Promise<{ status: number; body: Json }> {
    const nonce = randomBytes(16).toString("base64url");
    const response = await this.request.get(
      `/api/v1/licenses/file?key=${encodeURIComponent(key)}&nonce=${encodeURIComponent(nonce)}`,
    );
    return { status: response.status(), body: await this.signed(response, nonce) };
  }
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Buys one plan through the demo checkout on /pricing and waits for the success page. */
async function buy(page: Page, plan: "monthly" | "yearly", button: string, pay: string): Promise<void> {
  await page.goto("/pricing");
  await page.getByTestId(`plan-${plan}`).getByRole("button", { name: button }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=/);
}

async function shownKey(page: Page, type: "Monthly" | "Yearly"): Promise<string> {
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: `${type} license` });
  await expect(card.getByTestId("license-key")).toBeVisible();
  return (await card.getByTestId("license-key").innerText()).trim();
}

test.describe("the desktop tool's license API", () => {
  test("activate, validate and download a signed license file; an old key resolves; a refund request is seen", async ({
    page,
    request,
  }, info) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("desktop-tool", info.project.name);
    await registerAndConfirm(page, email);
    // The first purchase uses the trial; the second is a paid yearly plan that can be refunded.
    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    await buy(page, "yearly", "Choose Yearly", "Pay $90");
    const keyBeforeActivation = await shownKey(page, "Yearly");

    const tool = new Tool(request);
    await tool.fetchKeys();

    const before = await tool.validate(keyBeforeActivation);
    expect(before).toMatchObject({ valid: true, code: "VALID", detail: expect.any(String) });
    expect(before.license).toMatchObject({
      license_type: "yearly",
      status: "active",
      is_trial: false,
      auto_renew: true,
      windows_username: null,
      computer_name: null,
      license_key: keyBeforeActivation,
    });
    const licenseId = before.license.id as string;

    // Activation binds the machine, regenerates the key and hands over a signed license file.
    const activated = await tool.activate(keyBeforeActivation, MACHINE);
    expect(activated).toMatchObject({ valid: true, code: "VALID" });
    expect(activated.license).toMatchObject({ id: licenseId, ...MACHINE, status: "active" });
    const currentKey = activated.license.license_key as string;
    expect(currentKey).toEqual(expect.any(String));
    expect(currentKey).not.toBe(keyBeforeActivation);
    const activationFile = tool.verifyLicenseFile(activated.license_file);
    expect(activationFile).toMatchObject({
      email,
      license_type: "yearly",
      ...MACHINE,
      is_trial: false,
      start_date: activated.license.start_date,
      end_date: activated.license.end_date,
    });
    expect(Object.values(activationFile)).toContain(licenseId);

    // The same machine again is a success with the same key; another machine is refused.
    const again = await tool.activate(currentKey, MACHINE);
    expect(again).toMatchObject({ valid: true, code: "VALID", license: { id: licenseId, license_key: currentKey } });
    const elsewhere = await tool.activate(currentKey, OTHER_MACHINE);
    expect(elsewhere).toMatchObject({ valid: false, code: "MACHINE_MISMATCH", license: { id: licenseId, ...MACHINE } });
    expect(elsewhere.license.license_key ?? null).toBeNull();

    expect(await tool.validate(currentKey, MACHINE)).toMatchObject({
      valid: true,
      code: "VALID",
      license: { id: licenseId, license_key: currentKey },
    });
    expect(await tool.validate(currentKey, { computer_name: OTHER_MACHINE.computer_name })).toMatchObject({
      valid: false,
      code: "MACHINE_MISMATCH",
    });

    // The key from before activation still identifies the license: its current state and key.
    expect(await tool.validate(keyBeforeActivation, MACHINE)).toMatchObject({
      valid: true,
      code: "VALID",
      license: { id: licenseId, ...MACHINE, license_key: currentKey },
    });

    // A well-formed key the site never issued.
    const unknown = await tool.validate(`${randomBytes(16).toString("base64")}:${randomBytes(64).toString("base64")}`);
    expect(unknown).toMatchObject({ valid: false, code: "NOT_FOUND", license: null });

    // The license file for offline use, signed, and the answer that carries it signed too.
    const download = await tool.downloadFile(currentKey);
    expect(download.status).toBe(200);
    const payload = tool.verifyLicenseFile(download.body);
    expect(payload).toMatchObject({ email, license_type: "yearly", ...MACHINE, end_date: activated.license.end_date });

    // The licenses page shows what the tool did: the machine bound once, the new key.
    await page.goto("/licenses");
    const card = page.getByTestId("license-card").filter({ hasText: "Yearly license" });
    await expect(card.getByTestId("windows-username")).toHaveText(MACHINE.windows_username);
    await expect(card.getByTestId("computer-name")).toHaveText(MACHINE.computer_name);
    await expect(card.getByTestId("license-key")).toHaveText(currentKey);
    await expect(card.getByRole("button", { name: "Set offline data" })).toHaveCount(0);
    // The owner's "Download license file" gives a file the tool verifies the same way.
    const [saved] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("link", { name: "Download license file" }).click(),
    ]);
    const pageFile = JSON.parse(fs.readFileSync((await saved.path())!, "utf8")) as Json;
    expect(tool.verifyLicenseFile(pageFile)).toMatchObject({ email, ...MACHINE, end_date: activated.license.end_date });

    // The owner asks for a refund in the browser: the tool's very next answer says so, for both keys.
    await card.getByRole("button", { name: "Request Refund" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Request refund" }).click();
    await expect(toast(page, "Refund Requested")).toBeVisible();
    for (const key of [currentKey, keyBeforeActivation]) {
      const refunding = await tool.validate(key, MACHINE);
      expect(refunding).toMatchObject({ valid: false, code: "REFUND_REQUESTED", license: { id: licenseId } });
      expect(refunding.license.license_key ?? null).toBeNull();
    }
    // No license file while the refund is pending: 409 with the code, signed like every answer.
    const refused = await tool.downloadFile(currentKey);
    expect(refused).toMatchObject({ status: 409, body: { code: "REFUND_REQUESTED", error: expect.any(String) } });
    expect(refused.body.format).toBeUndefined();

    // The demo provider approves the refund a few seconds later; the tool then sees REFUNDED.
    await expect
      .poll(async () => (await tool.validate(currentKey, MACHINE)).code, { timeout: 30_000, intervals: [2_000] })
      .toBe("REFUNDED");
  });

  test("an admin revokes another user's license and the tool holding its key sees REVOKED", async ({
    page,
    request,
    signIn,
  }, info) => {
    test.setTimeout(90_000);
    const name = `Tool Owner ${info.project.name} ${Date.now().toString(36)}`;
    const email = uniqueEmail("desktop-revoked", info.project.name);
    await registerAndConfirm(page, email, "secret-pass-1", name);
    await buy(page, "monthly", "Start 7-day free trial", "Start free trial");
    const key = await shownKey(page, "Monthly");
    await logOut(page);

    const tool = new Tool(request);
    await tool.fetchKeys();
    const trial = await tool.validate(key);
    expect(trial).toMatchObject({
      valid: true,
      code: "VALID",
      license: { license_type: "monthly", is_trial: true, trial_ends_at: expect.any(String), license_key: key },
    });

    await signIn(DEMO_ADMIN);
    await page.goto("/admin?tab=users");
    await page.getByLabel("Search users").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: `Open ${name}` }).click();
    const license = page.getByTestId("admin-license");
    await expect(license).toHaveCount(1);
    await license.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByLabel("Reason (kept in the audit log)").fill("Test of the desktop API");
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke license" }).click();
    await expect(toast(page, "License revoked")).toBeVisible();
    await expect(license).toHaveAttribute("data-license-status", "revoked");

    const revoked = await tool.validate(key);
    expect(revoked).toMatchObject({
      valid: false,
      code: "REVOKED",
      license: { id: trial.license.id, status: "revoked" },
    });
    expect(revoked.license.license_key ?? null).toBeNull();
    expect(await tool.activate(key, MACHINE)).toMatchObject({ valid: false, code: "REVOKED" });
    expect(await tool.downloadFile(key)).toMatchObject({ status: 409, body: { code: "REVOKED" } });
  });
});
