import { eq } from "drizzle-orm";
import { releaseStatus, type ReleaseChannel } from "~/domain/release-channel";
import { readMinimumVersion, type ReleaseInput, type ReleasePatch } from "~/domain/release-input";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { releases } from "../db/schema";
import { absoluteDownloadUrl } from "../license-api/latest-update.server";
import { recordEvent, releaseData } from "../webhooks/events.server";
import { listReleases, type ReleaseView } from "./list-releases.server";
import {
  applyFlags,
  assertVersionAllowed,
  findReleaseByVersion,
  releaseTransaction,
  type ReleaseFlag,
} from "./release-writes.server";

/** A release as the releases API answers it (the contract's names). */
export interface ApiRelease {
  version: string;
  title: string | null;
  notes: string[];
  channel: string;
  download_url: string;
  size: number | null;
  sha256: string | null;
  release_date: string;
  status: "draft" | "published" | "yanked";
  published: boolean;
  yanked: boolean;
  /** Decision 0062: the percentage of machines offered it, whether the tool should install it, its minimum version. */
  rollout: number;
  critical: boolean;
  minimum_version: string | null;
}

export function apiRelease(
  release: Omit<ReleaseView, "published_at" | "yanked_at"> & {
    published_at: unknown;
    yanked_at: unknown;
  },
): ApiRelease {
  return {
    version: release.version,
    title: release.title,
    notes: release.release_notes,
    channel: release.channel,
    download_url: release.download_url ?? absoluteDownloadUrl(),
    size: release.installer_size_bytes,
    sha256: release.installer_sha256,
    release_date: release.release_date,
    status: releaseStatus(release),
    published: Boolean(release.published_at),
    yanked: Boolean(release.yanked_at),
    rollout: release.rollout_percent,
    critical: release.critical,
    minimum_version: release.minimum_version,
  };
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/** POST /api/v1/releases: a new release (a draft unless published), its version checked; audited. */
export async function createApiRelease(actor: AuditActor, input: ReleaseInput, now = new Date()): Promise<ApiRelease> {
  return releaseTransaction(async (tx) => {
    // CI may publish a fix for an older line: an older version needs no confirmation here.
    await assertVersionAllowed(tx, input.version, { allowOlder: true });
    const { published, ...values } = input;
    const [created] = await tx
      .insert(releases)
      .values({ ...values, release_date: today(now), published_at: published ? now : null })
      .returning();
    await recordAudit(tx, actor, {
      action: "release.create",
      target_type: "release",
      target_id: created!.id,
      details: {
        version: input.version,
        channel: input.channel,
        sha256: input.installer_sha256,
        rollout: input.rollout_percent,
        critical: input.critical,
        minimum_version: input.minimum_version,
      },
    });
    if (published) {
      await recordEvent(tx, "release.published", releaseData(created!));
      await recordAudit(tx, actor, {
        action: "release.publish",
        target_type: "release",
        target_id: created!.id,
        details: { version: input.version },
      });
    }
    return apiRelease(created!);
  });
}

/** PATCH /api/v1/releases/{version}: edit, publish, unpublish, yank or restore; each change audited. */
export async function patchApiRelease(
  actor: AuditActor,
  version: string,
  patch: ReleasePatch,
  now = new Date(),
): Promise<ApiRelease | null> {
  return releaseTransaction(async (tx) => {
    const found = await findReleaseByVersion(tx, version);
    if (!found) return null;
    let release: typeof found | undefined = found;
    // A minimum version above this release's own is refused before anything changes.
    if (patch.minimum_version !== undefined) readMinimumVersion(patch.minimum_version, found.version);
    const edits = releaseEdits(patch);
    if (Object.keys(edits).length > 0) {
      [release] = await tx
        .update(releases)
        .set({ ...edits, updated_at: now })
        .where(eq(releases.id, found.id))
        .returning();
      await recordAudit(tx, actor, {
        action: "release.update",
        target_type: "release",
        target_id: found.id,
        details: { version: found.version, fields: Object.keys(edits), ...rolloutDetails(patch) },
      });
    }
    const flags: ReleaseFlag[] = [];
    if (patch.published !== undefined) flags.push(patch.published ? "publish" : "unpublish");
    if (patch.yanked !== undefined) flags.push(patch.yanked ? "yank" : "unyank");
    // A draft published from CI is dated the day it goes out.
    if (patch.published && !release!.published_at) {
      [release] = await tx
        .update(releases)
        .set({ release_date: today(now) })
        .where(eq(releases.id, found.id))
        .returning();
    }
    await applyFlags(tx, actor, release!, flags, now);
    const [after] = await tx.select().from(releases).where(eq(releases.id, found.id));
    return apiRelease(after!);
  });
}

/** The columns a patch changes beside the flags. */
function releaseEdits(patch: ReleasePatch) {
  const { published: _published, yanked: _yanked, ...fields } = patch;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<
    Omit<ReleasePatch, "published" | "yanked">
  >;
}

/** What the audit log keeps of a rollout change: the new values. */
function rolloutDetails(patch: ReleasePatch) {
  return Object.fromEntries(
    (["rollout_percent", "critical", "minimum_version"] as const)
      .filter((field) => patch[field] !== undefined)
      .map((field) => [field === "rollout_percent" ? "rollout" : field, patch[field]]),
  );
}

/** GET /api/v1/releases?channel=: every release of the channel (drafts and yanked too), newest first. */
export async function listApiReleases(channel: ReleaseChannel | null): Promise<ApiRelease[]> {
  const rows = await listReleases({ channels: channel ? [channel] : undefined });
  return rows.map(apiRelease);
}
