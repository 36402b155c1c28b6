import { licenseState } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { graceEndsAt } from "~/domain/past-due";
import type { License } from "../db/schema";
import { findLicenseByKey } from "./find-license.server";

/** The answer codes of the desktop API, in the order they are decided (decision 0018). */
export const LICENSE_CODES = [
  "NOT_FOUND",
  "REVOKED",
  "REFUNDED",
  "REFUND_REQUESTED",
  "MACHINE_MISMATCH",
  "TRIAL_EXPIRED",
  "EXPIRED",
  "VALID",
] as const;
export type LicenseCode = (typeof LICENSE_CODES)[number];

export const CODE_DETAILS: Record<LicenseCode, string> = {
  VALID: "The license is valid.",
  EXPIRED: "The license has expired.",
  TRIAL_EXPIRED: "The license's trial has ended.",
  REVOKED: "The license was revoked.",
  REFUNDED: "The license was refunded.",
  REFUND_REQUESTED: "A refund was requested for the license.",
  NOT_FOUND: "No license has this key.",
  MACHINE_MISMATCH: "The license is bound to another Windows username or computer name.",
};

/** The machine a request names; a value not sent is not compared. */
export interface Machine {
  windows_username?: string | null;
  computer_name?: string | null;
}

/** The license as the desktop API shows it; `license_key` (the current key) only while valid. */
export interface ApiLicense {
  id: string;
  license_type: string;
  status: string;
  start_date: string;
  end_date: string;
  is_trial: boolean;
  trial_ends_at: string | null;
  auto_renew: boolean;
  windows_username: string | null;
  computer_name: string | null;
  license_key?: string;
  /** A renewal payment failed; the license works until `grace_ends_at` unless paid (decision 0023). */
  payment_past_due: boolean;
  grace_ends_at: string | null;
}

export interface Validation {
  valid: boolean;
  code: LicenseCode;
  detail: string;
  license: ApiLicense | null;
}

const differs = (bound: string | null, sent: string | null | undefined) =>
  bound !== null && sent !== undefined && sent !== null && bound.toLowerCase() !== sent.toLowerCase();

/** Whether the license is bound to another machine than the one sent (case-insensitively, only what was sent). */
export function isOtherMachine(license: License, machine: Machine): boolean {
  return (
    differs(license.windows_username, machine.windows_username) || differs(license.computer_name, machine.computer_name)
  );
}

/** Codes the license's own state decides before the machine is compared (decision 0018's order). */
const BEFORE_MACHINE: readonly LicenseCode[] = ["REVOKED", "REFUNDED", "REFUND_REQUESTED"];

/**
 * The code of a license now: revoked, refunded, refund requested, machine, trial end, end date, in
 * that order. Everything but the machine comes from the one state function (domain/license-state.ts),
 * so the tool's code and the customer's badge always name the same state.
 */
export function licenseCode(license: License | null, machine: Machine = {}, now = new Date()): LicenseCode {
  if (!license) return "NOT_FOUND";
  const code = licenseState(licenseFacts(license), now).code;
  if (BEFORE_MACHINE.includes(code)) return code;
  if (isOtherMachine(license, machine)) return "MACHINE_MISMATCH";
  return code;
}

/** The validation answer for a license (null: not found) as seen from a machine. */
export function describeLicense(license: License | null, machine: Machine = {}, now = new Date()): Validation {
  const code = licenseCode(license, machine, now);
  const valid = code === "VALID";
  return {
    valid,
    code,
    detail: CODE_DETAILS[code],
    license: license && {
      id: license.id,
      license_type: license.license_type,
      status: license.status,
      start_date: license.start_date.toISOString(),
      end_date: license.end_date.toISOString(),
      is_trial: license.is_trial,
      trial_ends_at: license.trial_ends_at?.toISOString() ?? null,
      auto_renew: license.auto_renew,
      windows_username: license.windows_username,
      computer_name: license.computer_name,
      ...(valid ? { license_key: license.license_key } : {}),
      payment_past_due: license.past_due_since !== null,
      grace_ends_at: graceEndsAt(license)?.toISOString() ?? null,
    },
  };
}

/** POST /api/v1/licenses/validate: the current state of the license a key (any it ever had) belongs to. */
export async function validateLicense({ key, ...machine }: { key: string } & Machine): Promise<Validation> {
  return describeLicense(await findLicenseByKey(key), machine);
}
