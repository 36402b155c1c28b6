import { and, eq, isNull } from "drizzle-orm";
import { machineLimitFor, seatDecision } from "~/domain/machines";
import type { Transaction } from "../db/client.server";
import { getDb } from "../db/db.server";
import { machines, type License, type Machine } from "../db/schema";
import { getEnv, machineLimits } from "../env.server";
import { enqueue } from "../jobs/jobs.server";
import { machineData, recordEvent } from "../webhooks/events.server";
import { activeMachines, fingerprintHash, lockLicense } from "./machine-records.server";

export const MACHINE_ACTIVATED_MAIL_JOB = "machine-activated-mail";

export interface MachineDetails {
  fingerprint: string;
  name: string;
  platform?: string;
  app_version?: string;
}

export type MachineActivation =
  | { outcome: "active"; machine: Machine; created: boolean; limit: number }
  | { outcome: "full"; active: Machine[]; limit: number }
  | { outcome: "gone" };

/** The number of machines a license may have active at once (MACHINES_PER_PLAN). */
export const licenseMachineLimit = (license: { license_type: string; is_trial: boolean }) =>
  machineLimitFor(machineLimits(getEnv()), license.license_type, license.is_trial);

/**
 * Activates a machine on a license the caller found valid: in one transaction holding the license's
 * row lock (so two activations racing for the last seat are decided one after the other, on one
 * server or several), the same fingerprint again refreshes its machine; a free seat makes a new
 * machine and queues the owner's e-mail about it; a full license is answered with its machines.
 */
export function activateMachine(license: License, details: MachineDetails, now = new Date()) {
  return getDb().transaction((tx) => activateMachineIn(tx, license, details, now));
}

/** activateMachine inside the caller's transaction (offline activation records its request with it, decision 0071). */
export async function activateMachineIn(
  tx: Transaction,
  license: License,
  details: MachineDetails,
  now = new Date(),
): Promise<MachineActivation> {
  const limit = licenseMachineLimit(license);
  const hash = fingerprintHash(details.fingerprint);
  const seen = {
    name: details.name,
    last_seen_at: now,
    ...(details.platform ? { platform: details.platform } : {}),
    ...(details.app_version ? { app_version: details.app_version } : {}),
  };
  const owner = await lockLicense(tx, license.id);
  if (!owner) return { outcome: "gone" };
  const active = await activeMachines(tx, license.id);
  const decision = seatDecision(
    active.map((m) => m.fingerprint_hash),
    hash,
    limit,
  );
  if (decision === "full") return { outcome: "full", active, limit };
  if (decision === "already-active") {
    const [machine] = await tx
      .update(machines)
      .set(seen)
      .where(
        and(eq(machines.license_id, license.id), eq(machines.fingerprint_hash, hash), isNull(machines.deactivated_at)),
      )
      .returning();
    return { outcome: "active", machine: machine!, created: false, limit };
  }
  const [machine] = await tx
    .insert(machines)
    .values({ license_id: license.id, user_id: owner.user_id, fingerprint_hash: hash, activated_at: now, ...seen })
    .returning();
  await recordEvent(tx, "machine.activated", machineData(machine!, license));
  await enqueue(
    MACHINE_ACTIVATED_MAIL_JOB,
    { machineId: machine!.id },
    { key: `machine-activated:${machine!.id}`, tx },
  );
  return { outcome: "active", machine: machine!, created: true, limit };
}
