import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getEnv, parseEnv, setEnv } from "~/server/env.server";
import { countAndFind } from "~/server/license-api/count-and-find.server";
import { findLicenseAndMachine } from "~/server/license-api/find-license.server";
import { envSource, licenseApiApp, NONCE } from "../../support/license-api-app";
import { testEngines } from "../../support/test-app";

const ENGINES = testEngines({ pglite: "always", because: "what it counts and finds branches on the engine" });

// A validation's counts and lookup in one statement on PostgreSQL (decision 0051): what it reads is
// what findLicenseAndMachine reads, row for row, and it refuses as the two limiters do. On the
// embedded engine it only counts, and validate looks the license up itself.

const FINGERPRINT = "count-and-find-fingerprint-01";

describe.each(ENGINES)("countAndFind (%s)", (engine) => {
  const desktop = licenseApiApp(engine);
  beforeAll(desktop.startApp);
  afterAll(desktop.stopApp);
  beforeEach(desktop.reseed);

  it("reads the license and its machine as findLicenseAndMachine does (PostgreSQL), or leaves it to validate", async () => {
    const { license_key: key } = await desktop.renewing();
    await desktop.api("POST", "/machines/activate", {
      body: { key, fingerprint: FINGERPRINT, name: "Desk PC", platform: "windows-x64", nonce: NONCE },
    });
    const cases: [string, string][] = [
      [key, FINGERPRINT],
      [key, "another-fingerprint-0002"],
      ["no-such-key", FINGERPRINT],
    ];
    for (const [k, fingerprint] of cases) {
      const counted = await countAndFind("198.51.100.7", k, fingerprint);
      expect(counted.limited).toBe(false);
      if (engine === "pglite") {
        expect(counted.found).toBeUndefined();
        continue;
      }
      expect(counted.found).toEqual(await findLicenseAndMachine(k, fingerprint));
    }
    if (engine === "postgres") {
      const found = (await countAndFind("198.51.100.7", key, FINGERPRINT)).found!;
      expect(found.license!.start_date).toBeInstanceOf(Date);
      expect(found.machine).toMatchObject({ name: "Desk PC", platform: "windows-x64" });
      expect(found.machine!.last_seen_at).toBeInstanceOf(Date);
    }
    // Without a fingerprint (an older tool) it only counts.
    expect((await countAndFind("198.51.100.7", key, undefined)).found).toBeUndefined();
  });

  it("refuses a key past API_KEY_RATE_LIMIT, with Retry-After, and a client IP past API_RATE_LIMIT", async () => {
    const base = getEnv();
    setEnv(parseEnv({ ...envSource(base), API_RATE_LIMIT: "3", API_KEY_RATE_LIMIT: "2" }));
    try {
      const { license_key: key } = await desktop.renewing();
      const one = (ip: string) => countAndFind(ip, key, FINGERPRINT);
      expect((await one("198.51.100.1")).limited).toBe(false);
      expect((await one("198.51.100.2")).limited).toBe(false);
      const third = await one("198.51.100.3");
      expect(third).toMatchObject({ limited: true, retryAfter: expect.any(Number) });
      expect(third.retryAfter).toBeGreaterThanOrEqual(1);
      expect(third.retryAfter).toBeLessThanOrEqual(60);
      // One address, a new key each time: the fourth is over the IP's limit.
      for (const k of ["key-a", "key-b", "key-c"])
        expect((await countAndFind("198.51.100.4", k, FINGERPRINT)).limited).toBe(false);
      expect((await countAndFind("198.51.100.4", "key-d", FINGERPRINT)).limited).toBe(true);
    } finally {
      setEnv(base);
    }
  });
});
