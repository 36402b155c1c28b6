import { and, desc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { withinFallback } from "~/domain/fallback";
import { channelsOffered, isOffered, newestOffered, type ReleaseChannel } from "~/domain/release-channel";
import { inRollout, updatePolicy } from "~/domain/release-rollout";
import { isNewerVersion } from "~/domain/version";
import { rolloutBucket } from "../releases/rollout-bucket.server";
import { getDb } from "../db/db.server";
import { licenses, releases } from "../db/schema";
import { getEnv } from "../env.server";
import { licenseCode } from "./validate-license.server";

export interface LatestRelease {
  version: string;
  title: string | null;
  release_date: string;
  notes: string[];
  channel: string;
  download_url: string;
  /** The installer's size in bytes and SHA-256 (lowercase hex) when the release records them: signed with the answer. */
  size: number | null;
  sha256: string | null;
  /** The percentage of machines it is offered to, whether the tool should install it, and its minimum version (decision 0062). */
  rollout: number;
  critical: boolean;
  minimum_version: string | null;
}

/** The machine asking, when the tool names it: its license's id and its fingerprint. */
export interface UpdateMachine {
  licenseId: string;
  fingerprint: string;
}

export interface UpdateAnswer {
  channel: ReleaseChannel;
  latest: LatestRelease | null;
  update_available: boolean;
  /** The highest minimum version among the releases offered to this machine; the tool below it must update first. */
  minimum_version: string | null;
  update_required: boolean;
  /** A release newer than the tool's version, offered to this machine, is critical. */
  critical_update: boolean;
  /**
   * The machine's license has ended with a perpetual fallback (decision 0070): only releases up to
   * this version are offered. Absent otherwise.
   */
  fallback_version?: string;
}

/** DOWNLOAD_URL as an absolute address (a path is on PUBLIC_URL). */
export function absoluteDownloadUrl(): string {
  const env = getEnv();
  return env.DOWNLOAD_URL.startsWith("/") ? `${env.PUBLIC_URL}${env.DOWNLOAD_URL}` : env.DOWNLOAD_URL;
}

/** The fallback an ended license keeps (decision 0070), which caps what its machine is offered; else null. */
async function fallbackCap(licenseId: string, now: Date): Promise<string | null> {
  const [license] = await getDb().select().from(licenses).where(eq(licenses.id, licenseId));
  if (!license?.fallback_version || licenseCode(license, {}, now) !== "EXPIRED") return null;
  return license.fallback_version;
}

/**
 * GET /api/v1/updates/latest: the newest published, non-yanked release of the channel (beta
 * includes stable; newest by semantic-version order, release-channel.ts) that reaches this machine
 * (a partial rollout only the machines in its percentage, decision 0062; a machine not named only
 * full rollouts), whether it is newer than the tool's version, and what the offered releases ask of
 * the tool (minimum version, critical). A named machine whose license has ended with a perpetual
 * fallback is offered only releases up to its fallback version (decision 0070).
 */
export async function latestUpdate(
  current: string,
  channel: ReleaseChannel = "stable",
  machine?: UpdateMachine,
  now = new Date(),
): Promise<UpdateAnswer> {
  const candidates = await getDb()
    .select({
      version: releases.version,
      title: releases.title,
      release_date: releases.release_date,
      notes: releases.release_notes,
      channel: releases.channel,
      download_url: releases.download_url,
      size: releases.installer_size_bytes,
      sha256: releases.installer_sha256,
      published_at: releases.published_at,
      yanked_at: releases.yanked_at,
      rollout_percent: releases.rollout_percent,
      critical: releases.critical,
      minimum_version: releases.minimum_version,
    })
    .from(releases)
    .where(
      and(
        isNotNull(releases.published_at),
        isNull(releases.yanked_at),
        inArray(releases.channel, channelsOffered(channel)),
      ),
    )
    // Versions that do not parse (older data) fall back to the release notes' order.
    .orderBy(desc(releases.release_date), desc(releases.created_at));
  const reaches = (release: { version: string; rollout_percent: number }) =>
    machine !== undefined &&
    inRollout(rolloutBucket(release.version, machine.licenseId, machine.fingerprint), release.rollout_percent);
  const cap = machine && (await fallbackCap(machine.licenseId, now));
  const offered = candidates.filter(
    (release) => isOffered(release, channel, reaches) && (!cap || withinFallback(release.version, cap)),
  );
  const policy = { ...updatePolicy(offered, current), ...(cap ? { fallback_version: cap } : {}) };
  const newest = newestOffered(offered, channel, reaches);
  if (!newest) return { channel, latest: null, update_available: false, ...policy };
  const { published_at: _published, yanked_at: _yanked, rollout_percent, ...latest } = newest;
  return {
    channel,
    latest: { ...latest, rollout: rollout_percent, download_url: latest.download_url ?? absoluteDownloadUrl() },
    update_available: isNewerVersion(latest.version, current),
    ...policy,
  };
}
