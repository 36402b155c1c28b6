import { expect, test } from "./support";

test.describe("server", () => {
  test("rendered pages carry a CSP with a per-request nonce and no unsafe-inline scripts", async ({ request }) => {
    // /login is always rendered (the public pages an anonymous visitor gets from the page cache allow
    // their scripts by hash instead: the next test).
    const first = await request.get("/login");
    const second = await request.get("/login");
    expect(first.status()).toBe(200);
    const csp = first.headers()["content-security-policy"]!;
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src"))!;
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(second.headers()["content-security-policy"]).not.toBe(csp);
    const html = await first.text();
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1]!;
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("a public page from the page cache allows its inline scripts by hash, never unsafe-inline", async ({
    request,
  }) => {
    let cached = await request.get("/");
    for (let i = 0; i < 20 && cached.headers()["x-cache"] !== "HIT"; i++) cached = await request.get("/");
    expect(cached.headers()["x-cache"]).toBe("HIT");
    const scriptSrc = cached
      .headers()
      ["content-security-policy"]!.split(";")
      .find((d) => d.trim().startsWith("script-src"))!;
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("'nonce-");
    expect(cached.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("health and readiness", async ({ request }) => {
    expect((await request.get("/healthz")).status()).toBe(200);
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
  });

  test("hashed assets are cached for a year and responses are compressed", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    const response = await request.get(asset, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers()["cache-control"]).toContain("immutable");
    expect(response.headers()["cache-control"]).toContain("max-age=31536000");
    const raw = await fetch(new URL(asset, response.url()), { headers: { "Accept-Encoding": "gzip" } });
    expect(raw.headers.get("content-encoding")).toBe("gzip");
  });

  test("the demo download is a real zip archive", async ({ request }) => {
    const response = await request.get("/downloads/forgekit-latest.zip");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/zip");
    const body = await response.body();
    expect(body.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(body.includes(Buffer.from("README.txt"))).toBe(true);
  });

  test("an unknown path answers 404 with a way home", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/not found/i);
    await page.getByRole("link", { name: /return home/i }).click();
    await expect(page).toHaveURL("/");
  });
});
