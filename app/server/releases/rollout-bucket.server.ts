import { createHash } from "node:crypto";
import { ROLLOUT_BUCKETS } from "~/domain/release-rollout";

/**
 * A machine's bucket in a release's rollout (decision 0062): the first four bytes of
 * SHA-256("<version>\n<license id>\n<fingerprint>") as an unsigned number, modulo 10,000. The same
 * machine gets the same bucket for a release at every check (no flapping as the percentage rises);
 * the release's version in the hash gives each release its own first machines.
 */
export function rolloutBucket(version: string, licenseId: string, fingerprint: string): number {
  const digest = createHash("sha256").update(`${version}\n${licenseId.toLowerCase()}\n${fingerprint}`).digest();
  return digest.readUInt32BE(0) % ROLLOUT_BUCKETS;
}
