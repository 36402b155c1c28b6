import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimumVersionFormError, ROLLOUT_FORM_ERROR } from "~/domain/admin";
import { MINIMUM_VERSION_ABOVE_LATEST } from "~/domain/release-rollout";
import * as releasesRoute from "~/routes/admin/releases";
import * as download from "~/routes/download";
import * as notes from "~/routes/release-notes";
import { audit_log, releases } from "~/server/db/schema";
import { startAdminTestApp } from "../../support/admin-app";
import { throughAdminGuard } from "../../support/admin-route";
import { call, ORIGIN } from "../../support/route-call";
import { testEngines, type TestApp } from "../../support/test-app";

// Publishing a release cannot break the download page (decision 0039): a valid, unique, newer-sorting
// version (an older one confirmed), a draft until published, publishing audited, and the installer's
// size and SHA-256 computed from the file the release points to.

describe.each(testEngines())("admin release drafts (%s)", (engine) => {
  let app: TestApp;
  let adminCookie: string;
  let files: http.Server;
  let fileUrl: string;
  const installer = Buffer.from(`installer bytes for ${engine} `.repeat(1000));

  beforeAll(async () => {
    ({ app, adminCookie } = await startAdminTestApp(engine));
    files = http.createServer((req, res) => {
      if (req.url === "/forgekit.zip") res.end(installer);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/forgekit.zip`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
    await app?.close();
  });

  const db = () => app.database.db;
  const post = (fields: Record<string, string>) => {
    const body = new URLSearchParams({ release_date: "2026-12-01", release_notes: "A change", ...fields });
    const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: adminCookie };
    return call(() =>
      throughAdminGuard(
        releasesRoute.action,
        new Request(`${ORIGIN}/admin/releases`, { method: "POST", headers, body }),
      ),
    );
  };
  const rowOf = async (version: string) =>
    (await db().select().from(releases).where(eq(releases.version, version)))[0]!;
  const actionsOn = async (id: string) =>
    (await db().select().from(audit_log).where(eq(audit_log.target_id, id))).map((entry) => entry.action).sort();
  const onPublicPages = async (version: string) => ({
    download: (await download.loader()).releases.some((r) => r.version === version),
    notes: (await notes.loader()).releases.some((r) => r.version === version),
  });

  it("saves a draft that no public page shows, then publishes and unpublishes it, each audited", async () => {
    const saved = await post({ intent: "save-release", version: "5.0.0", channel: "stable" });
    expect(saved.status).toBe(200);
    const row = await rowOf("5.0.0");
    expect(row.published_at).toBeNull();
    expect(await onPublicPages("5.0.0")).toEqual({ download: false, notes: false });

    expect((await post({ intent: "release-flag", id: row.id, flag: "publish" })).status).toBe(200);
    expect(await onPublicPages("5.0.0")).toEqual({ download: true, notes: true });
    expect((await download.loader()).latest?.version).toBe("5.0.0");
    expect((await post({ intent: "release-flag", id: row.id, flag: "publish" })).status).toBe(409);

    expect((await post({ intent: "release-flag", id: row.id, flag: "unpublish" })).status).toBe(200);
    expect(await onPublicPages("5.0.0")).toEqual({ download: false, notes: false });
    expect((await post({ intent: "release-flag", id: row.id, flag: "launch" })).status).toBe(400);
    expect(await actionsOn(row.id)).toEqual(["release.create", "release.publish", "release.unpublish"]);
  });

  it("'Save and publish' puts a release out at once; a yanked one leaves the download page", async () => {
    await post({ intent: "save-release", version: "5.1.0", publish: "1" });
    const row = await rowOf("5.1.0");
    expect(row.published_at).not.toBeNull();
    expect((await download.loader()).latest?.version).toBe("5.1.0");
    await post({ intent: "release-flag", id: row.id, flag: "yank" });
    expect((await download.loader()).latest?.version).not.toBe("5.1.0");
    expect((await notes.loader()).releases.find((r) => r.version === "5.1.0")?.yanked_at).not.toBeNull();
    expect(await actionsOn(row.id)).toEqual(["release.create", "release.publish", "release.yank"]);
  });

  it("refuses an invalid or taken version and asks to confirm an older one, storing nothing", async () => {
    const count = async () => (await db().select().from(releases)).length;
    const before = await count();
    const invalid = await post({ intent: "save-release", version: "next week" });
    expect(invalid.status).toBe(400);
    expect(invalid.data.fieldErrors.version).toEqual(["Enter a version number such as 2.5.0 or 2.5.0-beta.1."]);
    const taken = await post({ intent: "save-release", version: "5.0" });
    expect(taken.status).toBe(409);
    expect(taken.data.fieldErrors.version).toEqual(["Version 5.0.0 already exists."]);
    const older = await post({ intent: "save-release", version: "4.9.1" });
    expect(older.status).toBe(409);
    expect(older.data.older).toBe(true);
    expect(older.data.fieldErrors.version[0]).toContain("sorts before the newest release 5.1.0");
    const badSha = await post({ intent: "save-release", version: "6.0.0", installer_sha256: "1234" });
    expect(badSha.data.fieldErrors.installer_sha256).toBeDefined();
    expect(await count()).toBe(before);
    expect((await post({ intent: "save-release", version: "4.9.1", allow_older: "on" })).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it("sets a rollout, critical and a minimum version (decision 0062); refuses a rollout outside 0–100 or a minimum above the version, storing nothing", async () => {
    const count = async () => (await db().select().from(releases)).length;
    const before = await count();
    const outside = await post({ intent: "save-release", version: "6.1.0", rollout_percent: "150" });
    expect(outside.status).toBe(400);
    expect(outside.data.fieldErrors.rollout_percent).toEqual([ROLLOUT_FORM_ERROR]);
    const above = await post({ intent: "save-release", version: "6.1.0", minimum_version: "6.2.0" });
    expect(above.status).toBe(400);
    expect(above.data.fieldErrors.minimum_version).toEqual([
      minimumVersionFormError(MINIMUM_VERSION_ABOVE_LATEST, "6.1.0"),
    ]);
    expect(await count()).toBe(before);

    const saved = await post({
      intent: "save-release",
      version: "6.1.0",
      rollout_percent: "10",
      critical: "on",
      minimum_version: "5.0.0",
      publish: "1",
    });
    expect(saved.status).toBe(200);
    const row = await rowOf("6.1.0");
    expect(row).toMatchObject({ rollout_percent: 10, critical: true, minimum_version: "5.0.0" });
    // Published to 10%: not the download page's release until it reaches everyone.
    expect((await download.loader()).latest?.version).not.toBe("6.1.0");
    const raised = await post({
      intent: "save-release",
      id: row.id,
      version: "6.1.0",
      rollout_percent: "100",
      minimum_version: "",
    });
    expect(raised.status).toBe(200);
    expect(await rowOf("6.1.0")).toMatchObject({ rollout_percent: 100, critical: false, minimum_version: null });
    expect((await download.loader()).latest?.version).toBe("6.1.0");
    // A blank rollout is everyone; the form's defaults keep older forms working.
    await post({ intent: "save-release", version: "6.2.0" });
    expect(await rowOf("6.2.0")).toMatchObject({ rollout_percent: 100, critical: false, minimum_version: null });
  });

  it("computes the installer's size and SHA-256 from the file the release points to", async () => {
    const computed = await post({ intent: "compute-installer", download_url: fileUrl });
    expect(computed.status).toBe(200);
    expect(computed.data.digest).toMatchObject({
      size: installer.length,
      sha256: createHash("sha256").update(installer).digest("hex"),
    });
    const missing = await post({ intent: "compute-installer", download_url: fileUrl.replace("forgekit", "nothing") });
    expect(missing.status).toBe(502);
    expect(missing.data.toast.description).toContain("HTTP 404");
  });

  it("keeps a release's own address with its checksum: the download card offers that file", async () => {
    const sha256 = createHash("sha256").update(installer).digest("hex");
    await post({
      intent: "save-release",
      version: "7.0.0",
      download_url: fileUrl,
      installer_size_bytes: String(installer.length),
      installer_sha256: sha256,
      publish: "1",
    });
    const { latest } = await download.loader();
    expect(latest).toMatchObject({ version: "7.0.0", download_url: fileUrl, installer_sha256: sha256 });
    const bad = await post({ intent: "save-release", version: "7.1.0", download_url: "file:///etc/passwd" });
    expect(bad.data.fieldErrors.download_url).toBeDefined();
  });
});
