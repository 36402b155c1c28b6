import { desc } from "drizzle-orm";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";

export interface ReleaseView {
  id: string;
  version: string;
  title: string | null;
  release_date: string;
  release_notes: string[];
}

/** Releases, newest first (spec.md: 3 on the download page, all on release notes and admin). */
export async function listReleases({ limit }: { limit?: number } = {}): Promise<ReleaseView[]> {
  const query = getDb()
    .select({
      id: releases.id,
      version: releases.version,
      title: releases.title,
      release_date: releases.release_date,
      release_notes: releases.release_notes,
    })
    .from(releases)
    .orderBy(desc(releases.release_date), desc(releases.created_at));
  return limit ? query.limit(limit) : query;
}
