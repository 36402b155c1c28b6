import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formPost, signIn } from "../../support/raw-http";
import { startServer, tempDir, type ServerProcess } from "../../support/server-process";

// The built site on the embedded database: a customer's /licenses and its data request from memory
// while nothing on them changed (decision 0028). Port apart from the other suites' (4393 page cache).
const PORT = 4394;
const DEMO = { email: "demo@forgekit.example", password: "user-demo-1" };
const ADMIN = { email: "admin@forgekit.example", password: "admin-demo-1" };

/** Only the session cookie: what a browser sends for a signed-in page. */
const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((c) => c.includes("session_token"))
    .join("; ");

/** GET as a browser does (gzip and brotli accepted), the body decoded. */
async function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    headers: { "Accept-Encoding": "gzip, br", ...(cookie ? { Cookie: cookie } : {}), ...headers },
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A page until it comes from memory (the first answers are rendered, then one is kept). */
async function untilHit(path: string, cookie: string) {
  for (let i = 0; i < 50; i++) {
    const answer = await get(path, cookie);
    if (answer.headers.get("x-cache") === "HIT") return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never came from memory`);
}

/** A page without what differs between two renders: the nonce and the moment it was rendered at. */
const comparable = (html: string) =>
  html.replace(/ nonce="[^"]*"/g, "").replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>");
const shortIds = (html: string) => new Set(html.match(/FK-[0-9A-Z]{4}-[0-9A-Z]{4}/g) ?? []);

describe("signed-in pages from memory", () => {
  let server: ServerProcess;
  let demo: string;
  beforeAll(async () => {
    server = await startServer({ port: PORT, dataDir: tempDir("fk-signed-in-cache-") });
    demo = sessionOnly(await signIn(PORT, DEMO.email, DEMO.password));
  }, 120_000);
  afterAll(async () => server?.stop());

  it("sends every license card in the page itself, each a piece React hydrates on its own", async () => {
    const { body } = await get("/licenses", demo, { "Accept-Encoding": "identity" });
    const cards = body.match(/data-testid="license-card"/g)?.length ?? 0;
    expect(cards).toBeGreaterThanOrEqual(5);
    // A Suspense boundary per card (decision 0083), finished in the page: none held back behind a script
    // (an empty place until it runs, nothing at all without JavaScript).
    expect(body.match(/<!--\$-->/g)?.length ?? 0).toBeGreaterThanOrEqual(cards);
    expect(body).not.toMatch(/<!--\$\?-->|<div hidden id="S:|\$RC\(/);
  });

  it("renders /licenses and its data once, then answers the same session from memory with the same page", async () => {
    const rendered = await get("/licenses", demo);
    expect(rendered.status).toBe(200);
    const hit = await untilHit("/licenses", demo);
    expect(comparable(hit.body)).toBe(comparable(rendered.body));
    expect(hit.headers.get("cache-control")).toBe("private, no-store");
    expect(hit.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    // Its inline scripts (the loader data) are allowed by their hashes: the stored nonce is inert.
    const policy = hit.headers.get("content-security-policy")!;
    expect(policy).not.toContain("'nonce-");
    const scripts = [...hit.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      (m) => !/\bsrc=/.test(m[1]!) && m[2]!.length > 0,
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, , content] of scripts)
      expect(policy).toContain(`'sha256-${createHash("sha256").update(content!).digest("base64")}'`);

    const data = await untilHit("/licenses.data", demo);
    expect(data.body).toContain(DEMO.email);
  });

  it("never answers another session, a signed-out visitor or a waiting toast with a page from memory", async () => {
    await untilHit("/licenses", demo);
    const admin = sessionOnly(await signIn(PORT, ADMIN.email, ADMIN.password));
    const theirs = await get("/licenses", admin);
    expect(theirs.headers.get("x-cache")).not.toBe("HIT");
    expect(theirs.body).not.toContain(DEMO.email);
    for (const id of shortIds((await get("/licenses", demo)).body)) expect(theirs.body).not.toContain(id);

    const anonymous = await get("/licenses");
    expect(anonymous.status).toBe(302);
    const toast = await get("/licenses", `${demo}; fk_toast=anything`);
    expect(toast.headers.get("x-cache")).not.toBe("HIT");
  });

  it("the customer's own change shows at the very next request", async () => {
    const before = await untilHit("/licenses", demo);
    // Before JavaScript, "Cancel auto-renewal" is a link to its confirmation page, naming the license.
    const renewing = /\/licenses\/confirm\?intent=cancel-renewal&amp;license=([0-9a-f-]{36})/.exec(before.body)?.[1];
    expect(renewing).toBeDefined();
    const cancelled = await formPost(
      PORT,
      "/licenses",
      { intent: "cancel-renewal", licenseId: renewing! },
      { cookie: demo },
    );
    expect(cancelled.status).toBe(200);
    const after = await get("/licenses", demo);
    // Rendered anew, not from memory: MISS when it was rendered to be kept, no mark when the session was
    // still being looked up again after the post forgot it (both render the page fresh).
    expect(after.headers.get("x-cache")).not.toBe("HIT");
    expect(after.body).toContain(
      `name="intent" value="reenable-renewal"/><input type="hidden" name="licenseId" value="${renewing}"`,
    );
  });

  it("an admin's change to the customer's licenses shows at the customer's very next request", async () => {
    const admin = sessionOnly(await signIn(PORT, ADMIN.email, ADMIN.password));
    const search = await get(`/admin/users?q=${encodeURIComponent(DEMO.email)}`, admin);
    const userId = /\/admin\/users\/([0-9a-f-]{36})/.exec(search.body)?.[1];
    expect(userId).toBeDefined();
    const before = await untilHit("/licenses", demo);
    const data = await untilHit("/licenses.data", demo);
    const added = await formPost(
      PORT,
      `/admin/users/${userId}`,
      { intent: "add-tester", days: "30" },
      { cookie: admin },
    );
    expect(added.status).toBe(200);
    // The database's trigger announced the change as it committed; nothing the customer did.
    const after = await get("/licenses", demo);
    expect(after.headers.get("x-cache")).not.toBe("HIT");
    const newIds = [...shortIds(after.body)].filter((id) => !shortIds(before.body).has(id));
    expect(newIds).toHaveLength(1);
    const dataAfter = await get("/licenses.data", demo);
    expect(dataAfter.headers.get("x-cache")).not.toBe("HIT");
    expect(dataAfter.body).not.toBe(data.body);
    expect(dataAfter.body).toContain(newIds[0]);
  });

  it("a sign-in elsewhere shows in /profile's sessions at the next request", async () => {
    const session = sessionOnly(await signIn(PORT, DEMO.email, DEMO.password));
    const before = await untilHit("/profile", session);
    const sessions = (html: string) => (html.match(/data-testid="session"/g) ?? []).length;
    // Another device signs in: a sessions row, announced by its trigger; nothing this session did.
    await signIn(PORT, DEMO.email, DEMO.password);
    const after = await get("/profile", session);
    expect(after.headers.get("x-cache")).not.toBe("HIT");
    expect(sessions(after.body)).toBe(sessions(before.body) + 1);
  });

  it("/billing and its data come from memory too; any form post of the customer renders them again", async () => {
    const page = await untilHit("/billing", demo);
    expect(page.body).toContain("Billing");
    const data = await untilHit("/billing.data", demo);
    expect(data.status).toBe(200);
    // The customer turns the reminder e-mails off (a POST): every page of theirs is rendered again.
    const toggled = await formPost(PORT, "/profile/reminders", {}, { cookie: demo });
    expect(toggled.status).toBeLessThan(500);
    expect((await get("/billing", demo)).headers.get("x-cache")).not.toBe("HIT");
  });

  it("the admin area from memory shows a customer's change at the admin's next request", async () => {
    const admin = sessionOnly(await signIn(PORT, ADMIN.email, ADMIN.password));
    const list = `/admin/users?q=${encodeURIComponent(DEMO.email)}`;
    await untilHit(list, admin);
    const renamed = `Dana Cached ${Date.now() % 1000}`;
    const saved = await formPost(
      PORT,
      "/profile",
      { full_name: renamed, company_name: "", email: DEMO.email },
      { cookie: demo },
    );
    expect(saved.status).toBe(200);
    const after = await get(list, admin);
    expect(after.headers.get("x-cache")).not.toBe("HIT");
    expect(after.body).toContain(renamed);
  });

  it("signing out ends the pages from memory at once", async () => {
    const session = sessionOnly(await signIn(PORT, DEMO.email, DEMO.password));
    await untilHit("/licenses", session);
    expect((await formPost(PORT, "/logout", {}, { cookie: session })).status).toBe(302);
    const after = await get("/licenses", session);
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/login?redirectTo=%2Flicenses");
  });
});
