import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiToken } from "~/server/api-tokens/api-tokens.server";
import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { recordEvent } from "~/server/webhooks/events.server";
import { startAdminTestApp } from "../../support/admin-app";
import { startApiServer } from "../../support/api-server";
import { testEngines, type TestApp } from "../../support/test-app";

// GET /api/v1/events (decision 0044): the newest events with a token of scope events:read, the same
// {id, type, occurred_at, data} the webhooks deliver; a wrong scope, type or limit is refused by name.

describe.each(testEngines())("events API (%s)", (engine) => {
  let app: TestApp;
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let reader: string;
  let publisher: string;
  beforeAll(async () => {
    ({ app } = await startAdminTestApp(engine, { API_RATE_LIMIT: "100000" }));
    server = await startApiServer();
    const admin = { id: null, email: "test admin" };
    const form = (scopes: ("events:read" | "releases:write")[]) => ({
      name: scopes.join(),
      scopes,
      expires_in_days: 7,
    });
    reader = (await createApiToken({ admin, form: form(["events:read"]) })).token;
    publisher = (await createApiToken({ admin, form: form(["releases:write"]) })).token;
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });
  beforeEach(() => resetApiRateLimits());

  const get = (query: string, token = reader) =>
    server.api("GET", `/events${query}`, { headers: { Authorization: `Bearer ${token}` } });

  it("lists the newest events, of one type if asked, with a token of scope events:read", async () => {
    const db = app.database.db;
    const older = new Date(Date.now() - 60_000);
    await db.transaction((tx) => recordEvent(tx, "license.revoked", { license: { id: "a" } }, { occurredAt: older }));
    const id = await db.transaction((tx) => recordEvent(tx, "release.published", { release: { version: "1.0.0" } }));
    const all = await get("?limit=2");
    expect(all.status).toBe(200);
    expect(all.headers.get("signature")).toBeTruthy();
    expect(all.json.events[0]).toMatchObject({
      id,
      type: "release.published",
      data: { release: { version: "1.0.0" } },
    });
    expect(all.json.events).toHaveLength(2);
    const revoked = await get("?type=license.revoked");
    expect(revoked.json.events.map((e: { type: string }) => e.type)).toEqual(["license.revoked"]);
  });

  it("refuses another scope, no token, an unknown type and a bad limit, naming each", async () => {
    expect((await get("", publisher)).json.code).toBe("scope_missing");
    expect((await server.api("GET", "/events")).status).toBe(401);
    const unknown = await get("?type=license.stolen");
    expect([unknown.status, unknown.json.field]).toEqual([400, "type"]);
    for (const limit of ["0", "101", "abc", "1.5"]) {
      const bad = await get(`?limit=${limit}`);
      expect([bad.status, bad.json.field], limit).toEqual([400, "limit"]);
    }
  });
});
