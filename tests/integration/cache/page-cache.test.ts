import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formPost, rawRequest, signIn } from "../../support/raw-http";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";

// Apart from the other suites' ports (4300 e2e, 4310–4349 resilience and hardening, 4391 run modes).
const PORT = 4393;

/** GET as a client that may send cookies and an Accept-Encoding; the body decoded. */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A page until the cache answers it (the first answer is rendered, then stored). */
async function untilHit(path: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 50; i++) {
    const answer = await get(path, headers);
    if (answer.headers.get("x-cache") === "HIT") return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never came from the cache`);
}

const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, "");

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc=/.test(m[1]!) && m[2]!.length > 0)
    .map((m) => m[2]!);
}

describe("the page cache for anonymous visitors", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // The proxy's country header is configured: /pricing is kept per country (decision 0072).
    server = await startServer({ port: PORT, dataDir: tempDir("fk-cache-"), env: { COUNTRY_HEADER: "CF-IPCountry" } });
  }, 120_000);
  afterAll(async () => server?.stop());

  it("renders a public page once, then serves it from memory, compressed as the client accepts", async () => {
    const first = await get("/download");
    expect(first.headers.get("x-cache")).toBe("MISS");
    const hit = await untilHit("/download");
    // The same page (each render has its own nonce attribute; the cached one keeps one that its CSP ignores).
    expect(withoutNonces(hit.body)).toBe(withoutNonces(first.body));
    expect(hit.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    expect(hit.headers.get("vary")).toBe("Accept-Encoding, Cookie");

    for (const [accept, coding] of [
      ["br", "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const raw = await rawRequest({
        port: PORT,
        method: "GET",
        path: "/download",
        headers: { "Accept-Encoding": accept },
      });
      expect(raw.headers["x-cache"]).toBe("HIT");
      expect(raw.headers["content-encoding"] ?? null).toBe(coding);
    }
    const brotli = await fetch(`http://127.0.0.1:${PORT}/download`, { headers: { "Accept-Encoding": "br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(withoutNonces(await brotli.text())).toBe(withoutNonces(first.body));
    const gzipped = await fetch(`http://127.0.0.1:${PORT}/download`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(withoutNonces(await gzipped.text())).toBe(withoutNonces(first.body));
  });

  it("answers a matching If-None-Match with 304 and no body", async () => {
    const hit = await untilHit("/pricing");
    const etag = hit.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get("/pricing", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
  });

  it("keeps /pricing once per country the proxy's header names, each in its own currency, varying on that header", async () => {
    const germany = await untilHit("/pricing", { "CF-IPCountry": "DE" });
    expect(germany.body).toContain("Germany: prices in EUR, including 19% tax.");
    expect(germany.body).toContain("€9.99");
    expect(germany.headers.get("vary")).toBe("Accept-Encoding, Cookie, CF-IPCountry");
    const japan = await untilHit("/pricing", { "CF-IPCountry": "JP" });
    expect(japan.body).toContain("¥1,400");
    expect(japan.body).not.toContain("€9.99");
    const unknown = await untilHit("/pricing", { "CF-IPCountry": "XX" });
    expect(unknown.body).toContain("Prices in US dollars.");
    // An unknown country and no header are the same page, kept once.
    expect((await get("/pricing")).headers.get("etag")).toBe(unknown.headers.get("etag"));
    // Another page does not depend on the country.
    await untilHit("/terms-of-service", { "CF-IPCountry": "DE" });
    expect((await get("/terms-of-service", { "CF-IPCountry": "JP" })).headers.get("x-cache")).toBe("HIT");
  });

  it("a page from the cache allows exactly its own inline scripts (by hash), a rendered one by its nonce", async () => {
    const rendered = await get("/contact");
    const csp = rendered.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const scriptNonces = [...rendered.body.matchAll(/<script\b[^>]*\bnonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));

    const hit = await untilHit("/contact");
    const policy = hit.headers.get("content-security-policy")!;
    expect(policy).not.toContain("'nonce-");
    const scripts = inlineScripts(hit.body);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(policy).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    }
    // The rest of the policy is the rendered page's.
    expect(policy.replace(/'sha256-[^']+'\s?/g, "")).toBe(csp.replace(/'nonce-[^']+'\s?/, ""));
  });

  it("a signed-in visitor never gets the cached anonymous page, and never fills the cache", async () => {
    const anonymous = await untilHit("/");
    expect(anonymous.body).not.toContain(">Licenses<");
    const cookie = await signIn(PORT, "demo@forgekit.example", "user-demo-1");
    const session = cookie
      .split("; ")
      .filter((c) => c.includes("session_token"))
      .join("; ");
    for (let i = 0; i < 3; i++) {
      const signedIn = await get("/", { Cookie: session });
      expect(signedIn.headers.get("x-cache")).toBeNull();
      expect(signedIn.body).toContain(">Licenses<");
      expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    }
    const stillAnonymous = await get("/");
    expect(stillAnonymous.headers.get("x-cache")).toBe("HIT");
    expect(stillAnonymous.body).not.toContain(">Licenses<");
  });

  it("a page with a toast waiting or a query string is rendered, not served from or stored in the cache", async () => {
    await untilHit("/release-notes");
    const withToast = await get("/release-notes", { Cookie: "fk_toast=anything" });
    expect(withToast.headers.get("x-cache")).toBeNull();
    const withQuery = await get("/release-notes?page=2");
    expect(withQuery.headers.get("x-cache")).toBeNull();
  });

  it("an admin's release change shows on /download at the very next request", async () => {
    const before = await untilHit("/download");
    const version = `7.${Date.now() % 1000}.1`;
    expect(before.body).not.toContain(version);
    const cookie = await signIn(PORT, "admin@forgekit.example", "admin-demo-1");
    const saved = await formPost(
      PORT,
      "/admin/releases",
      {
        intent: "save-release",
        version,
        title: "Cache test",
        release_date: "2030-01-01",
        release_notes: "Cached pages refresh",
        publish: "1",
      },
      { cookie },
    );
    expect(saved.status).toBe(200);
    const after = await get("/download");
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body).toContain(version);
  });
});
