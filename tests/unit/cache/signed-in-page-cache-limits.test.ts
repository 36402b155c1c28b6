import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cacheablePath } from "~/server/cache/signed-in-answers.server";
import { MAX_AGE_MS } from "~/server/cache/signed-in-page-cache.server";
import {
  COOKIES,
  get,
  session,
  site,
  startSite,
  stored,
  closeSite,
  openSite,
  resetSite,
} from "../../support/signed-in-site";

beforeAll(openSite);
afterAll(closeSite);
beforeEach(resetSite);

describe("the signed-in page cache", () => {
  it("keeps a session's latest eight answers at most", async () => {
    session("staff", "admin-1");
    for (let i = 0; i < 12; i++) await stored(`/admin?tab=users&page=${i}`, "staff");
    expect(site.cache.size()).toBe(8);
    expect((await get("/admin?tab=users&page=11", "staff")).cache).toBe("HIT");
    expect((await get("/admin?tab=users&page=0", "staff")).cache).toBe("MISS");
  });

  it("reuses an answer only as long as the route allowed, and a minute at most", async () => {
    session("a", "user-1");
    site.allowFor = 5_000;
    await stored("/licenses", "a");
    site.clock += 4_999;
    expect((await get("/licenses", "a")).cache).toBe("HIT");
    site.clock += 1;
    expect((await get("/licenses", "a")).cache).toBe("MISS");

    site.cache.forgetAll();
    site.allowFor = 10 * MAX_AGE_MS;
    await stored("/licenses", "a");
    site.clock += MAX_AGE_MS;
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("keeps nothing the route did not allow, nor an answer that sets a cookie, nor a page not on its list", async () => {
    session("a", "user-1");
    site.allowFor = undefined;
    await get("/licenses", "a");
    site.allowFor = 10 * MAX_AGE_MS;
    site.setCookie = true;
    await get("/licenses", "a");
    site.setCookie = false;
    await get("/elsewhere", "a");
    await new Promise((r) => setTimeout(r, 50));
    expect(site.cache.size()).toBe(0);
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("is passed by a toast waiting, a query, a session-data cookie and a client without compression", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    const cookie = `${COOKIES.sessionToken}=a`;
    expect((await get("/licenses", undefined, { Cookie: `${cookie}; fk_toast=x` })).cache).toBeNull();
    expect((await get("/licenses", undefined, { Cookie: `${cookie}; fk.session_data=x` })).cache).toBeNull();
    expect((await get("/licenses?x=1", "a")).cache).toBeNull();
    expect((await get("/licenses", "a", { "Accept-Encoding": "identity" })).cache).toBeNull();
    expect((await get("/licenses", "a")).cache).toBe("HIT");
  });

  it("neither compresses nor keeps an answer for a client without compression, which memory never answers", async () => {
    session("a", "user-1");
    for (const accepts of ["identity", "br;q=0, gzip;q=0", ""]) {
      const plain = await get("/licenses", "a", { "Accept-Encoding": accepts });
      expect(plain.body).toContain("render");
      expect(plain.cache).toBeNull();
    }
    // Compression would have finished long before this (the next test's `stored` waits for it).
    await new Promise((r) => setTimeout(r, 100));
    expect(site.cache.size()).toBe(0);
    const rendersBefore = site.renders;
    expect((await stored("/licenses", "a")).cache).toBe("MISS");
    expect(site.renders).toBe(rendersBefore + 1);
    expect(site.cache.size()).toBe(1);
  });

  it("answers HEAD from memory but never keeps a HEAD's empty answer", async () => {
    session("a", "user-1");
    const head = await fetch(`${site.base}/licenses`, {
      method: "HEAD",
      headers: { Cookie: `${COOKIES.sessionToken}=a` },
    });
    expect(head.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(site.cache.size()).toBe(0);
    await stored("/licenses", "a");
    const cachedHead = await fetch(`${site.base}/licenses`, {
      method: "HEAD",
      headers: { Cookie: `${COOKIES.sessionToken}=a`, "Accept-Encoding": "gzip" },
    });
    expect(cachedHead.headers.get("x-cache")).toBe("HIT");
  });

  it("keeps within its memory bound, forgetting the oldest answers first", async () => {
    for (let i = 0; i < 4; i++) session(`s${i}`, `user-${i}`);
    const small = await startSite(5_000);
    try {
      const fetchAs = async (token: string) => {
        const response = await fetch(`${small.base}/licenses`, {
          headers: { Cookie: `${COOKIES.sessionToken}=${token}`, "Accept-Encoding": "gzip" },
        });
        await response.text();
        return response.headers.get("x-cache");
      };
      for (let i = 0; i < 4; i++) {
        await fetchAs(`s${i}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // Each answer counts about 2.3 KB (both encodings and the bookkeeping): two of four fit in 5,000.
      expect(small.cache.size()).toBeGreaterThan(0);
      expect(small.cache.size()).toBeLessThan(4);
      expect(await fetchAs("s3")).toBe("HIT");
      expect(await fetchAs("s0")).toBe("MISS");
    } finally {
      small.server.close();
    }
  });
});

describe("which signed-in requests may be answered from memory", () => {
  it.each([
    ["/licenses", true],
    ["/licenses.data", true],
    ["/licenses.data?_routes=routes%2Flicenses", true],
    ["/licenses.data?_routes=root,routes/licenses", true],
    ["/licenses.data?_routes=routes/licenses,x1", false],
    ["/licenses.data?_routes=routes%2Fbilling", false],
    ["/billing.data?_routes=routes%2Fbilling", true],
    ["/licenses.data?_routes=%E0%A4%A", false],
    ["/licenses?page=2", false],
    ["/licenses.data?_routes=x&y=1", false],
    ["/licenses/abc/file", false],
    ["/profile", true],
    ["/billing.data", true],
    ["/profile?two-factor=required", false],
    ["/admin", true],
    ["/admin.data?tab=users&q=dana%40example.com&page=2", true],
    ["/admin?tab=<script>", false],
    ["/admin/users.data?q=dana%40example.com&page=2", true],
    ["/admin/audit?action=license.revoke&page=3", true],
    ["/admin/releases", true],
    ["/admin/users?q=<script>", false],
    ["/admin/jobs", false],
    ["/admin/users/abc", false],
    ["/", false],
  ])("%s → %s", (path, cacheable) => {
    expect(cacheablePath(path)).toBe(cacheable);
  });
});
