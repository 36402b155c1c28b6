import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as download from "~/routes/download";
import { createApiToken } from "~/server/api-tokens/api-tokens.server";
import { audit_log, releases } from "~/server/db/schema";
import type { ReleasePatch } from "~/domain/release-input";
import { inRollout } from "~/domain/release-rollout";
import { latestUpdate } from "~/server/license-api/latest-update.server";
import { rolloutBucket } from "~/server/releases/rollout-bucket.server";
import { patchApiRelease } from "~/server/releases/api-releases.server";
import { licenseApiApp } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

// Releases rolled out with care (decision 0062): a release published to a percentage of machines, each
// machine's place fixed by a hash of license and fingerprint; critical; a minimum version; set by the
// releases API, raised as it proves itself, stopped by a yank; bad values a signed 4xx with a code.

const SHA = "d00d".padEnd(64, "0");
const VERSIONS = ["7.0.0", "7.0.1", "7.1.0", "7.2.0"];

/** 10,000 simulated machines: a license id (a UUID) and a fingerprint each, the same at every run. */
const MACHINES = Array.from({ length: 10_000 }, (_, index) => {
  const hex = createHash("sha256").update(`rollout machine ${index}`).digest("hex");
  const licenseId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { licenseId, fingerprint: `fp-${hex.slice(32)}` };
});

describe.each(testEngines())("release rollouts (%s)", (engine) => {
  const { startApp, stopApp, reseed, db, api } = licenseApiApp(engine);
  let auth: Record<string, string>;
  beforeAll(async () => {
    await startApp();
    const { token } = await createApiToken({
      admin: { id: null, email: "test" },
      form: { name: `CI rollout ${engine}`, scopes: ["releases:write"], expires_in_days: 7 },
    });
    auth = { Authorization: `Bearer ${token}` };
  });
  afterAll(stopApp);
  beforeEach(async () => {
    await reseed();
    await db().delete(releases).where(inArray(releases.version, VERSIONS));
  });

  const publish = (version: string, extra: Record<string, unknown> = {}) =>
    api("POST", "/releases", {
      headers: auth,
      body: { version, notes: ["A change"], size: 2048, sha256: SHA, published: true, ...extra },
    });
  const patch = (version: string, body: Record<string, unknown>) =>
    api("PATCH", `/releases/${version}`, { headers: auth, body });
  const raise = (version: string, change: ReleasePatch) =>
    patchApiRelease({ id: null, email: "API token CI rollout" }, version, change);
  const check = (query: string) => api("GET", `/updates/latest?current=2.0.0&${query}`);
  const machineQuery = ({ licenseId, fingerprint }: (typeof MACHINES)[number]) =>
    `license_id=${licenseId}&fingerprint=${fingerprint}`;
  /** Which of the machines the update check offers `version` to, through the update check's own service. */
  const reached = async (version: string, machines: typeof MACHINES) => {
    const offered = new Set<number>();
    for (let start = 0; start < machines.length; start += 50) {
      const answers = await Promise.all(
        machines.slice(start, start + 50).map((machine) => latestUpdate("2.0.0", "stable", machine)),
      );
      answers.forEach((answer, index) => {
        if (answer.latest?.version === version) offered.add(start + index);
      });
    }
    return offered;
  };
  /** Which of the machines the rollout rule puts in `percent`% for `version` (what the service decides by). */
  const inShare = (version: string, percent: number, machines = MACHINES) =>
    new Set(
      machines.flatMap((m, index) =>
        inRollout(rolloutBucket(version, m.licenseId, m.fingerprint), percent) ? [index] : [],
      ),
    );
  // The service asks the database twice a machine: 1,000 machines through it, all 10,000 through its rule.
  const SAMPLE = MACHINES.slice(0, 1_000);

  it("10% → 50% → 100%: each share within ±2% of 10,000 machines, no machine flaps, raising adds machines, a yank stops it", async () => {
    expect((await publish("7.0.0", { rollout: 10 })).status).toBe(201);
    const atTen = inShare("7.0.0", 10);
    expect(Math.abs(atTen.size / MACHINES.length - 0.1)).toBeLessThanOrEqual(0.02);
    // The update check offers the release to exactly the sample's machines the rule puts in, at every check.
    expect(await reached("7.0.0", SAMPLE)).toEqual(inShare("7.0.0", 10, SAMPLE));
    expect(await reached("7.0.0", SAMPLE)).toEqual(inShare("7.0.0", 10, SAMPLE));

    // Raised through the service the PATCH calls (the HTTP path is the next tests').
    expect(await raise("7.0.0", { rollout_percent: 50 })).toMatchObject({ version: "7.0.0", rollout: 50 });
    const atFifty = inShare("7.0.0", 50);
    expect(Math.abs(atFifty.size / MACHINES.length - 0.5)).toBeLessThanOrEqual(0.02);
    for (const index of atTen) expect(atFifty.has(index)).toBe(true);
    expect(await reached("7.0.0", SAMPLE)).toEqual(inShare("7.0.0", 50, SAMPLE));

    await raise("7.0.0", { rollout_percent: 100 });
    expect((await reached("7.0.0", SAMPLE)).size).toBe(SAMPLE.length);

    await raise("7.0.0", { yanked: true });
    expect((await reached("7.0.0", SAMPLE.slice(0, 500))).size).toBe(0);
  }, 240_000);

  it("through the signed update check: a machine in the rollout gets the release with its rollout, others and older tools the previous one", async () => {
    await publish("7.0.0", { rollout: 30 });
    const atThirty = await reached("7.0.0", MACHINES.slice(0, 200));
    const inside = MACHINES[[...atThirty][0]!]!;
    const outside = MACHINES.find((_, index) => index < 200 && !atThirty.has(index))!;
    const offered = await check(machineQuery(inside));
    expect(offered.json).toMatchObject({
      latest: { version: "7.0.0", rollout: 30, critical: false, minimum_version: null },
      update_available: true,
    });
    // The same machine, its id in capitals: the same place.
    expect(
      (await check(`license_id=${inside.licenseId.toUpperCase()}&fingerprint=${inside.fingerprint}`)).json.latest
        .version,
    ).toBe("7.0.0");
    expect((await check(machineQuery(outside))).json.latest).toMatchObject({ version: "2.4.0", rollout: 100 });
    // A tool built before rollouts names no machine: it is offered only what every machine is.
    expect((await check("channel=stable")).json.latest.version).toBe("2.4.0");
    // The download page shows a release once it reaches everyone.
    expect((await download.loader()).latest?.version).toBe("2.4.0");
    await patch("7.0.0", { rollout: 100 });
    expect((await check("channel=stable")).json.latest.version).toBe("7.0.0");
    expect((await download.loader()).latest?.version).toBe("7.0.0");
  });

  it("critical and minimum version are signed in the answer; a tool below the minimum must update first", async () => {
    await publish("7.0.0", { critical: true, minimum_version: "2.3.0" });
    await publish("7.1.0", { minimum_version: "7.0.0", rollout: 0 });
    const old = await api("GET", "/updates/latest?current=2.2.0");
    expect(old.json).toMatchObject({
      latest: { version: "7.0.0", critical: true, minimum_version: "2.3.0", rollout: 100 },
      minimum_version: "2.3.0",
      update_required: true,
      critical_update: true,
    });
    // 7.1.0 reaches no machine yet (0%): its minimum asks nothing of anyone.
    expect((await api("GET", "/updates/latest?current=2.3.0")).json).toMatchObject({
      minimum_version: "2.3.0",
      update_required: false,
      critical_update: true,
    });
    expect((await api("GET", "/updates/latest?current=7.0.0")).json).toMatchObject({
      update_available: false,
      update_required: false,
      critical_update: false,
    });
    await patch("7.1.0", { rollout: 100 });
    expect((await api("GET", "/updates/latest?current=2.4.0")).json).toMatchObject({
      latest: { version: "7.1.0", critical: false, minimum_version: "7.0.0" },
      minimum_version: "7.0.0",
      update_required: true,
      // 7.0.0, critical, is newer than 2.4.0: its fix is in 7.1.0 too, and the tool should install it.
      critical_update: true,
    });
    // Clearing the minimum and the flag: nothing is asked any more.
    await patch("7.1.0", { minimum_version: null });
    await patch("7.0.0", { critical: false, minimum_version: null });
    expect((await api("GET", "/updates/latest?current=2.4.0")).json).toMatchObject({
      minimum_version: null,
      update_required: false,
      critical_update: false,
    });
  });

  it("a rollout outside 0–100 or a minimum above the release is a signed 4xx with its code, and nothing is stored", async () => {
    const count = async () => (await db().select().from(releases)).length;
    const before = await count();
    for (const [extra, code, field] of [
      [{ rollout: 101 }, "rollout_out_of_range", "rollout"],
      [{ rollout: -1 }, "rollout_out_of_range", "rollout"],
      [{ rollout: 12.5 }, "rollout_out_of_range", "rollout"],
      [{ rollout: "50" }, "rollout_out_of_range", "rollout"],
      [{ minimum_version: "7.3.0" }, "minimum_version_above_latest", "minimum_version"],
      [{ minimum_version: "someday" }, "minimum_version_invalid", "minimum_version"],
    ] as const) {
      const refused = await publish("7.2.0", extra);
      expect(refused.status, JSON.stringify(extra)).toBe(400);
      expect(refused.json).toMatchObject({ code, field, error: expect.any(String) });
    }
    expect(await count()).toBe(before);

    await publish("7.0.0", { rollout: 10, minimum_version: "2.0.0" });
    const stored = (await db().select().from(releases).where(eq(releases.version, "7.0.0")))[0]!;
    for (const [body, code] of [
      [{ rollout: 150 }, "rollout_out_of_range"],
      [{ rollout: 50, minimum_version: "7.0.1" }, "minimum_version_above_latest"],
      [{ title: "Renamed", critical: true, minimum_version: "8" }, "minimum_version_above_latest"],
    ] as const) {
      const refused = await patch("7.0.0", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.code).toBe(code);
    }
    const after = (await db().select().from(releases).where(eq(releases.version, "7.0.0")))[0]!;
    expect(after).toEqual(stored);
    // The minimum may be the release's own version: every older tool updates to it.
    expect((await patch("7.0.0", { minimum_version: "7.0.0", rollout: 20 })).json.release).toMatchObject({
      minimum_version: "7.0.0",
      rollout: 20,
    });
    const audit = await db().select().from(audit_log).where(eq(audit_log.target_id, stored.id));
    expect(audit.find((entry) => entry.action === "release.update")?.details).toMatchObject({
      version: "7.0.0",
      rollout: 20,
      minimum_version: "7.0.0",
    });
    expect(audit.find((entry) => entry.action === "release.create")?.details).toMatchObject({ rollout: 10 });
  });
});
