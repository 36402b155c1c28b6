import { activateMachine, type MachineDetails } from "../machines/activate-machine.server";
import { deactivateMachine } from "../machines/deactivate-machine.server";
import { findLicenseByKey } from "./find-license.server";
import { apiMachine, type ApiMachine } from "./api-machine.server";
import { buildLicenseFile, type LicenseFile } from "./license-file.server";
import { signingKeys } from "./signing.server";
import { describeLicense, refusedFor, type Validation } from "./validate-license.server";

export interface MachineActivationAnswer extends Validation {
  /** The machines a license allows at once. */
  machine_limit: number | null;
  /** This machine, once active. */
  machine: ApiMachine | null;
  /** MACHINE_LIMIT: the active machines (name and last seen), so the tool can say which to free. */
  machines?: { name: string; last_seen_at: string }[];
  /** A license file bound to this machine, while the license is valid and the machine active. */
  license_file: LicenseFile | null;
}

/**
 * POST /api/v1/machines/activate: binds the machine to a valid license when a seat is free (the same
 * fingerprint again is answered the same way); a full license answers MACHINE_LIMIT with its active
 * machines; a license that is not valid answers its code and activates nothing.
 */
export async function activateMachineByKey(
  key: string,
  details: MachineDetails,
  now = new Date(),
): Promise<MachineActivationAnswer> {
  const license = await findLicenseByKey(key);
  const answer = describeLicense(license, {}, now);
  const none = { machine_limit: null, machine: null, license_file: null };
  if (!license || !answer.valid) return { ...answer, ...none };
  const result = await activateMachine(license, details, now);
  if (result.outcome === "gone") return { ...describeLicense(null), ...none };
  if (result.outcome === "full") {
    return {
      ...refusedFor(answer, "MACHINE_LIMIT"),
      ...none,
      machine_limit: result.limit,
      machines: result.active.map((m) => ({ name: m.name, last_seen_at: m.last_seen_at.toISOString() })),
    };
  }
  return {
    ...answer,
    machine_limit: result.limit,
    machine: apiMachine(result.machine),
    license_file: buildLicenseFile(license, now, signingKeys(), result.machine),
  };
}

export interface MachineDeactivationAnswer extends Validation {
  deactivated: boolean;
  /** Self-service deactivations left in the current 30 days (after this one). */
  deactivations_left: number | null;
  /** DEACTIVATION_LIMIT: when the next one is possible. */
  next_deactivation_at: string | null;
}

/**
 * POST /api/v1/machines/deactivate: the tool frees its own machine, counted toward the license's
 * self-service limit. A machine that is not active answers MACHINE_NOT_ACTIVATED; past the limit,
 * DEACTIVATION_LIMIT with when the next one is possible; a license that is not valid answers its code.
 */
export async function deactivateMachineByKey(
  key: string,
  fingerprint: string,
  now = new Date(),
): Promise<MachineDeactivationAnswer> {
  const license = await findLicenseByKey(key);
  const answer = describeLicense(license, {}, now);
  const none = { deactivated: false, deactivations_left: null, next_deactivation_at: null };
  if (!license || !answer.valid) return { ...answer, ...none };
  const result = await deactivateMachine({ licenseId: license.id, selector: { fingerprint }, source: "tool" }, now);
  if (result.outcome === "not-active") return { ...refusedFor(answer, "MACHINE_NOT_ACTIVATED"), ...none };
  if (result.outcome === "limit")
    return { ...refusedFor(answer, "DEACTIVATION_LIMIT"), ...none, next_deactivation_at: result.nextAt.toISOString() };
  return { ...answer, deactivated: true, deactivations_left: result.deactivationsLeft, next_deactivation_at: null };
}
