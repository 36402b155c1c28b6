import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { releases } from "~/server/db/schema";
import { DEMO_DOWNLOAD_PATH, parseEnv, setEnv } from "~/server/env.server";
import { resetApiRateLimits } from "~/server/license-api/api-rate-limit.server";
import {
  envSource,
  expectSigned,
  licenseApiApp,
  newKeyPair,
  NONCE,
  openLicenseFile,
  type PublishedKey,
} from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";
import { demoDownload } from "../../../server/demo-download";

describe.each(testEngines())("desktop API /api/v1 (%s)", (engine) => {
  const { startApp, stopApp, reseed, state, db, published, request, api, validate, renewing } = licenseApiApp(engine);
  beforeAll(startApp);
  afterAll(stopApp);
  beforeEach(reseed);

  describe("updates", () => {
    it("answers the newest release, an absolute download address, and whether it is newer than current", async () => {
      const all = await db().select().from(releases);
      const latest = all.sort((a, b) => b.release_date.localeCompare(a.release_date))[0]!;
      const older = await api("GET", "/updates/latest?current=0.9");
      expect(older.status).toBe(200);
      expect(older.json).toEqual({
        channel: "stable",
        latest: {
          version: latest.version,
          title: latest.title,
          release_date: latest.release_date,
          notes: latest.release_notes,
          channel: "stable",
          download_url: `${state.app.env.PUBLIC_URL}${state.app.env.DOWNLOAD_URL}`,
          size: latest.installer_size_bytes,
          sha256: latest.installer_sha256,
          rollout: 100,
          critical: false,
          minimum_version: null,
        },
        update_available: true,
        minimum_version: null,
        update_required: false,
        critical_update: false,
        issued_at: expect.any(String),
      });
      expect(older.json.latest.download_url).toMatch(/^http:\/\/localhost:\d+\/downloads\//);
      expect((await api("GET", `/updates/latest?current=${latest.version}`)).json.update_available).toBe(false);
      expect((await api("GET", `/updates/latest?current=${latest.version}-beta.1`)).json.update_available).toBe(true);
      expect((await api("GET", "/updates/latest?current=99.0&nonce=update-nonce")).json).toMatchObject({
        update_available: false,
        nonce: "update-nonce",
      });
    });

    it("signs the size and SHA-256 of the very bytes the demo download serves (the seeded newest release)", async () => {
      const answer = await api("GET", "/updates/latest?current=1.0.0");
      const { download_url, size, sha256 } = answer.json.latest;
      expect(download_url).toBe(`${state.app.env.PUBLIC_URL}${DEMO_DOWNLOAD_PATH}`);
      // The site's own download handler, as server/app.ts mounts it, on a port of its own.
      const site = express().get(DEMO_DOWNLOAD_PATH, demoDownload(state.app.env));
      const server = http.createServer(site);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const port = (server.address() as AddressInfo).port;
        const bytes = Buffer.from(await (await fetch(`http://127.0.0.1:${port}${DEMO_DOWNLOAD_PATH}`)).arrayBuffer());
        expect(bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
        expect(size).toBe(bytes.length);
        expect(sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it("answers latest null when there is no release", async () => {
      await db().delete(releases);
      const answer = await api("GET", "/updates/latest?current=1.0.0");
      expect(answer.json).toMatchObject({ latest: null, update_available: false });
    });
  });

  describe("bad input: 400 naming the field, signed, never 500", () => {
    it.each([
      ["POST", "/licenses/validate", "not json", "body"],
      ["POST", "/licenses/validate", "[1,2]", "body"],
      ["POST", "/licenses/validate", "null", "body"],
      ["POST", "/licenses/validate", "", "body"],
      ["POST", "/licenses/validate", { nonce: NONCE }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: 12 }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "   " }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "a\u0000b" }, "key"],
      ["POST", "/licenses/validate", { nonce: NONCE, key: "x".repeat(1025) }, "key"],
      ["POST", "/licenses/validate", { key: "k" }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "short" }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "é".repeat(10) }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: 12345678 }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: "n".repeat(129) }, "nonce"],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, windows_username: 5 }, "windows_username"],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, computer_name: "a\u001bb" }, "computer_name"],
      ["POST", "/licenses/activate", { key: "k", nonce: NONCE, windows_username: "u" }, "computer_name"],
      [
        "POST",
        "/licenses/activate",
        { key: "k", nonce: NONCE, computer_name: "c", windows_username: " " },
        "windows_username",
      ],
      ["GET", "/licenses/file", undefined, "key"],
      ["GET", "/licenses/file?key=a%01b", undefined, "key"],
      ["GET", "/licenses/file?key=a&key=b", undefined, "key"],
      ["GET", "/licenses/file?key=a&nonce=x", undefined, "nonce"],
      ["GET", "/updates/latest", undefined, "current"],
      ["GET", "/updates/latest?current=latest", undefined, "current"],
      ["GET", "/updates/latest?current=1.2.3%00", undefined, "current"],
      [
        "GET",
        "/updates/latest?current=1.0.0&license_id=not-a-uuid&fingerprint=" + "f".repeat(32),
        undefined,
        "license_id",
      ],
      ["GET", "/updates/latest?current=1.0.0&fingerprint=" + "f".repeat(32), undefined, "license_id"],
      [
        "GET",
        "/updates/latest?current=1.0.0&license_id=0e4bd2a4-7c62-4d8a-9d0e-1b1c2f3a4b5c",
        undefined,
        "fingerprint",
      ],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, entitlements: ["export"] }, "entitlements"],
      ["POST", "/licenses/validate", { key: "k", nonce: NONCE, entitlements: "generate" }, "entitlements"],
      ["GET", "/keys?x=%7F", undefined, "x"],
    ] as const)("%s %s %j → %s", async (method, path, body, field) => {
      const answer = await api(method, path, { body });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: expect.any(String), field, issued_at: expect.any(String) });
    });

    it("echoes a valid nonce in the error", async () => {
      const answer = await validate({ key: 7 });
      expect(answer.json).toMatchObject({ field: "key", nonce: NONCE });
    });

    it("answers unknown addresses 404 and wrong methods 405, as signed JSON", async () => {
      expect((await api("GET", "/nothing-here")).status).toBe(404);
      const wrong = await api("GET", "/licenses/validate");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toBe("POST");
      expect((await api("POST", "/keys", { body: {} })).status).toBe(405);
    });

    it("answers a body over 64 KB with a signed JSON 413", async () => {
      const answer = await api("POST", "/licenses/validate", { body: JSON.stringify({ key: "k".repeat(70_000) }) });
      expect(answer.status).toBe(413);
      expect(answer.json.error).toMatch(/64 KB/);
    });
  });

  it("rate-limits per client IP with API_RATE_LIMIT a minute: 429 with Retry-After, signed", async () => {
    setEnv(parseEnv({ ...envSource(state.baseEnv), API_RATE_LIMIT: "3" }));
    await resetApiRateLimits();
    const keys = (await request("GET", "/keys")).json.keys as PublishedKey[];
    for (let i = 0; i < 2; i++) expect((await request("GET", "/keys")).status).toBe(200);
    const limited = await request("POST", "/licenses/validate", { body: { key: "k", nonce: NONCE } });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json).toMatchObject({ error: expect.any(String), issued_at: expect.any(String) });
    expectSigned(limited, keys);
  });

  it("rotation: a next key is published before it signs, then signs while the old one stays published", async () => {
    const first = newKeyPair();
    const next = newKeyPair();
    setEnv(
      parseEnv({
        ...envSource(state.baseEnv),
        LICENSE_SIGNING_KEY: first.privatePem,
        LICENSE_PUBLISHED_KEYS: next.publicPem,
      }),
    );
    const license = await renewing();
    const before = await validate({ key: license.license_key });
    expect(published()).toHaveLength(2);
    const [firstKid, nextKid] = published().map((k) => k.kid);
    expect(before.kid).toBe(firstKid);
    const oldFile = (await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}`)).json;
    expect(oldFile.kid).toBe(firstKid);

    // The switch: the next key signs, the old one stays published until its files are past refresh_by.
    setEnv(
      parseEnv({
        ...envSource(state.baseEnv),
        LICENSE_SIGNING_KEY: next.privatePem,
        LICENSE_PUBLISHED_KEYS: first.publicPem,
      }),
    );
    const after = await validate({ key: license.license_key });
    expect(after.kid).toBe(nextKid);
    expect(published().map((k) => k.kid)).toEqual([nextKid, firstKid]);
    const newFile = (await api("GET", `/licenses/file?key=${encodeURIComponent(license.license_key)}`)).json;
    expect(newFile.kid).toBe(nextKid);
    openLicenseFile(newFile, published());
    openLicenseFile(oldFile, published());
  });
});
