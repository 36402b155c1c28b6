import { CHARGEBACK_REASON } from "~/domain/disputes";
import type { Entitlement } from "~/domain/entitlements";
import { fallbackFields } from "~/domain/fallback";
import { entitlementsOf } from "~/domain/plans";
import { licenseStateCode } from "~/domain/license-state";
import { licenseFacts } from "~/domain/license-status";
import { graceEndsAt } from "~/domain/past-due";
import type { License, Machine as MachineRow } from "../db/schema";
import { fingerprintRequiredFor, LAST_SEEN_WRITE_INTERVAL_MS, shouldRecordSeen } from "~/domain/machines";
import { getEnv } from "../env.server";
import { recordSeen } from "../machines/machine-records.server";
import { findLicenseAndMachine, findLicenseByKey } from "./find-license.server";
import { apiMachine, type ApiMachine } from "./api-machine.server";
import { recordLicenseValidation } from "../metrics/record.server";

/** The answer codes of the desktop API, in the order they are decided (decision 0018). */
export const LICENSE_CODES = [
  "NOT_FOUND",
  "REVOKED",
  "REFUNDED",
  "REFUND_REQUESTED",
  "MACHINE_MISMATCH",
  "TRIAL_EXPIRED",
  "EXPIRED",
  "EXPIRED_FALLBACK",
  "FINGERPRINT_REQUIRED",
  "MACHINE_NOT_ACTIVATED",
  "MACHINE_LIMIT",
  "DEACTIVATION_LIMIT",
  "VALID",
] as const;
export type LicenseCode = (typeof LICENSE_CODES)[number];

export const CODE_DETAILS: Record<LicenseCode, string> = {
  VALID: "The license is valid.",
  EXPIRED: "The license has expired.",
  EXPIRED_FALLBACK:
    "The license's subscription has ended; it stays valid for versions up to fallback_version (sent only to a tool that asks with fallback: true).",
  TRIAL_EXPIRED: "The license's trial has ended.",
  REVOKED: "The license was revoked.",
  REFUNDED: "The license was refunded.",
  REFUND_REQUESTED: "A refund was requested for the license.",
  NOT_FOUND: "No license has this key.",
  MACHINE_MISMATCH: "The license is bound to another Windows username or computer name.",
  FINGERPRINT_REQUIRED:
    "The license's plan is validated only with the machine's fingerprint: send fingerprint, and activate the machine first.",
  MACHINE_NOT_ACTIVATED: "This machine is not activated on the license.",
  MACHINE_LIMIT: "The license is active on as many machines as it allows.",
  DEACTIVATION_LIMIT:
    "The license's self-service deactivations for the last 30 days are used up: the next one is possible at next_deactivation_at, and support can help sooner.",
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
  /** Why a REVOKED license was revoked, when it was not an admin: "chargeback" (decision 0056). Absent otherwise. */
  revoked_reason?: string;
  /** The features its plan includes, read from the plan table now (app/domain/plans.ts). */
  entitlements: Entitlement[];
  /** The perpetual fallback (decision 0070): the version kept after the subscription ends, and until when every version is included. */
  fallback_version: string | null;
  updates_until: string | null;
}

export interface Validation {
  valid: boolean;
  code: LicenseCode;
  detail: string;
  license: ApiLicense | null;
}

/** A valid license's answer turned into a refusal with a machine code (the current key left out, as for every refusal). */
export function refusedFor(
  answer: Validation,
  code: "FINGERPRINT_REQUIRED" | "MACHINE_NOT_ACTIVATED" | "MACHINE_LIMIT" | "DEACTIVATION_LIMIT",
) {
  const license = answer.license && { ...answer.license };
  delete license?.license_key;
  return { ...answer, valid: false, code, detail: CODE_DETAILS[code], license };
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
  const code = licenseStateCode(licenseFacts(license), now);
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
      ...(license.status === "revoked" && license.charged_back_at ? { revoked_reason: CHARGEBACK_REASON } : {}),
      entitlements: entitlementsOf(license.license_type),
      ...fallbackFields(license),
    },
  };
}

/** What a newer tool sends about its machine with validate (all optional). */
export interface MachineSeen {
  fingerprint?: string;
  platform?: string;
  app_version?: string;
  /** The entitlements the tool asks about: the answer says whether the license gives them all (`entitled`). */
  entitlements?: Entitlement[];
  /** The tool knows EXPIRED_FALLBACK (decision 0070): an ended license with a fallback answers it instead of EXPIRED. */
  fallback?: boolean;
}

/**
 * POST /api/v1/licenses/validate: the current state of the license a key (any it ever had) belongs
 * to. With a fingerprint, a valid license answers MACHINE_NOT_ACTIVATED unless that machine is active
 * on it, and an active one records last seen (at most once an hour); every other code is the
 * license's own, whatever the machine. `found`: the license and machine the request's counts read
 * (count-and-find.server.ts), for a fingerprint.
 */
export async function validateLicense(
  {
    key,
    fingerprint,
    platform,
    app_version,
    entitlements,
    fallback,
    ...machine
  }: { key: string } & Machine & MachineSeen,
  now = new Date(),
  found?: { license: License | null; machine: MachineRow | null },
): Promise<Validation & { machine?: ApiMachine; entitled?: boolean }> {
  // With a fingerprint, the license and the machine in one query (or already read with the counts: `found`).
  const { license, machine: active } =
    found ??
    (fingerprint === undefined
      ? { license: await findLicenseByKey(key), machine: null }
      : await findLicenseAndMachine(key, fingerprint));
  const described = withFallbackCode(describeLicense(license, machine, now), fallback === true);
  const answer =
    fingerprint === undefined && needsFingerprint(license, described)
      ? refusedFor(described, "FINGERPRINT_REQUIRED")
      : await machineAnswer(described, fingerprint === undefined ? undefined : active, { platform, app_version }, now);
  recordLicenseValidation(answer.code);
  return entitlements === undefined ? answer : { ...answer, entitled: isEntitled(answer, entitlements) };
}

/**
 * EXPIRED_FALLBACK for an ended license with a fallback, when the tool asked for it (decision 0070);
 * every other tool keeps EXPIRED, with fallback_version and updates_until as fields it may ignore.
 */
export function withFallbackCode(answer: Validation, asked: boolean): Validation {
  if (!asked || answer.code !== "EXPIRED" || !answer.license?.fallback_version) return answer;
  return { ...answer, code: "EXPIRED_FALLBACK", detail: CODE_DETAILS.EXPIRED_FALLBACK };
}

/** Whether a valid license's plan includes every entitlement asked about (never for a refusal). */
export function isEntitled(answer: Validation, asked: readonly Entitlement[]): boolean {
  const given = answer.license?.entitlements ?? [];
  return answer.valid && asked.every((entitlement) => given.includes(entitlement));
}

/**
 * A valid license of a plan in REQUIRE_FINGERPRINT_PLANS, asked for without a fingerprint: refused
 * (FINGERPRINT_REQUIRED), so the tool must name the machine and the machine limit applies.
 */
export function needsFingerprint(license: License | null, answer: { code: LicenseCode }): boolean {
  if (!license || answer.code !== "VALID") return false;
  return fingerprintRequiredFor(getEnv().REQUIRE_FINGERPRINT_PLANS, license.license_type, license.is_trial);
}

/**
 * With a fingerprint (`active` not undefined): MACHINE_NOT_ACTIVATED for a valid license the machine
 * is not active on, else its machine (last seen recorded).
 */
async function machineAnswer(
  answer: Validation,
  active: MachineRow | null | undefined,
  { platform, app_version }: Omit<MachineSeen, "fingerprint">,
  now: Date,
): Promise<Validation & { machine?: ApiMachine }> {
  if (active === undefined || !answer.valid) return answer;
  if (!active) return refusedFor(answer, "MACHINE_NOT_ACTIVATED");
  if (shouldRecordSeen(active.last_seen_at, now))
    await recordSeen(active, { platform, app_version }, now, LAST_SEEN_WRITE_INTERVAL_MS);
  return { ...answer, machine: apiMachine(active) };
}
