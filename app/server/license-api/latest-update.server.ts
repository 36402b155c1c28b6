import { and, desc, inArray, isNotNull, isNull } from "drizzle-orm";
import { channelsOffered, newestOffered, type ReleaseChannel } from "~/domain/release-channel";
import { isNewerVersion } from "~/domain/version";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";
import { getEnv } from "../env.server";

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
}

/** DOWNLOAD_URL as an absolute address (a path is on PUBLIC_URL). */
export function absoluteDownloadUrl(): string {
  const env = getEnv();
  return env.DOWNLOAD_URL.startsWith("/") ? `${env.PUBLIC_URL}${env.DOWNLOAD_URL}` : env.DOWNLOAD_URL;
}

/**
 * GET /api/v1/updates/latest: the newest published, non-yanked release of the channel (beta
 * includes stable; newest by semantic-version order, release-channel.ts) and whether it is newer
 * than the tool's version.
 */
export async function latestUpdate(
  current: string,
  channel: ReleaseChannel = "stable",
): Promise<{ channel: ReleaseChannel; latest: LatestRelease | null; update_available: boolean }> {
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
  const newest = newestOffered(candidates, channel);
  if (!newest) return { channel, latest: null, update_available: false };
  const { published_at: _published, yanked_at: _yanked, ...latest } = newest;
  return {
    channel,
    latest: { ...latest, download_url: latest.download_url ?? absoluteDownloadUrl() },
    update_available: isNewerVersion(latest.version, current),
  };
}
