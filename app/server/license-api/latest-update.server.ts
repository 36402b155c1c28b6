import { desc } from "drizzle-orm";
import { isNewerVersion } from "~/domain/version";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";
import { getEnv } from "../env.server";

export interface LatestRelease {
  version: string;
  title: string | null;
  release_date: string;
  notes: string[];
  download_url: string;
}

/** DOWNLOAD_URL as an absolute address (a path is on PUBLIC_URL). */
export function absoluteDownloadUrl(): string {
  const env = getEnv();
  return env.DOWNLOAD_URL.startsWith("/") ? `${env.PUBLIC_URL}${env.DOWNLOAD_URL}` : env.DOWNLOAD_URL;
}

/**
 * GET /api/v1/updates/latest: the newest release (the order of the site's release notes: release
 * date, then creation) and whether its version is newer than the tool's, by semantic-version order.
 */
export async function latestUpdate(
  current: string,
): Promise<{ latest: LatestRelease | null; update_available: boolean }> {
  const [newest] = await getDb()
    .select({
      version: releases.version,
      title: releases.title,
      release_date: releases.release_date,
      notes: releases.release_notes,
    })
    .from(releases)
    .orderBy(desc(releases.release_date), desc(releases.created_at))
    .limit(1);
  if (!newest) return { latest: null, update_available: false };
  return {
    latest: { ...newest, download_url: absoluteDownloadUrl() },
    update_available: isNewerVersion(newest.version, current),
  };
}
