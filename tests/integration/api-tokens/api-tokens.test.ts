import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adminPage from "~/routes/admin/index";
import * as tokensPage from "~/routes/admin/tokens";
import { hashToken } from "~/server/api-tokens/api-tokens.server";
import { api_tokens, audit_log } from "~/server/db/schema";
import { getEnv, setEnv } from "~/server/env.server";
import { startAdminTestApp } from "../../support/admin-app";
import { throughAdminGuard } from "../../support/admin-route";
import { startApiServer } from "../../support/api-server";
import { call, formRequest, getRequest } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

// API tokens (decision 0039): created by admins with scopes and expiry, shown once, kept as a SHA-256,
// listed with last use, revocable, rate-limited, audited; Bearer on the API only, never a cookie.

describe.each(testEngines())("API tokens (%s)", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let userCookie: string;
  let server: Awaited<ReturnType<typeof startApiServer>>;

  beforeAll(async () => {
    ({ app, adminCookie, userCookie } = await startAdminTestApp(engine, { API_RATE_LIMIT: "100000" }));
    server = await startApiServer();
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });
  beforeEach(() => resetApiRateLimits());

  const db = () => app.database.db;
  const post = (fields: Record<string, string>, cookie = adminCookie) =>
    call(() => throughAdminGuard(tokensPage.action, formRequest("/admin/tokens", fields, cookie)));
  const create = async (name: string, scopes: string[] = ["releases:write"], days = "30") => {
    const body = new URLSearchParams({ intent: "create-token", name, expires_in_days: days });
    for (const scope of scopes) body.append("scopes", scope);
    const request = formRequest("/admin/tokens", {}, adminCookie);
    const answer = await call(() =>
      throughAdminGuard(
        tokensPage.action,
        new Request(request.url, { method: "POST", headers: request.headers, body }),
      ),
    );
    return answer;
  };
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const list = (token: string) => server.api("GET", "/releases", { headers: bearer(token) });

  it("shows a new token once, keeps only its SHA-256, lists it with its last use, and audits it", async () => {
    const created = await create(`CI ${engine}`, ["releases:write", "events:read"], "90");
    expect(created.status).toBe(200);
    const token = created.data.token as string;
    expect(token).toMatch(/^fkt_[A-Za-z0-9_-]{43}$/);
    const [row] = await db()
      .select()
      .from(api_tokens)
      .where(eq(api_tokens.name, `CI ${engine}`));
    expect(row!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.scopes).toEqual(["releases:write", "events:read"]);
    expect(row!.expires_at.getTime() - row!.created_at.getTime()).toBeGreaterThan(89 * 86_400_000);
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, row!.id));
    expect(audit.map((entry) => entry.action)).toEqual(["api_token.create"]);
    expect(JSON.stringify(audit)).not.toContain(token);

    expect((await list(token)).status).toBe(200);
    const page = await call(() => throughAdminGuard(tokensPage.loader, getRequest("/admin/tokens", adminCookie)));
    const listed = page.data.tokens.find((t: { id: string }) => t.id === row!.id);
    expect(listed.last_used_at).not.toBeNull();
    expect(listed.token_prefix).toBe(token.slice(0, 10));
    expect(JSON.stringify(page.data)).not.toContain(row!.token_hash);
    expect(JSON.stringify(page.data)).not.toContain(token);
  });

  it("refuses unknown scopes, no scope, a blank name and a bad expiry by field, storing nothing", async () => {
    const before = (await db().select().from(api_tokens)).length;
    const unknown = await create("x", ["releases:write", "admin:all"]);
    expect(unknown.status).toBe(400);
    expect(unknown.data.fieldErrors.scopes[0]).toContain("Unknown scope admin:all");
    expect((await create("x", [])).data.fieldErrors.scopes).toBeDefined();
    expect((await create(" ")).data.fieldErrors.name).toBeDefined();
    expect((await create("x", ["releases:write"], "400")).data.fieldErrors.expires_in_days).toBeDefined();
    expect(await db().select().from(api_tokens)).toHaveLength(before);
  });

  it("answers 401 or 403 naming what is wrong: no token, unknown, expired, revoked, missing scope", async () => {
    expect((await server.api("GET", "/releases")).json).toMatchObject({ code: "token_missing" });
    const missing = await server.api("POST", "/releases", { body: {} });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await list("not-a-token")).json).toMatchObject({ code: "token_invalid" });
    expect((await list(`fkt_${"A".repeat(43)}`)).status).toBe(401);

    const reader = (await create(`reader ${engine}`, ["licenses:read"])).data.token;
    const refused = await list(reader);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: "scope_missing",
      error: "The API token lacks the scope releases:write.",
    });

    const old = (await create(`old ${engine}`)).data.token;
    await db()
      .update(api_tokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(api_tokens.token_hash, hashToken(old)));
    expect(await list(old)).toMatchObject({ status: 401, json: { code: "token_expired" } });

    const gone = (await create(`gone ${engine}`)).data.token;
    const [row] = await db()
      .select()
      .from(api_tokens)
      .where(eq(api_tokens.token_hash, hashToken(gone)));
    expect((await post({ intent: "revoke-token", id: row!.id })).status).toBe(200);
    expect(await list(gone)).toMatchObject({ status: 401, json: { code: "token_revoked" } });
    expect((await post({ intent: "revoke-token", id: row!.id })).status).toBe(409);
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, row!.id));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["api_token.create", "api_token.revoke"]);
  });

  it("never takes a cookie: neither a session on the API nor a token on the site's pages", async () => {
    const token = (await create(`cookie ${engine}`)).data.token;
    const withSession = await server.api("GET", "/releases", { headers: { Cookie: adminCookie } });
    expect(withSession).toMatchObject({ status: 401, json: { code: "token_missing" } });
    const inCookie = await server.api("GET", "/releases", { headers: { Cookie: `token=${token}` } });
    expect(inCookie.status).toBe(401);
    for (const handler of [adminPage.loader, tokensPage.loader]) {
      const request = new Request("http://localhost:3000/admin/tokens", { headers: bearer(token) });
      const answer = await call(() => throughAdminGuard(handler, request));
      expect(answer.status).not.toBe(200);
    }
  });

  it("lets only admins manage tokens", async () => {
    const before = (await db().select().from(api_tokens)).length;
    const refused = await post(
      { intent: "create-token", name: "x", scopes: "releases:write", expires_in_days: "7" },
      userCookie,
    );
    expect(refused.status).toBe(403);
    expect(await db().select().from(api_tokens)).toHaveLength(before);
  });

  it("limits each token to API_TOKEN_RATE_LIMIT requests a minute", async () => {
    const env = getEnv();
    setEnv({ ...env, API_TOKEN_RATE_LIMIT: 2 });
    try {
      const token = (await create(`busy ${engine}`)).data.token;
      expect((await list(token)).status).toBe(200);
      expect((await list(token)).status).toBe(200);
      const limited = await list(token);
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe("rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      setEnv(env);
    }
  });
});
