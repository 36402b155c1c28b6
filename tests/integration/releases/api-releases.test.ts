import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as download from "~/routes/download";
import * as feed from "~/routes/release-notes-atom";
import * as notes from "~/routes/release-notes";
import { createApiToken } from "~/server/api-tokens/api-tokens.server";
import { audit_log, releases } from "~/server/db/schema";
import { startAdminTestApp } from "../../support/admin-app";
import { startApiServer } from "../../support/api-server";
import { getRequest, routeArgs } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

// Releases from CI (decision 0039): POST/PATCH/GET /api/v1/releases with a releases:write token; drafts,
// publishing, yanking, channels and the admin form's validation; the update check per channel with the
// installer's size and SHA-256; the public pages and the feed per channel.

const SHA = "c0ffee".padEnd(64, "0");

describe.each(testEngines())("releases API (%s)", (engine) => {
  let app: TestApp;
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ app } = await startAdminTestApp(engine, { API_RATE_LIMIT: "100000", API_TOKEN_RATE_LIMIT: "100000" }));
    server = await startApiServer();
    const { token } = await createApiToken({
      admin: { id: null, email: "test" },
      form: { name: `CI ${engine}`, scopes: ["releases:write"], expires_in_days: 7 },
    });
    auth = { Authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });
  beforeEach(() => resetApiRateLimits());

  const db = () => app.database.db;
  const body = (version: string, extra: Record<string, unknown> = {}) => ({
    version,
    title: `Release ${version}`,
    notes: ["A change"],
    channel: "stable",
    download_url: `https://downloads.example/forgekit-${version}.zip`,
    size: 4096,
    sha256: SHA,
    published: true,
    ...extra,
  });
  const publish = (json: Record<string, unknown>) => server.api("POST", "/releases", { body: json, headers: auth });
  const patch = (version: string, json: Record<string, unknown>) =>
    server.api("PATCH", `/releases/${version}`, { body: json, headers: auth });
  const latest = async (channel?: string, current = "1.0.0") =>
    (await server.api("GET", `/updates/latest?current=${current}${channel ? `&channel=${channel}` : ""}`)).json;
  const feedXml = async (query = "") =>
    (await feed.loader(routeArgs(getRequest(`/release-notes.atom${query}`)))).text();

  it("adds a draft that no page and no update check shows until it is published", async () => {
    const created = await publish(body("3.0.0", { published: false }));
    expect(created.status).toBe(201);
    expect(created.json.release).toMatchObject({ version: "3.0.0", status: "draft", sha256: SHA, size: 4096 });
    expect((await latest()).latest.version).toBe("2.4.0");
    const listed = await server.api("GET", "/releases?channel=stable", { headers: auth });
    expect(listed.json.releases.map((r: { version: string }) => r.version)).toContain("3.0.0");
    expect((await notes.loader()).releases.map((r) => r.version)).not.toContain("3.0.0");
    expect(await feedXml()).not.toContain("3.0.0");

    const published = await patch("3.0.0", { published: true });
    expect(published.json.release.status).toBe("published");
    const update = await latest();
    expect(update).toMatchObject({ channel: "stable", update_available: true });
    expect(update.latest).toMatchObject({
      version: "3.0.0",
      download_url: "https://downloads.example/forgekit-3.0.0.zip",
      sha256: SHA,
      size: 4096,
    });
    const page = await download.loader();
    expect(page.latest).toMatchObject({ version: "3.0.0", installer_sha256: SHA, download_url: expect.any(String) });
    const [row] = await db().select().from(releases).where(eq(releases.version, "3.0.0"));
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, row!.id));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["release.create", "release.publish"]);
    expect(audit[0]!.actor_email).toBe(`API token CI ${engine}`);
  });

  it("offers a beta on the beta channel only, marked on the release notes and in the beta feed", async () => {
    expect((await publish(body("3.1.0-beta.1", { channel: "beta" }))).status).toBe(201);
    expect((await latest("beta")).latest).toMatchObject({ version: "3.1.0-beta.1", channel: "beta", sha256: SHA });
    expect((await latest("stable")).latest.version).toBe("3.0.0");
    expect((await latest()).latest.version).toBe("3.0.0");
    const listed = (await notes.loader()).releases.find((r) => r.version === "3.1.0-beta.1");
    expect(listed?.channel).toBe("beta");
    expect((await download.loader()).releases.map((r) => r.version)).not.toContain("3.1.0-beta.1");
    expect(await feedXml("?channel=beta")).toContain("Version 3.1.0-beta.1 (beta)");
    expect(await feedXml()).not.toContain("3.1.0-beta.1");
    expect((await feed.loader(routeArgs(getRequest("/release-notes.atom?channel=nightly")))).status).toBe(400);
    // A stable release newer than the beta reaches beta users too.
    await publish(body("3.1.0"));
    expect((await latest("beta")).latest.version).toBe("3.1.0");
  });

  it("withdraws a yanked release: not offered, not on the download page, and its entry says so", async () => {
    const yanked = await patch("3.1.0", { yanked: true });
    expect(yanked.json.release).toMatchObject({ status: "yanked", yanked: true });
    expect((await latest()).latest.version).toBe("3.0.0");
    expect((await latest("beta")).latest.version).toBe("3.1.0-beta.1");
    expect((await download.loader()).releases.map((r) => r.version)).not.toContain("3.1.0");
    expect((await notes.loader()).releases.find((r) => r.version === "3.1.0")?.yanked_at).not.toBeNull();
    expect(await feedXml()).not.toContain("3.1.0");
    const [row] = await db().select().from(releases).where(eq(releases.version, "3.1.0"));
    const actions = (await db().select().from(audit_log).where(eq(audit_log.target_id, row!.id))).map((a) => a.action);
    expect(actions).toContain("release.yank");
  });

  it("refuses what the admin form refuses, naming the field, storing nothing", async () => {
    const count = async () => (await db().select().from(releases)).length;
    const before = await count();
    const cases: [Record<string, unknown>, number, string][] = [
      [body("3.0.0"), 409, "version"],
      [body("3.0"), 409, "version"],
      [body("next"), 400, "version"],
      [body("4.0.0", { sha256: "abc" }), 400, "sha256"],
      [body("4.0.0", { sha256: undefined }), 400, "sha256"],
      [body("4.0.0", { size: -1 }), 400, "size"],
      [body("4.0.0", { size: "big" }), 400, "size"],
      [body("4.0.0", { channel: "nightly" }), 400, "channel"],
      [body("4.0.0", { notes: [] }), 400, "notes"],
      [body("4.0.0", { download_url: "javascript:alert(1)" }), 400, "download_url"],
    ];
    for (const [json, status, field] of cases) {
      const answer = await publish(json);
      expect({ status: answer.status, field: answer.json.field }, JSON.stringify(json)).toEqual({ status, field });
    }
    expect((await server.api("POST", "/releases", { body: "{", headers: auth })).status).toBe(400);
    expect((await patch("9.9.9", { yanked: true })).status).toBe(404);
    expect((await patch("3.0.0", { sha256: SHA })).json.field).toBe("sha256");
    expect((await server.api("GET", "/releases?channel=nightly", { headers: auth })).json.field).toBe("channel");
    expect((await server.api("DELETE", "/releases/3.0.0", { headers: auth })).status).toBe(405);
    expect(await count()).toBe(before);
  });

  it("edits title and notes, and finds 3.0 as 3.0.0", async () => {
    const edited = await patch("3.0", { title: "Three", notes: [" New ", ""] });
    expect(edited.json.release).toMatchObject({ version: "3.0.0", title: "Three", notes: ["New"] });
  });
});
