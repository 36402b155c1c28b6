import type { ReleaseView } from "~/domain/views";

export type { ReleaseView } from "~/domain/views";
import { desc } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";

/** Releases, newest first (3 on the download page, all on release notes and admin). */
export async function listReleases({ limit }: { limit?: number } = {}): Promise<ReleaseView[]> {
  const query = getDb()
    .select({
      id: releases.id,
      version: releases.version,
      title: releases.title,
      release_date: releases.release_date,
      release_notes: releases.release_notes,
      installer_size_bytes: releases.installer_size_bytes,
      installer_sha256: releases.installer_sha256,
    })
    .from(releases)
    .orderBy(desc(releases.release_date), desc(releases.created_at));
  return limit ? query.limit(limit) : query;
}
