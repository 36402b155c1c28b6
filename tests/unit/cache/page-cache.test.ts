import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chooseEncoding, inlineScriptHashes } from "~/server/cache/capture.server";
import { cacheKey } from "~/server/cache/page-cache.server";

const request = (
  path: string,
  { method = "GET", cookie, headers = {} }: { method?: string; cookie?: string; headers?: Record<string, string> } = {},
) => ({ method, url: path, path: path.split("?")[0], headers: { ...headers, ...(cookie ? { cookie } : {}) } }) as never;

describe("which requests the page cache may answer", () => {
  it.each([
    ["/", true],
    ["/download", true],
    ["/release-notes", true],
    ["/pricing", true],
    ["/licenses", false],
    ["/login", false],
    ["/download.data", false],
    ["/download?x=1", false],
    ["/assets/app.js", false],
  ])("%s → %s", (path, cacheable) => {
    expect(cacheKey(request(path)) !== null).toBe(cacheable);
  });

  it("never for a signed-in visitor or a visitor with a toast waiting", () => {
    expect(cacheKey(request("/", { cookie: "better-auth.session_token=abc" }))).toBeNull();
    expect(cacheKey(request("/", { cookie: "__Secure-better-auth.session_token=abc" }))).toBeNull();
    expect(cacheKey(request("/", { cookie: "fk_toast=xyz" }))).toBeNull();
    expect(cacheKey(request("/", { cookie: "theme=dark" }))).toBe("/");
  });

  it("only GET and HEAD", () => {
    expect(cacheKey(request("/", { method: "HEAD" }))).toBe("/");
    expect(cacheKey(request("/", { method: "POST" }))).toBeNull();
  });
});

describe("the pricing page, kept per country (decision 0072)", () => {
  const country = (code: string) => ({ headers: { "cf-ipcountry": code } });

  it("is one page per country the proxy's header names, and one for an unknown country", () => {
    expect(cacheKey(request("/pricing", country("DE")), "CF-IPCountry")).toBe("/pricing|DE");
    expect(cacheKey(request("/pricing", country("jp")), "CF-IPCountry")).toBe("/pricing|JP");
    expect(cacheKey(request("/pricing", country("XX")), "CF-IPCountry")).toBe("/pricing|");
    expect(cacheKey(request("/pricing"), "CF-IPCountry")).toBe("/pricing|");
  });

  it("is one page without a country header configured; other pages never depend on it", () => {
    expect(cacheKey(request("/pricing", country("DE")))).toBe("/pricing");
    expect(cacheKey(request("/", country("DE")), "CF-IPCountry")).toBe("/");
  });

  it("with ?country= is rendered every time (a query is never kept)", () => {
    expect(cacheKey(request("/pricing?country=DE"), "CF-IPCountry")).toBeNull();
  });
});

describe("content coding by Accept-Encoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=1", "br"],
    ["*", "br"],
    ["identity", "identity"],
    ["gzip;q=0, br;q=0", "identity"],
    [undefined, "identity"],
  ])("%s → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe("the CSP hashes of a page's inline scripts", () => {
  it("hashes each inline script's exact text, not external or empty ones", () => {
    const inline = 'window.__ctx = {"a":1};';
    const html = `<script nonce="n">${inline}</script><script type="module" src="/a.js"></script><script></script>`;
    const expected = `sha256-${createHash("sha256").update(inline).digest("base64")}`;
    expect(inlineScriptHashes(html)).toEqual([expected]);
  });
});
