import type { ReleaseView } from "~/domain/views";

export type { ReleaseView } from "~/domain/views";
import { and, desc, inArray, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { ReleaseChannel } from "~/domain/release-channel";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";

export const releaseColumns = {
  id: releases.id,
  version: releases.version,
  title: releases.title,
  release_date: releases.release_date,
  release_notes: releases.release_notes,
  installer_size_bytes: releases.installer_size_bytes,
  installer_sha256: releases.installer_sha256,
  channel: releases.channel,
  download_url: releases.download_url,
  published_at: releases.published_at,
  yanked_at: releases.yanked_at,
  rollout_percent: releases.rollout_percent,
  critical: releases.critical,
  minimum_version: releases.minimum_version,
};

type ReleaseRow = { [K in keyof typeof releaseColumns]: (typeof releases.$inferSelect)[K] };

export function toReleaseView(row: ReleaseRow): ReleaseView {
  return {
    ...row,
    published_at: row.published_at ? row.published_at.toISOString() : null,
    yanked_at: row.yanked_at ? row.yanked_at.toISOString() : null,
  };
}

/**
 * Releases, newest first (release date, then creation). `which`: "all" for the admin (drafts too),
 * "published" for the release notes (yanked ones too, marked), "offered" for the download page and
 * the feed (published, not yanked). `channels` narrows to those channels.
 */
export async function listReleases({
  limit,
  which = "all",
  channels,
}: { limit?: number; which?: "all" | "published" | "offered"; channels?: ReleaseChannel[] } = {}): Promise<
  ReleaseView[]
> {
  const where: SQL[] = [];
  if (which !== "all") where.push(isNotNull(releases.published_at));
  if (which === "offered") where.push(isNull(releases.yanked_at));
  if (channels) where.push(inArray(releases.channel, channels));
  const query = getDb()
    .select(releaseColumns)
    .from(releases)
    .where(and(...where))
    .orderBy(desc(releases.release_date), desc(releases.created_at));
  return (await (limit ? query.limit(limit) : query)).map(toReleaseView);
}
