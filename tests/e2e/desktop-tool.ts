import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { expect } from "./support";

// The desktop tool of the license API's end-to-end tests (desktop-api*.spec.ts): a client that checks
// every signature as a tool without Node would (OpenSSL's command line, the public key from
// /api/v1/keys chosen by the kid the answer names), and the customer's steps in the browser.

export const MACHINE = { windows_username: "CORP\\tool-user", computer_name: "TOOL-PC-1" };
export const OTHER_MACHINE = { windows_username: "CORP\\someone-else", computer_name: "OTHER-PC-9" };

export type Json = Record<string, any>;

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
export class Tool {
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

  /** A POST to any API path with a fresh nonce: the signed answer and its status. */
  async post(path: string, body: Json): Promise<{ status: number; json: Json }> {
    const nonce = randomBytes(16).toString("base64url");
    const response = await this.request.post(`/api/v1${path}`, { data: { ...body, nonce } });
    return { status: response.status(), json: await this.signed(response, nonce) };
  }

  validate(key: string, machine: Partial<typeof MACHINE> = {}) {
    return this.call("validate", key, machine);
  }

  activate(key: string, machine: typeof MACHINE) {
    return this.call("activate", key, machine);
  }

  async downloadFile(key: string, fingerprint?: string): Promise<{ status: number; body: Json }> {
    const nonce = randomBytes(16).toString("base64url");
    const bound = fingerprint ? `&fingerprint=${encodeURIComponent(fingerprint)}` : "";
    const response = await this.request.get(
      `/api/v1/licenses/file?key=${encodeURIComponent(key)}&nonce=${encodeURIComponent(nonce)}${bound}`,
    );
    return { status: response.status(), body: await this.signed(response, nonce) };
  }
}

export const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Buys one plan through the demo checkout on /pricing and waits for the success page. */
export async function buy(page: Page, plan: "monthly" | "yearly", button: string, pay: string): Promise<void> {
  await page.goto("/pricing");
  await page.getByTestId(`plan-${plan}`).getByRole("button", { name: button }).click();
  await page.getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: pay }).click();
  await expect(page).toHaveURL(/\/success\?transactionId=/);
}

export async function shownKey(page: Page, type: "Monthly" | "Yearly"): Promise<string> {
  await page.goto("/licenses");
  const card = page.getByTestId("license-card").filter({ hasText: `${type} license` });
  await expect(card.getByTestId("license-key")).toBeVisible();
  return (await card.getByTestId("license-key").innerText()).trim();
}
