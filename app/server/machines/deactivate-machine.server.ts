import { and, eq, isNull } from "drizzle-orm";
import {
  countsTowardLimit,
  DEACTIVATION_WINDOW_DAYS,
  deactivationAllowance,
  type DeactivationSource,
} from "~/domain/machines";
import { recordAudit, type AuditActor } from "../audit/audit.server";
import { getDb } from "../db/db.server";
import { machine_deactivations, machines, type Machine } from "../db/schema";
import { getEnv } from "../env.server";
import { countedDeactivations, fingerprintHash, lockLicense } from "./machine-records.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export type MachineDeactivation =
  | { outcome: "deactivated"; machine: Machine; deactivationsLeft: number | null }
  | { outcome: "not-active" }
  | { outcome: "limit"; nextAt: Date; perWindow: number };

/** Which machine: by its id (the web pages) or by the fingerprint the tool sends. */
export type MachineSelector = { machineId: string } | { fingerprint: string };

/**
 * Frees one of a license's machines, in one transaction holding the license's row lock. The owner's
 * (web) and the tool's deactivations are limited to MACHINE_DEACTIVATION_LIMIT per license in any 30
 * days; past that the answer says when the next one is possible. An admin's are always allowed and
 * audited; the inactivity job's neither count nor are audited (the deactivation row says why).
 */
export function deactivateMachine(
  {
    licenseId,
    selector,
    source,
    actor,
  }: { licenseId: string; selector: MachineSelector; source: DeactivationSource; actor?: AuditActor },
  now = new Date(),
) {
  const perWindow = getEnv().MACHINE_DEACTIVATION_LIMIT;
  return getDb().transaction(async (tx): Promise<MachineDeactivation> => {
    const owner = await lockLicense(tx, licenseId);
    if (!owner) return { outcome: "not-active" };
    const which =
      "machineId" in selector
        ? eq(machines.id, selector.machineId)
        : eq(machines.fingerprint_hash, fingerprintHash(selector.fingerprint));
    const [machine] = await tx
      .select()
      .from(machines)
      .where(and(eq(machines.license_id, licenseId), which, isNull(machines.deactivated_at)));
    if (!machine) return { outcome: "not-active" };
    const counts = countsTowardLimit(source);
    let deactivationsLeft: number | null = null;
    if (counts) {
      const since = new Date(now.getTime() - DEACTIVATION_WINDOW_DAYS * DAY_MS);
      const allowance = deactivationAllowance(await countedDeactivations(tx, licenseId, since), perWindow, now);
      if (!allowance.allowed) return { outcome: "limit", nextAt: allowance.nextAt, perWindow };
      deactivationsLeft = allowance.remainingAfter;
    }
    const [done] = await tx
      .update(machines)
      .set({ deactivated_at: now, deactivated_by: source })
      .where(eq(machines.id, machine.id))
      .returning();
    await tx.insert(machine_deactivations).values({
      license_id: licenseId,
      machine_id: machine.id,
      user_id: owner.user_id,
      source,
      counts_toward_limit: counts,
      created_at: now,
    });
    if (source === "admin" && actor) {
      await recordAudit(tx, actor, {
        action: "machine.deactivate",
        target_type: "license",
        target_id: licenseId,
        details: { user_id: owner.user_id, machine_id: machine.id, machine_name: machine.name },
      });
    }
    return { outcome: "deactivated", machine: done!, deactivationsLeft };
  });
}
