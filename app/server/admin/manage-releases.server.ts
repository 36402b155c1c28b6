import { eq } from "drizzle-orm";
import type { ReleaseForm } from "~/domain/admin";
import { releases } from "../db/schema";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import type { Transaction } from "../db/client.server";
import {
  applyFlags,
  assertVersionAllowed,
  releaseTransaction,
  type ReleaseFlag,
} from "../releases/release-writes.server";

/**
 * Adds a release (a draft unless "Save and publish"), or saves an existing one (by id); the version
 * must be valid, unique and newer than the newest unless the admin confirmed an older one (decision 0039).
 * Recorded in the audit log, publishing included.
 */
export async function saveRelease({
  admin,
  id,
  release,
}: {
  admin: AuditActor;
  id: string | null;
  release: ReleaseForm;
}) {
  const { allow_older, publish, ...values } = release;
  return releaseTransaction(async (tx) => {
    if (id) return { id: await updateRelease(tx, admin, id, release), created: false };
    await assertVersionAllowed(tx, values.version, { allowOlder: allow_older });
    const [created] = await tx.insert(releases).values(values).returning();
    await recordAudit(tx, admin, {
      action: "release.create",
      target_type: "release",
      target_id: created!.id,
      details: { version: values.version, channel: values.channel, ...rolloutOf(values) },
    });
    if (publish) await applyFlags(tx, admin, created!, ["publish"]);
    return { id: created!.id, created: true };
  });
}

async function updateRelease(tx: Transaction, admin: AuditActor, id: string, release: ReleaseForm): Promise<string> {
  const { allow_older, publish, ...values } = release;
  if (!isUuid(id)) throw new ActionError(404, "Release not found");
  const [before] = await tx.select().from(releases).where(eq(releases.id, id)).for("update");
  if (!before) throw new ActionError(404, "Release not found");
  if (before.version !== values.version) {
    await assertVersionAllowed(tx, values.version, { allowOlder: allow_older, exceptId: id });
  }
  const [updated] = await tx
    .update(releases)
    .set({ ...values, updated_at: new Date() })
    .where(eq(releases.id, id))
    .returning();
  await recordAudit(tx, admin, {
    action: "release.update",
    target_type: "release",
    target_id: id,
    details: { version: values.version, ...rolloutOf(values) },
  });
  if (publish) await applyFlags(tx, admin, updated!, ["publish"]);
  return id;
}

/** What the audit log keeps of a release's rollout (decision 0062). */
const rolloutOf = (values: Pick<ReleaseForm, "rollout_percent" | "critical" | "minimum_version">) => ({
  rollout: values.rollout_percent,
  critical: values.critical,
  minimum_version: values.minimum_version,
});

/** Publishes, unpublishes, yanks or restores a release; audited. Already so: 409 with the reason. */
export async function setReleaseFlag({
  admin,
  id,
  flag,
}: {
  admin: AuditActor;
  id: string;
  flag: ReleaseFlag;
}): Promise<{ version: string }> {
  if (!isUuid(id)) throw new ActionError(404, "Release not found");
  return releaseTransaction(async (tx) => {
    const [release] = await tx.select().from(releases).where(eq(releases.id, id)).for("update");
    if (!release) throw new ActionError(404, "Release not found");
    const applied = await applyFlags(tx, admin, release, [flag]);
    if (applied.length === 0) throw new ActionError(409, `Version ${release.version} is already ${FLAG_STATES[flag]}.`);
    return { version: release.version };
  });
}

const FLAG_STATES: Record<ReleaseFlag, string> = {
  publish: "published",
  unpublish: "a draft",
  yank: "yanked",
  unyank: "not yanked",
};

/** Deletes a release; recorded in the audit log. */
export async function deleteRelease({ admin, id }: { admin: AuditActor; id: string }): Promise<{ version: string }> {
  if (!isUuid(id)) throw new ActionError(404, "Release not found");
  return releaseTransaction(async (tx) => {
    const [deleted] = await tx.delete(releases).where(eq(releases.id, id)).returning({ version: releases.version });
    if (!deleted) throw new ActionError(404, "Release not found");
    await recordAudit(tx, admin, {
      action: "release.delete",
      target_type: "release",
      target_id: id,
      details: { version: deleted.version },
    });
    return deleted;
  });
}
