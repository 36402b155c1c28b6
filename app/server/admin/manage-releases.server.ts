import { eq } from "drizzle-orm";
import type { ReleaseForm } from "~/domain/admin";
import { getDb } from "../db/db.server";
import { releases } from "../db/schema";
import { ActionError, isUuid } from "../action-error.server";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { announcePublicPagesChange, publicPagesChangedHere } from "../cache/caches.server";

/** Adds a release, or saves an existing one (by id); recorded in the audit log. */
export async function saveRelease({
  admin,
  id,
  release,
}: {
  admin: AuditActor;
  id: string | null;
  release: ReleaseForm;
}) {
  const saved = await getDb().transaction(async (tx) => {
    await announcePublicPagesChange(tx);
    if (id) {
      if (!isUuid(id)) throw new ActionError(404, "Release not found");
      const updated = await tx
        .update(releases)
        .set({ ...release, updated_at: new Date() })
        .where(eq(releases.id, id))
        .returning({ id: releases.id });
      if (updated.length === 0) throw new ActionError(404, "Release not found");
      await recordAudit(tx, admin, {
        action: "release.update",
        target_type: "release",
        target_id: id,
        details: { version: release.version },
      });
      return { id, created: false };
    }
    const [created] = await tx.insert(releases).values(release).returning({ id: releases.id });
    await recordAudit(tx, admin, {
      action: "release.create",
      target_type: "release",
      target_id: created!.id,
      details: { version: release.version },
    });
    return { id: created!.id, created: true };
  });
  publicPagesChangedHere();
  return saved;
}

/** Deletes a release; recorded in the audit log. */
export async function deleteRelease({ admin, id }: { admin: AuditActor; id: string }): Promise<{ version: string }> {
  if (!isUuid(id)) throw new ActionError(404, "Release not found");
  const removed = await getDb().transaction(async (tx) => {
    await announcePublicPagesChange(tx);
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
  publicPagesChangedHere();
  return removed;
}
