import { randomInt } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_LIMIT, LARGE_BODY_LIMIT, tooLargeMessage } from "../../../server/body-limit";
import { TRUST_PROXY_UNSET_WARNING } from "../../../server/trust-proxy";
import { NOT_ALLOWED_CHARACTERS_MESSAGE } from "~/domain/text-input";
import { liveSignIn, postForm, send, startLiveServer, type LiveServer } from "../../support/live-server";
import { upload } from "../../support/stream-upload";
import { testEngines } from "../../support/test-app";

const DEMO_USER = { email: "demo@forgekit.example", password: "user-demo-1" };
const DEMO_ADMIN = { email: "admin@forgekit.example", password: "admin-demo-1" };
const MB = 1024 * 1024;

describe.each(testEngines())("HTTP hardening on a listening server (%s)", (engine) => {
  let server: LiveServer;
  let userCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    server = await startLiveServer(engine, { AUTH_RATE_LIMIT: "1000" });
    userCookie = await liveSignIn(server, DEMO_USER.email, DEMO_USER.password);
    adminCookie = await liveSignIn(server, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("body size limits", () => {
    it("refuses a declared 300 MB sign-in body with 413 before reading it, and cuts the connection", async () => {
      const before = server.rss();
      const result = await upload(server, "/login", { total: 300 * MB, chunked: false });
      expect(result.status).toBe(413);
      expect(result.response).toContain(tooLargeMessage(FORM_BODY_LIMIT));
      expect(result.response).toContain("at most 64 KB");
      // The answer came before a fifth of the body was written (the loopback's socket buffers, and
      // what a loaded machine's client writes while the server gets to it: 34 MB was seen), and the
      // server closed the connection rather than reading the rest.
      expect(result.sentBeforeAnswer).toBeLessThan(64 * MB);
      expect(result.closedByServer).toBe(true);
      expect(server.rss() - before).toBeLessThan(64 * MB);
    });

    it("cuts off a chunked body (no Content-Length) as soon as it passes the limit", async () => {
      const before = server.rss();
      const result = await upload(server, "/login", { total: 300 * MB, chunked: true });
      expect(result.status).toBe(413);
      expect(result.response).toContain(tooLargeMessage(FORM_BODY_LIMIT));
      expect(result.sentBeforeAnswer).toBeLessThan(64 * MB);
      expect(result.closedByServer).toBe(true);
      expect(server.rss() - before).toBeLessThan(64 * MB);
      // The server is still there and answering.
      expect((await send(server, "GET", "/healthz")).status).toBe(200);
    });

    it("applies to every post, the .data requests of scripted forms included", async () => {
      const big = "x".repeat(FORM_BODY_LIMIT + 1);
      for (const pathname of ["/register", "/profile", "/licenses.data", "/forgot-password", "/pricing"]) {
        const res = await postForm(server, pathname, { full_name: big }, { cookie: userCookie });
        expect(res.status, pathname).toBe(413);
        expect(res.body).toBe(tooLargeMessage(FORM_BODY_LIMIT));
      }
    });

    it("lets a form under the limit through to the action", async () => {
      const res = await postForm(server, "/login", { email: "a".repeat(FORM_BODY_LIMIT - 200), password: "x" });
      expect(res.status).toBe(400);
    });

    it("allows the webhook 1 MB and answers JSON above it", async () => {
      const headers = { "Content-Type": "application/json", "Paddle-Signature": "ts=1;h1=00" };
      const under = await send(server, "POST", "/api/webhooks/paddle", {
        headers,
        body: JSON.stringify({ pad: "x".repeat(LARGE_BODY_LIMIT - 100) }),
      });
      expect(under.status).not.toBe(413);
      expect(under.status).toBeLessThan(500);
      const over = await send(server, "POST", "/api/webhooks/paddle", {
        headers,
        body: JSON.stringify({ pad: "x".repeat(LARGE_BODY_LIMIT) }),
      });
      expect(over.status).toBe(413);
      expect(JSON.parse(over.body)).toEqual({ error: tooLargeMessage(LARGE_BODY_LIMIT) });
    });
  });

  describe("control characters in text fields", () => {
    const bad = ["\u0000", "\u0001", "\u001b[31m", "\u007f", "\u0085", "\n", "\t"];

    it.each(bad)("registration refuses %j in a name with 400 and a clear message", async (ch) => {
      const res = await postForm(server, "/register", {
        full_name: `Ada${ch}Lovelace`,
        email: `ada-${randomInt(1e9)}@example.com`,
        password: "secret-pass-1",
        company_name: "",
        terms: "on",
      });
      expect(res.status).toBe(400);
      expect(res.body).toContain("contains characters that are not allowed");
    });

    it("sign-in, profile, the release form and the admin search refuse NUL with 400", async () => {
      const login = await postForm(server, "/login", { email: "demo@forgekit.example\u0000", password: "x" });
      expect(login.status).toBe(400);
      expect(login.body).toContain("contains characters that are not allowed");

      const profile = await postForm(
        server,
        "/profile",
        { full_name: "Dana\u0000", company_name: "", email: DEMO_USER.email },
        { cookie: userCookie },
      );
      expect(profile.status).toBe(400);
      expect(profile.body).toContain("contains characters that are not allowed");

      const release = await postForm(
        server,
        "/admin/releases",
        [
          ["intent", "save-release"],
          ["version", "9.9.9"],
          ["title", ""],
          ["release_date", "2026-01-01"],
          ["release_notes", "Fixed\u0000things"],
        ],
        { cookie: adminCookie },
      );
      expect(release.status).toBe(400);
      expect(release.body).toContain("contains characters that are not allowed");

      const search = await send(server, "GET", "/admin/users?q=ada%00", { headers: { Cookie: adminCookie } });
      expect(search.status).toBe(400);
      expect(search.body).toContain(NOT_ALLOWED_CHARACTERS_MESSAGE);
      const searchData = await send(server, "GET", "/admin/users.data?q=%01", { headers: { Cookie: adminCookie } });
      expect(searchData.status).toBe(400);
    });

    it("release notes may span lines (tab, CR, LF) but not hold other control characters", async () => {
      const fields = (note: string): [string, string][] => [
        ["intent", "save-release"],
        ["version", `9.${randomInt(1e6)}.0`],
        ["title", ""],
        ["release_date", "2026-01-01"],
        ["release_notes", note],
      ];
      const ok = await postForm(server, "/admin/releases", fields("First line\r\n\tsecond line"), {
        cookie: adminCookie,
      });
      expect(ok.status).toBe(200);
      const bell = await postForm(server, "/admin/releases", fields("Ding\u0007"), { cookie: adminCookie });
      expect(bell.status).toBe(400);
    });

    it.each([
      "/licenses\r\nX-Injected: 1",
      "/licenses\u0000",
      "/%0d%0aX-Injected:%201",
      "/%09/evil.example",
      "//evil.example",
    ])("a sign-in with redirectTo %j signs in and goes to /", async (redirectTo) => {
      const res = await postForm(server, "/login", {
        email: DEMO_USER.email,
        password: DEMO_USER.password,
        redirectTo,
      });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe("/");
      expect(res.headers["x-injected"]).toBeUndefined();
    });
  });

  describe("caching of private pages", () => {
    it.each([
      "/licenses",
      "/profile",
      "/extend-license",
      "/success",
      "/",
      "/pricing",
      "/licenses.data",
      "/profile.data",
      "/_root.data",
    ])("%s for a signed-in user is private, no-store", async (pathname) => {
      const res = await send(server, "GET", pathname, { headers: { Cookie: userCookie } });
      expect(res.status).toBeLessThan(500);
      expect(res.headers["cache-control"]).toBe("private, no-store");
    });

    it("/admin and its data for an admin are private, no-store", async () => {
      for (const pathname of ["/admin", "/admin.data", "/admin?q=dana"]) {
        const res = await send(server, "GET", pathname, { headers: { Cookie: adminCookie } });
        expect(res.status, pathname).toBe(200);
        expect(res.headers["cache-control"], pathname).toBe("private, no-store");
      }
    });

    it("private pages say no-store even without a session (the mailbox has none; the others redirect)", async () => {
      for (const pathname of ["/dev/mailbox", "/dev/mailbox.data", "/licenses", "/admin", "/profile.data"]) {
        const res = await send(server, "GET", pathname);
        expect(res.headers["cache-control"], pathname).toBe("private, no-store");
      }
    });

    it("public pages for visitors and hashed assets for everyone stay cacheable", async () => {
      const home = await send(server, "GET", "/");
      expect(home.headers["cache-control"] ?? "").not.toContain("no-store");
      const asset = fs
        .readdirSync(`${process.env.BUILD_DIR ?? "build-test"}/client/assets`)
        .find((name) => name.endsWith(".js"))!;
      const res = await send(server, "GET", `/assets/${asset}`, { headers: { Cookie: userCookie } });
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toContain("immutable");
    });
  });

  it("sends a registration's Better Auth confirmation link to the confirmation page: no session from the link", async () => {
    const claims = Buffer.from(JSON.stringify({ email: "old-link@example.com" })).toString("base64url");
    const token = `e30.${claims}.sig`;
    const res = await send(server, "GET", `/api/auth/verify-email?token=${token}&callbackURL=%2Fpricing`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/email-confirmation?token=${token}&redirectTo=%2Fpricing`);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("sends Referrer-Policy strict-origin-when-cross-origin, so native form posts carry the site's Origin", async () => {
    const res = await send(server, "GET", "/login");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("warns once that TRUST_PROXY should be set when requests carry X-Forwarded-Proto", async () => {
    expect(server.output()).not.toContain("TRUST_PROXY is not set");
    for (let i = 0; i < 3; i++) await send(server, "GET", "/healthz", { headers: { "X-Forwarded-Proto": "https" } });
    await expect.poll(() => server.output().split(TRUST_PROXY_UNSET_WARNING).length - 1).toBe(1);
    await send(server, "GET", "/", { headers: { "X-Forwarded-Proto": "https" } });
    expect(server.output().split(TRUST_PROXY_UNSET_WARNING).length - 1).toBe(1);
  });
});
