import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test, DEMO_ADMIN } from "./support";

// Events for the vendor's systems (decision 0044): an admin adds a webhook endpoint on /admin/webhooks (a
// receiver this test starts on 127.0.0.1), a CI job publishes a release, and the endpoint receives a
// signed release.published that the page lists as delivered; "Redeliver" sends it again.

const SHOTS = process.env.RELEASE_SHOTS_DIR;

async function startReceiver() {
  const received: { signature: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ signature: String(req.headers["webhook-signature"]), body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/forgekit`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function createToken(page: Page, name: string): Promise<string> {
  await page.goto("/admin/tokens");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toHaveText(/^fkt_/);
  return (await shown.textContent())!.trim();
}

test.describe("webhooks", () => {
  test("an admin adds an endpoint, sees its secret once, and a published release is delivered signed and redelivered", async ({
    page,
    signIn,
    request,
  }, info) => {
    test.setTimeout(120_000);
    const receiver = await startReceiver();
    try {
      await signIn(DEMO_ADMIN, "/admin");
      await page.getByRole("link", { name: "Webhooks" }).click();
      await expect(page).toHaveURL("/admin/webhooks");
      // Bad input first: an unknown scheme is refused by field, nothing added.
      await page.getByLabel("URL").fill("ftp://example.com/x");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect(page.getByText("The URL must start with https://.").first()).toBeVisible();

      await page.getByLabel("URL").fill(receiver.url);
      for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
      await page.getByRole("checkbox", { name: /release\.published/ }).check();
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const shown = page.getByTestId("new-webhook-secret");
      await expect(shown).toHaveText(/^whsec_/);
      const secret = (await shown.textContent())!.trim();
      const row = page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url });
      await expect(row).toContainText("Enabled");
      await expect(row).toContainText("release.published");
      await expect(row).not.toContainText(secret);

      const token = await createToken(page, `Webhook CI ${info.project.name} ${Date.now().toString(36)}`);
      const version = `7.${Date.now() % 1_000_000}.0-beta.1`;
      const auth = { Authorization: `Bearer ${token}` };
      const created = await request.post("/api/v1/releases", {
        headers: auth,
        data: {
          version,
          title: null,
          notes: ["Webhook test"],
          channel: "beta",
          download_url: "https://downloads.example.com/forgekit-beta.zip",
          size: 1234,
          sha256: "cd".repeat(32),
          published: true,
        },
      });
      expect(created.status()).toBe(201);
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
      const [got] = receiver.received;
      const body = JSON.parse(got!.body);
      expect(body).toMatchObject({ type: "release.published", data: { release: { version, channel: "beta" } } });
      const [, ts, h1] = /^ts=(\d+);h1=([0-9a-f]{64})$/.exec(got!.signature)!;
      expect(createHmac("sha256", secret).update(`${ts}:${got!.body}`).digest("hex")).toBe(h1);
      await request.patch(`/api/v1/releases/${version}`, { data: { published: false }, headers: auth });

      await page.goto("/admin/webhooks");
      const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url });
      await endpoint.getByText(/^Deliveries/).click();
      const delivery = endpoint.getByTestId("webhook-delivery").first();
      await expect(delivery).toContainText("200");
      await expect(delivery).toContainText("release.published");
      await expect(delivery).toContainText("thanks");
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `webhooks-${info.project.name}.png`), fullPage: true });

      await delivery.getByRole("button", { name: "Redeliver" }).click();
      await expect(page.getByText("Redelivery queued").first()).toBeVisible();
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
      expect(JSON.parse(receiver.received[1]!.body).id).toBe(body.id);
      await page.reload();
      await endpoint.getByText(/^Deliveries/).click();
      await expect(endpoint.getByTestId("webhook-delivery").filter({ hasText: "redelivery" })).toHaveCount(1);

      // Deleted (asked first), it is gone from the page.
      await endpoint.getByRole("button", { name: `Delete ${receiver.url}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      await expect(page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url })).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });
});

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
