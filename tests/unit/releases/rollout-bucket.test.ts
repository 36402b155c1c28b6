import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inRollout, ROLLOUT_BUCKETS } from "~/domain/release-rollout";
import { rolloutBucket } from "~/server/releases/rollout-bucket.server";

// Decision 0062: a machine's place in a release's rollout is a hash of the release, its license and
// its fingerprint, so it is the same at every check and the percentages hold over many machines.

const machines = Array.from({ length: 10_000 }, (_, index) => {
  const seed = createHash("sha256").update(`machine ${index}`).digest("hex");
  const licenseId = `${seed.slice(0, 8)}-${seed.slice(8, 12)}-4${seed.slice(13, 16)}-8${seed.slice(17, 20)}-${seed.slice(20, 32)}`;
  return { licenseId, fingerprint: seed.slice(32) + seed.slice(0, 8) };
});

describe("rolloutBucket", () => {
  it("is a whole number below the bucket count, the same at every call", () => {
    for (const { licenseId, fingerprint } of machines.slice(0, 500)) {
      const bucket = rolloutBucket("2.5.0", licenseId, fingerprint);
      expect(Number.isInteger(bucket) && bucket >= 0 && bucket < ROLLOUT_BUCKETS).toBe(true);
      expect(rolloutBucket("2.5.0", licenseId, fingerprint)).toBe(bucket);
      // The id as the tool may write it: its case does not move the machine.
      expect(rolloutBucket("2.5.0", licenseId.toUpperCase(), fingerprint)).toBe(bucket);
    }
  });

  it("is the documented hash: the first four bytes of SHA-256 of version, license id and fingerprint, modulo 10,000", () => {
    const { licenseId, fingerprint } = machines[0]!;
    const digest = createHash("sha256").update(`2.5.0\n${licenseId}\n${fingerprint}`).digest();
    expect(rolloutBucket("2.5.0", licenseId, fingerprint)).toBe(digest.readUInt32BE(0) % 10_000);
  });

  it("10,000 simulated machines: each percentage reaches its share within ±2%, and raising it keeps every machine in", () => {
    const buckets = machines.map(({ licenseId, fingerprint }) => rolloutBucket("2.5.0", licenseId, fingerprint));
    let previous = new Set<number>();
    for (const percent of [0, 1, 10, 25, 50, 75, 90, 100]) {
      const reached = new Set(buckets.flatMap((bucket, index) => (inRollout(bucket, percent) ? [index] : [])));
      expect(Math.abs(reached.size / machines.length - percent / 100), `${percent}%`).toBeLessThanOrEqual(0.02);
      for (const index of previous) expect(reached.has(index)).toBe(true);
      previous = reached;
    }
    expect(previous.size).toBe(machines.length);
  });

  it("each release picks its own first machines: the 10% of one release is not the 10% of the next", () => {
    const first = (version: string) =>
      new Set(
        machines.flatMap(({ licenseId, fingerprint }, index) =>
          inRollout(rolloutBucket(version, licenseId, fingerprint), 10) ? [index] : [],
        ),
      );
    const a = first("2.5.0");
    const b = first("2.6.0");
    const both = [...a].filter((index) => b.has(index)).length;
    // Independent picks overlap in about 10% of 10% of the machines (100), never wholly.
    expect(both).toBeGreaterThan(40);
    expect(both).toBeLessThan(200);
  });
});
