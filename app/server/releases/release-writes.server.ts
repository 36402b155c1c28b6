import { eq, ne, sql } from "drizzle-orm";
import { checkNewVersion } from "~/domain/release-channel";
import { ReleaseInputError } from "~/domain/release-input";
import { compareVersions, parseVersion } from "~/domain/version";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { announcePublicPagesChange, publicPagesChangedHere } from "../cache/caches.server";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { recomputeEveryFallback } from "../licenses/fallback.server";
import { recordEvent, releaseData } from "../webhooks/events.server";
import { releases } from "../db/schema";

/**
 * What the admin form and the releases API share when they write a release (decision 0039): the
 * version rule (valid, unique, newer-sorting unless confirmed), one transaction that announces the
 * public pages' change, and an audit entry for every change, publishing and yanking included.
 */

/** Serialises release writes, so two requests cannot both add the same version. */
const RELEASES_LOCK = 727372027;

export async function lockReleases(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RELEASES_LOCK})`);
}

/** Refuses a version that is invalid (400), taken (409) or older than the newest without confirmation (409). */
export async function assertVersionAllowed(
  tx: Transaction,
  version: string,
  { allowOlder, exceptId }: { allowOlder: boolean; exceptId?: string },
): Promise<void> {
  const others = await tx
    .select({ version: releases.version })
    .from(releases)
    .where(exceptId ? ne(releases.id, exceptId) : undefined);
  const check = checkNewVersion(
    version,
    others.map((row) => row.version),
    { allowOlder },
  );
  if (check.ok) return;
  throw new VersionRefused(check.kind, check.message);
}

/** A refused version: `kind` says which rule (the admin form asks to confirm an older one). */
export class VersionRefused extends ReleaseInputError {
  constructor(
    public readonly kind: "invalid" | "duplicate" | "older",
    message: string,
  ) {
    super("version", message);
    this.name = "VersionRefused";
  }
  get status(): 400 | 409 {
    return this.kind === "invalid" ? 400 : 409;
  }
}

/** The release a version names: the same text, or else the same version (1.2 is 1.2.0). */
export async function findReleaseByVersion(tx: Transaction, version: string) {
  const [exact] = await tx.select().from(releases).where(eq(releases.version, version)).for("update");
  if (exact) return exact;
  const wanted = parseVersion(version);
  if (!wanted) return null;
  const all = await tx.select().from(releases);
  const same = all.find((row) => {
    const parsed = parseVersion(row.version);
    return parsed !== null && compareVersions(parsed, wanted) === 0;
  });
  return same ?? null;
}

export type ReleaseFlag = "publish" | "unpublish" | "yank" | "unyank";

/** The column changes and audit action of a flag change; null when the release is already so. */
export function flagChange(
  release: { published_at: Date | null; yanked_at: Date | null },
  flag: ReleaseFlag,
  now: Date,
): { published_at?: Date | null; yanked_at?: Date | null } | null {
  switch (flag) {
    case "publish":
      return release.published_at ? null : { published_at: now };
    case "unpublish":
      return release.published_at ? { published_at: null } : null;
    case "yank":
      return release.yanked_at ? null : { yanked_at: now };
    case "unyank":
      return release.yanked_at ? { yanked_at: null } : null;
  }
}

/** Applies flag changes to a release in the transaction, one audit entry each. */
export async function applyFlags(
  tx: Transaction,
  actor: AuditActor,
  release: typeof releases.$inferSelect,
  flags: ReleaseFlag[],
  now = new Date(),
): Promise<ReleaseFlag[]> {
  const applied: ReleaseFlag[] = [];
  let current = release;
  for (const flag of flags) {
    const change = flagChange(current, flag, now);
    if (!change) continue;
    const [updated] = await tx
      .update(releases)
      .set({ ...change, updated_at: now })
      .where(eq(releases.id, release.id))
      .returning();
    current = updated!;
    applied.push(flag);
    if (flag === "publish") await recordEvent(tx, "release.published", releaseData(current));
    await recordAudit(tx, actor, {
      action: `release.${flag}`,
      target_type: "release",
      target_id: release.id,
      details: { version: release.version },
    });
  }
  return applied;
}

/** Runs a release write in one transaction that announces the public pages' change. */
export async function releaseTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  const result = await getDb().transaction(async (tx) => {
    await lockReleases(tx);
    await announcePublicPagesChange(tx);
    const done = await work(tx);
    // A release published, yanked, edited or deleted can move the licenses' perpetual fallback (decision 0066).
    await recomputeEveryFallback(tx);
    return done;
  });
  publicPagesChangedHere();
  return result;
}
