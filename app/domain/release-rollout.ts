import { compareVersions, isNewerVersion, parseVersion } from "./version";

/**
 * Releases rolled out with care (decision 0062): a published release is offered to a percentage of
 * machines, each machine's place fixed by a hash of the release, its license and its fingerprint
 * (app/server/releases/rollout-bucket.server.ts), so raising the percentage only adds machines and
 * none flaps; a release may be critical (the tool should install it) and may set the minimum version
 * below which the tool must update before it runs on. The releases API, the admin form and the
 * update check share these rules.
 */

/** A machine's place in a release's rollout is one of this many buckets (0.01% each). */
export const ROLLOUT_BUCKETS = 10_000;

/** Whether a machine in `bucket` (0 to ROLLOUT_BUCKETS - 1) is among `percent`% of machines. */
export function inRollout(bucket: number, percent: number): boolean {
  return bucket < (percent * ROLLOUT_BUCKETS) / 100;
}

export const ROLLOUT_OUT_OF_RANGE = "rollout_out_of_range";
export const MINIMUM_VERSION_INVALID = "minimum_version_invalid";
export const MINIMUM_VERSION_ABOVE_LATEST = "minimum_version_above_latest";

export const ROLLOUT_ERROR = "rollout is the percentage of machines offered the release: a whole number from 0 to 100.";

/** A rollout percentage: a whole number from 0 to 100, else null. */
export function parseRollout(value: unknown): number | null {
  const number = typeof value === "string" && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 100 ? number : null;
}

export type MinimumVersionCheck = { ok: true; minimum: string | null } | { ok: false; code: string; message: string };

/**
 * A release's minimum version: blank or null for none; else a version number no newer than the
 * release itself (a tool could never reach a higher one from this release). Without
 * `releaseVersion`, only the version number is checked (a change to a stored release: its service
 * compares it with the stored version).
 */
export function checkMinimumVersion(value: unknown, releaseVersion?: string): MinimumVersionCheck {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    return { ok: true, minimum: null };
  }
  const minimum = typeof value === "string" ? value.trim() : "";
  if (!parseVersion(minimum)) {
    return {
      ok: false,
      code: MINIMUM_VERSION_INVALID,
      message: "minimum_version must be a version number such as 2.4.0, or empty for none.",
    };
  }
  if (releaseVersion !== undefined && isNewerVersion(minimum, releaseVersion)) {
    return {
      ok: false,
      code: MINIMUM_VERSION_ABOVE_LATEST,
      message: `The minimum version ${minimum} is above the release's own version ${releaseVersion}: a tool could not update to it.`,
    };
  }
  return { ok: true, minimum };
}

export interface RolloutRelease {
  version: string;
  critical: boolean;
  minimum_version: string | null;
}

/**
 * What the releases offered to a machine ask of a tool at `current`: `update_required` when it is
 * below the highest minimum version among them, `critical_update` when one newer than it is critical.
 * Each minimum is at most its release's version, so a required update is always offered.
 */
export function updatePolicy(
  offered: readonly RolloutRelease[],
  current: string,
): { minimum_version: string | null; update_required: boolean; critical_update: boolean } {
  let minimum: string | null = null;
  let critical = false;
  for (const release of offered) {
    const floor = release.minimum_version ? parseVersion(release.minimum_version) : null;
    const highest = minimum ? parseVersion(minimum) : null;
    if (floor && (!highest || compareVersions(floor, highest) > 0)) minimum = release.minimum_version;
    if (release.critical && isNewerVersion(release.version, current)) critical = true;
  }
  return {
    minimum_version: minimum,
    update_required: minimum !== null && isNewerVersion(minimum, current),
    critical_update: critical,
  };
}

/** What the admin list says of a release's rollout; null when it goes to everyone and asks nothing. */
export function rolloutSummary(release: {
  rollout_percent: number;
  critical: boolean;
  minimum_version: string | null;
}): string | null {
  const parts = [
    ...(release.rollout_percent < 100 ? [`Offered to ${release.rollout_percent}% of machines`] : []),
    ...(release.critical ? ["Critical"] : []),
    ...(release.minimum_version ? [`Minimum version ${release.minimum_version}`] : []),
  ];
  return parts.length > 0 ? parts.join(" · ") : null;
}
