import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { SessionRef } from "~/server/cache/signed-in-answers.server";
import {
  createSignedInPageCache,
  MAX_AGE_MS,
  type SignedInPageCache,
} from "~/server/cache/signed-in-page-cache.server";

// The signed-in page cache's rules against a real HTTP server and Express, with a page that says how
// often it was rendered; sessions, the clock and what the route allows are the test's (`site`).
export const COOKIES = { sessionToken: "fk.session_token", sessionData: "fk.session_data" };
const T0 = Date.UTC(2026, 5, 15, 12);

/** What the tests set and read: the clock, renders so far, what the route allows, the running site. */
export const site = {
  clock: T0,
  renders: 0,
  /** What the page's loader allows (ms from now), or undefined: the route does not allow it. */
  allowFor: (10 * MAX_AGE_MS) as number | undefined,
  setCookie: false,
  sessions: new Map<string, SessionRef>(),
  cache: undefined as unknown as SignedInPageCache,
  server: undefined as unknown as http.Server,
  base: "",
};

export function session(token: string, userId: string): SessionRef {
  const ref = { user: { id: userId } };
  site.sessions.set(token, ref);
  return ref;
}

export async function get(path: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(site.base + path, {
    headers: {
      "Accept-Encoding": "gzip, br",
      ...(token ? { Cookie: `${COOKIES.sessionToken}=${token}` } : {}),
      ...headers,
    },
  });
  return { cache: response.headers.get("x-cache"), body: await response.text(), headers: response.headers };
}

/** Until the page's answer is kept (compression finishes after the answer went out). */
export async function stored(path: string, token: string) {
  const before = site.cache.size();
  const first = await get(path, token);
  for (let i = 0; i < 100 && site.cache.size() === before; i++) await new Promise((r) => setTimeout(r, 5));
  return first;
}

/** Express behind the cache, as server/app.ts mounts it, on a real HTTP server. */
export async function startSite(maxBytes?: number) {
  const app = express();
  const pageCache = createSignedInPageCache({
    cookies: COOKIES,
    session: (token) => site.sessions.get(token) ?? null,
    now: () => site.clock,
    maxBytes,
  });
  app.use(pageCache.mark);
  app.use(pageCache.capture);
  const page = (req: express.Request, res: express.Response) => {
    site.renders++;
    if (site.allowFor !== undefined) res.locals.reuseUntil = site.clock + site.allowFor;
    if (site.setCookie) res.setHeader("Set-Cookie", "fk.session_token=refreshed");
    if (req.path.startsWith("/admin")) res.locals.reuseShared = true;
    if (req.path.endsWith(".data")) res.type("text/x-script").send(`data ${site.renders}`);
    else res.type("html").send(`<!doctype html><p>render ${site.renders} for ${req.headers.cookie}</p>`);
  };
  app.get(["/licenses", "/licenses.data", "/admin", "/elsewhere"], page);
  app.post(["/licenses", "/admin/users/:userId"], (_req, res) => {
    res.send("changed");
  });
  const listener = http.createServer((req, res) => {
    if (!pageCache.serve(req, res, "test")) app(req, res);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { cache: pageCache, server: listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}` };
}

/** Starts the site (the test file runs it before its tests). */
export async function openSite() {
  ({ cache: site.cache, server: site.server, base: site.base } = await startSite());
}

/** Stops the site (after the file's tests). */
export function closeSite() {
  return new Promise<void>((resolve) => site.server.close(() => resolve()));
}

/** A clean state for each test: nothing remembered, no session, the clock at T0, the defaults. */
export function resetSite() {
  site.cache.forgetAll();
  site.sessions.clear();
  site.clock = T0;
  site.allowFor = 10 * MAX_AGE_MS;
  site.setCookie = false;
}
