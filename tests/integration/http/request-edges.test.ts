import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATH_CONTROL_CHARACTER_MESSAGE } from "~/domain/url-encoding";
import { DEMO_ACCOUNTS } from "~/server/seed.server";
import { FOREIGN_ORIGIN_MESSAGE } from "../../../server/origin-guard";
import { liveSignIn, send, startLiveServer, type LiveServer } from "../../support/live-server";
import { actionRoutes } from "../../support/route-table";
import { testEngines } from "../../support/test-app";

// Requests at the edges of the built server (decision 0055): a write from another origin is refused
// for every route with an action, and a control character in the path is a 400, site and desktop API.

const [ADMIN, USER] = DEMO_ACCOUNTS;
const UUID = "0b0f7a52-6d2c-4a6e-9d1e-2f1f4c3b5a69";
/** Where browsers send requests: PUBLIC_URL, behind a TLS-terminating proxy (TRUST_PROXY=1). */
const PUBLIC_URL = "https://shop.example.com";
/** Server-to-server endpoints, signed or with a secret: a foreign Origin is not their concern. */
const SIGNED = ["/api/webhooks/paddle", "/api/demo/renew"];

/** Ways a page of another origin's write shows itself (Origin, or without it, Sec-Fetch-Site or Referer). */
const FOREIGN: Record<string, string>[] = [
  { Origin: "http://evil.example" },
  { Origin: "https://billing.shop.example.com" },
  { Origin: "null" },
  { Origin: "::not a url::" },
  { "Sec-Fetch-Site": "cross-site" },
  { "Sec-Fetch-Site": "same-site" },
  { Referer: "https://evil.example/page" },
];

describe.each(testEngines())("requests at the edges (%s, the built server)", (engine) => {
  let server: LiveServer;
  let userCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    server = await startLiveServer(engine, { AUTH_RATE_LIMIT: "100000", PUBLIC_URL, TRUST_PROXY: "1" });
    userCookie = await liveSignIn(server, USER!.email, USER!.password);
    adminCookie = await liveSignIn(server, ADMIN!.email, ADMIN!.password);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  const post = (pathname: string, headers: Record<string, string>, fields: Record<string, string> = {}) =>
    send(server, "POST", pathname, {
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  /** The profile page as the demo user sees it (its billing details form shows the stored name). */
  const profile = async () => {
    const page = await send(server, "GET", "/profile", { headers: { Cookie: userCookie } });
    expect(page.status).toBe(200);
    return page.body;
  };

  it(
    "refuses a write from another origin with 403 on every route with an action, pages and .data alike",
    { timeout: 180_000 },
    async () => {
      const routes = actionRoutes().map((route) => route.replace(/:[A-Za-z]+/g, UUID));
      expect(routes).toEqual(
        expect.arrayContaining([
          "/profile/billing-details",
          "/profile/reminders",
          "/licenses/machines/deactivate",
          "/billing/payment-method",
          `/admin/users/${UUID}/machines`,
          "/login/oauth",
        ]),
      );
      for (const route of routes.filter((r) => !SIGNED.includes(r))) {
        const cookie = route.startsWith("/admin") ? adminCookie : userCookie;
        for (const [i, foreign] of FOREIGN.entries()) {
          for (const method of i === 0 ? ["POST", "PUT", "PATCH", "DELETE"] : ["POST"]) {
            const answer = await send(server, method, route, {
              headers: { ...foreign, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
              body: "intent=x",
            });
            const what = `${method} ${route} with ${JSON.stringify(foreign)}`;
            expect([answer.status, answer.body], what).toEqual([403, FOREIGN_ORIGIN_MESSAGE]);
          }
        }
        const data = await post(`${route}.data`, { Origin: "http://evil.example", Cookie: cookie });
        expect([data.status, data.body], `${route}.data`).toEqual([403, FOREIGN_ORIGIN_MESSAGE]);
        // The same post from the site itself reaches the route (whatever the route then answers); signing
        // out is tried signed out, so that the session stays.
        const own: Record<string, string> = route === "/logout" ? {} : { Cookie: cookie };
        const sites: Record<string, string>[] = [
          { Origin: PUBLIC_URL },
          { Origin: server.url },
          { "Sec-Fetch-Site": "same-origin" },
          {},
        ];
        for (const site of sites) {
          const answer = await post(route, { ...site, ...own }, { intent: "x" });
          expect(answer.body, `${route} with ${JSON.stringify(site)}`).not.toBe(FOREIGN_ORIGIN_MESSAGE);
        }
      }
    },
  );

  it("a sibling origin cannot change the billing name; the site's own form can, with or without Origin", async () => {
    const sibling = await post(
      "/profile/billing-details",
      { Origin: "https://billing.shop.example.com", Cookie: userCookie },
      { billing_name: "Mallory Ltd" },
    );
    expect(sibling.status).toBe(403);
    expect(await profile()).not.toContain("Mallory Ltd");
    // Through the proxy: the browser's Origin is PUBLIC_URL's, the Host the site's own address.
    const viaProxy = { Origin: PUBLIC_URL, "X-Forwarded-Proto": "https", Cookie: userCookie };
    const saved = await post("/profile/billing-details", viaProxy, { billing_name: "Acme GmbH" });
    expect([saved.status, saved.headers.location]).toEqual([302, "/profile#billing-details"]);
    expect(await profile()).toContain('value="Acme GmbH"');
    // No Origin (an old browser, a script): a same-origin Referer, or nothing at all.
    const withoutOrigin: Record<string, string>[] = [{ Referer: `${PUBLIC_URL}/profile` }, {}];
    for (const [i, headers] of withoutOrigin.entries()) {
      const answer = await post(
        "/profile/billing-details",
        { ...headers, Cookie: userCookie },
        { billing_name: `Acme ${i}` },
      );
      expect(answer.status, JSON.stringify(headers)).toBe(302);
      expect(await profile()).toContain(`value="Acme ${i}"`);
    }
  });

  it("leaves the signed endpoints and the desktop API to their own proof", async () => {
    for (const route of SIGNED) {
      const answer = await send(server, "POST", route, {
        headers: { Origin: "http://evil.example", "Content-Type": "application/json" },
        body: "{}",
      });
      expect(answer.body, route).not.toContain(FOREIGN_ORIGIN_MESSAGE);
      expect([400, 401, 404], route).toContain(answer.status);
    }
    const api = await send(server, "POST", "/api/v1/licenses/validate", {
      headers: { Origin: "http://evil.example", Cookie: userCookie, "Content-Type": "application/json" },
      body: JSON.stringify({ key: "some-key", nonce: "nonce-1234" }),
    });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers 400 to a control character in the path, site and desktop API (fast path included), never 500", async () => {
    const site = ["/licenses/%00/file", "/admin/users/%01", "/billing/invoices/%1F", "/%7F", "/team%0A"];
    for (const target of site) {
      for (const method of ["GET", "POST"]) {
        const answer = await send(server, method, target, { headers: { Cookie: adminCookie, Origin: PUBLIC_URL } });
        expect([answer.status, answer.body], `${method} ${target}`).toEqual([400, PATH_CONTROL_CHARACTER_MESSAGE]);
      }
    }
    const api: [string, string][] = [
      ["PATCH", "/api/v1/releases/%00"],
      ["GET", "/api/v1/releases/1.0.0%00"],
      ["POST", "/api/v1/licenses/validate%00"],
      ["GET", "/api/v1/keys%C2%85"],
    ];
    for (const [method, target] of api) {
      const answer = await send(server, method, target, {
        headers: { "Content-Type": "application/json", Authorization: "Bearer fk_x" },
        body: method === "GET" ? undefined : JSON.stringify({ nonce: "nonce-1234" }),
      });
      expect(answer.status, `${method} ${target}`).toBe(400);
      expect(answer.headers.signature, target).toBeTruthy();
      expect(JSON.parse(answer.body)).toMatchObject({ error: PATH_CONTROL_CHARACTER_MESSAGE, field: "address" });
    }
  });

  it("the invitation page (the team and the invited address) is never stored by a browser or proxy", async () => {
    for (const target of ["/team/invitation?token=abc", "/team/invitation.data?token=abc", "/team"]) {
      const answer = await send(server, "GET", target);
      expect(answer.headers["cache-control"], target).toBe("private, no-store");
    }
  });
});
