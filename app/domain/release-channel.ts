import { compareVersions, parseVersion } from "./version";

/**
 * Release channels, drafts and yanking (decision 0039): the rules the update check, the
 * public pages, the admin form and the releases API share.
 */

export const RELEASE_CHANNELS = ["stable", "beta"] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

export const CHANNEL_ERROR = 'channel must be "stable" or "beta".';

/** A channel named by a request; missing or blank is stable, anything unknown is null. */
export function parseChannel(input: unknown): ReleaseChannel | null {
  if (input === undefined || input === null || input === "") return "stable";
  return (RELEASE_CHANNELS as readonly unknown[]).includes(input) ? (input as ReleaseChannel) : null;
}

/** The channels whose releases a channel's users are offered: beta includes stable. */
export function channelsOffered(channel: ReleaseChannel): ReleaseChannel[] {
  return channel === "beta" ? ["stable", "beta"] : ["stable"];
}

export type ReleaseStatus = "draft" | "published" | "yanked";

/** A release's state: a draft until published; a yanked release stays yanked even if published. */
export function releaseStatus(release: { published_at: unknown; yanked_at: unknown }): ReleaseStatus {
  if (release.yanked_at) return "yanked";
  return release.published_at ? "published" : "draft";
}

export interface OfferableRelease {
  version: string;
  channel: string;
  published_at: unknown;
  yanked_at: unknown;
  /** The percentage of machines it is offered to (decision 0062); absent: everyone. */
  rollout_percent?: number;
}

/**
 * Whether a published release of the channel goes to this machine: fully rolled out, or, below 100%,
 * when `inMachineRollout` says the machine is among its percentage (no machine: only full rollouts,
 * as for the download page and a tool that does not name its license and fingerprint).
 */
export function isOffered<T extends OfferableRelease>(
  release: T,
  channel: ReleaseChannel,
  inMachineRollout?: (release: T) => boolean,
): boolean {
  if (releaseStatus(release) !== "published" || !channelsOffered(channel).includes(release.channel as ReleaseChannel))
    return false;
  const percent = release.rollout_percent ?? 100;
  return percent >= 100 || (inMachineRollout?.(release) ?? false);
}

/**
 * The release a channel's users are offered: the newest version (semantic-version order) among the
 * published, non-yanked releases of the channels it includes that reach this machine (isOffered).
 * Versions that do not parse (older data) come after every one that does, in the order given.
 */
export function newestOffered<T extends OfferableRelease>(
  releases: T[],
  channel: ReleaseChannel,
  inMachineRollout?: (release: T) => boolean,
): T | null {
  let best: { release: T; version: ReturnType<typeof parseVersion> } | null = null;
  for (const release of releases) {
    if (!isOffered(release, channel, inMachineRollout)) continue;
    const version = parseVersion(release.version);
    if (!best) best = { release, version };
    else if (version && (!best.version || compareVersions(version, best.version) > 0)) best = { release, version };
  }
  return best?.release ?? null;
}

export type VersionCheck =
  { ok: true } | { ok: false; kind: "invalid" | "duplicate" | "older"; message: string; newest?: string };

export const VERSION_INVALID = "Enter a version number such as 2.5.0 or 2.5.0-beta.1.";

/**
 * Whether a new version may be added beside the existing ones: a valid version number, not the same
 * as another (1.2 and 1.2.0 are the same), and newer than every other unless the admin confirmed an
 * older one (allowOlder; the releases API never needs it: CI may publish a fix for an older line).
 */
export function checkNewVersion(
  version: string,
  existing: string[],
  { allowOlder }: { allowOlder: boolean },
): VersionCheck {
  const parsed = parseVersion(version);
  if (!parsed) return { ok: false, kind: "invalid", message: VERSION_INVALID };
  let newest: { text: string; version: NonNullable<ReturnType<typeof parseVersion>> } | null = null;
  for (const text of existing) {
    const other = parseVersion(text);
    if (text === version || (other && compareVersions(parsed, other) === 0)) {
      return { ok: false, kind: "duplicate", message: `Version ${text} already exists.` };
    }
    if (other && (!newest || compareVersions(other, newest.version) > 0)) newest = { text, version: other };
  }
  if (!allowOlder && newest && compareVersions(parsed, newest.version) < 0) {
    return {
      ok: false,
      kind: "older",
      newest: newest.text,
      message: `Version ${version} sorts before the newest release ${newest.text}. Confirm to add an older version.`,
    };
  }
  return { ok: true };
}

export const SHA256_ERROR = "A SHA-256 is 64 hexadecimal characters (0-9, a-f).";
export const SIZE_ERROR = "Enter the installer's size as a whole number of bytes.";
export const MAX_INSTALLER_BYTES = 1e12;

/** A SHA-256 as lowercase hex, or null when it is not 64 hexadecimal characters. */
export function normalizeSha256(input: string): string | null {
  const hex = input.trim().toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** An installer size: a whole number of bytes from 1 to 10^12. */
export function isInstallerSize(bytes: number): boolean {
  return Number.isSafeInteger(bytes) && bytes > 0 && bytes <= MAX_INSTALLER_BYTES;
}
