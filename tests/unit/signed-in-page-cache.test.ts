import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cacheablePath, type SessionRef } from "~/server/cache/signed-in-answers.server";
import {
  createSignedInPageCache,
  MAX_AGE_MS,
  type SignedInPageCache,
} from "~/server/cache/signed-in-page-cache.server";

// The cache's rules against a real HTTP server and Express, with a page that says how often it was
// rendered; sessions, the clock and what the route allows are the test's.
const COOKIES = { sessionToken: "fk.session_token", sessionData: "fk.session_data" };
const T0 = Date.UTC(2026, 5, 15, 12);

let clock = T0;
let renders = 0;
/** What the page's loader allows (ms from now), or undefined: the route does not allow it. */
let allowFor: number | undefined = 10 * MAX_AGE_MS;
let setCookie = false;
const sessions = new Map<string, SessionRef>();
let cache: SignedInPageCache;
let server: http.Server;
let base = "";

function session(token: string, userId: string): SessionRef {
  const ref = { user: { id: userId } };
  sessions.set(token, ref);
  return ref;
}

async function get(path: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    headers: {
      "Accept-Encoding": "gzip, br",
      ...(token ? { Cookie: `${COOKIES.sessionToken}=${token}` } : {}),
      ...headers,
    },
  });
  return { cache: response.headers.get("x-cache"), body: await response.text(), headers: response.headers };
}

/** Until the page's answer is kept (compression finishes after the answer went out). */
async function stored(path: string, token: string) {
  const before = cache.size();
  const first = await get(path, token);
  for (let i = 0; i < 100 && cache.size() === before; i++) await new Promise((r) => setTimeout(r, 5));
  return first;
}

/** Express behind the cache, as server/app.ts mounts it, on a real HTTP server. */
async function startSite(maxBytes?: number) {
  const app = express();
  const site = createSignedInPageCache({
    cookies: COOKIES,
    session: (token) => sessions.get(token) ?? null,
    now: () => clock,
    maxBytes,
  });
  app.use(site.mark);
  app.use(site.capture);
  const page = (req: express.Request, res: express.Response) => {
    renders++;
    if (allowFor !== undefined) res.locals.reuseUntil = clock + allowFor;
    if (setCookie) res.setHeader("Set-Cookie", "fk.session_token=refreshed");
    if (req.path.startsWith("/admin")) res.locals.reuseShared = true;
    if (req.path.endsWith(".data")) res.type("text/x-script").send(`data ${renders}`);
    else res.type("html").send(`<!doctype html><p>render ${renders} for ${req.headers.cookie}</p>`);
  };
  app.get(["/licenses", "/licenses.data", "/admin", "/elsewhere"], page);
  app.post(["/licenses", "/admin/users/:userId"], (_req, res) => {
    res.send("changed");
  });
  const listener = http.createServer((req, res) => {
    if (!site.serve(req, res, "test")) app(req, res);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { cache: site, server: listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  ({ cache, server, base } = await startSite());
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  cache.forgetAll();
  sessions.clear();
  clock = T0;
  allowFor = 10 * MAX_AGE_MS;
  setCookie = false;
});

describe("the signed-in page cache", () => {
  it("renders a session's page once, then answers it from memory, compressed, never stored by the browser", async () => {
    session("a", "user-1");
    const first = await stored("/licenses", "a");
    expect(first.cache).toBe("MISS");
    const again = await get("/licenses", "a");
    expect(again.cache).toBe("HIT");
    expect(again.body).toBe(first.body);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(again.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    const data = await stored("/licenses.data", "a");
    expect((await get("/licenses.data", "a")).body).toBe(data.body);
  });

  it("answers each session only with its own pages", async () => {
    session("a", "user-1");
    session("b", "user-2");
    session("c", "user-1");
    await stored("/licenses", "a");
    const other = await get("/licenses", "b");
    expect(other.cache).toBe("MISS");
    expect(other.body).toContain("fk.session_token=b");
    // Another session of the same user: rendered for it.
    expect((await get("/licenses", "c")).cache).toBe("MISS");
    // No session, or one not remembered (signed out, expired): never from memory.
    expect((await get("/licenses")).cache).not.toBe("HIT");
    expect((await get("/licenses", "unknown")).cache).not.toBe("HIT");
  });

  it("forgets a page when the session it was rendered for changed or ended", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    // The session cache remembered the session again (a renamed user): a new object.
    session("a", "user-1");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    await stored("/licenses", "a");
    sessions.delete("a");
    expect((await get("/licenses", "a")).cache).not.toBe("HIT");
  });

  it("forgets a user's pages when their licenses change, and keeps the others'", async () => {
    session("a", "user-1");
    session("b", "user-2");
    await stored("/licenses", "a");
    await stored("/licenses", "b");
    cache.forgetUser("user-1");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });

  it("a page showing other users' data is forgotten by any user's change, and by a release change", async () => {
    session("staff", "admin-1");
    session("a", "user-1");
    await stored("/admin?tab=users&q=dana", "staff");
    await stored("/licenses", "a");
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("HIT");
    // A customer's change: their own pages and every shared page go; another user's own pages stay.
    session("b", "user-2");
    await stored("/licenses", "b");
    cache.forgetUser("user-1");
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
    await stored("/admin?tab=users&q=dana", "staff");
    cache.forgetShared();
    expect((await get("/admin?tab=users&q=dana", "staff")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });

  it("a form post of the user forgets their pages before it is handled", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    const posted = await fetch(`${base}/licenses`, {
      method: "POST",
      headers: { Cookie: `${COOKIES.sessionToken}=a` },
    });
    expect(await posted.text()).toBe("changed");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("an admin's action on a user's page forgets that user's pages too", async () => {
    const customerId = "0b5cdd0e-7c4f-4a53-8f6f-4f0e2d5a9c11";
    session("staff", "admin-1");
    session("a", customerId);
    session("b", "user-2");
    await stored("/licenses", "a");
    await stored("/licenses", "b");
    const posted = await fetch(`${base}/admin/users/${customerId}`, {
      method: "POST",
      headers: { Cookie: `${COOKIES.sessionToken}=staff` },
    });
    expect(await posted.text()).toBe("changed");
    expect((await get("/licenses", "a")).cache).toBe("MISS");
    expect((await get("/licenses", "b")).cache).toBe("HIT");
  });

  it("keeps a session's latest eight answers at most", async () => {
    session("staff", "admin-1");
    for (let i = 0; i < 12; i++) await stored(`/admin?tab=users&page=${i}`, "staff");
    expect(cache.size()).toBe(8);
    expect((await get("/admin?tab=users&page=11", "staff")).cache).toBe("HIT");
    expect((await get("/admin?tab=users&page=0", "staff")).cache).toBe("MISS");
  });

  it("reuses an answer only as long as the route allowed, and a minute at most", async () => {
    session("a", "user-1");
    allowFor = 5_000;
    await stored("/licenses", "a");
    clock += 4_999;
    expect((await get("/licenses", "a")).cache).toBe("HIT");
    clock += 1;
    expect((await get("/licenses", "a")).cache).toBe("MISS");

    cache.forgetAll();
    allowFor = 10 * MAX_AGE_MS;
    await stored("/licenses", "a");
    clock += MAX_AGE_MS;
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("keeps nothing the route did not allow, nor an answer that sets a cookie, nor a page not on its list", async () => {
    session("a", "user-1");
    allowFor = undefined;
    await get("/licenses", "a");
    allowFor = 10 * MAX_AGE_MS;
    setCookie = true;
    await get("/licenses", "a");
    setCookie = false;
    await get("/elsewhere", "a");
    await new Promise((r) => setTimeout(r, 50));
    expect(cache.size()).toBe(0);
    expect((await get("/licenses", "a")).cache).toBe("MISS");
  });

  it("is passed by a toast waiting, a query, a session-data cookie and a client without compression", async () => {
    session("a", "user-1");
    await stored("/licenses", "a");
    const cookie = `${COOKIES.sessionToken}=a`;
    expect((await get("/licenses", undefined, { Cookie: `${cookie}; fk_toast=x` })).cache).toBeNull();
    expect((await get("/licenses", undefined, { Cookie: `${cookie}; fk.session_data=x` })).cache).toBeNull();
    expect((await get("/licenses?x=1", "a")).cache).toBeNull();
    expect((await get("/licenses", "a", { "Accept-Encoding": "identity" })).cache).toBe("MISS");
    expect((await get("/licenses", "a")).cache).toBe("HIT");
  });

  it("answers HEAD from memory but never keeps a HEAD's empty answer", async () => {
    session("a", "user-1");
    const head = await fetch(`${base}/licenses`, { method: "HEAD", headers: { Cookie: `${COOKIES.sessionToken}=a` } });
    expect(head.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(cache.size()).toBe(0);
    await stored("/licenses", "a");
    const cachedHead = await fetch(`${base}/licenses`, {
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
    ["/admin/users/abc", false],
    ["/", false],
  ])("%s → %s", (path, cacheable) => {
    expect(cacheablePath(path)).toBe(cacheable);
  });
});
