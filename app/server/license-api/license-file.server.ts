import type { Entitlement } from "~/domain/entitlements";
import { fallbackFields } from "~/domain/fallback";
import { accessEndsAt } from "~/domain/past-due";
import { entitlementsOf } from "~/domain/plans";
import type { License, Machine } from "../db/schema";
import { findActiveMachine } from "../machines/machine-records.server";
import { findLicenseByKey } from "./find-license.server";
import { signingKeys, type SigningKeys } from "./signing.server";
import { licenseCode, needsFingerprint, type LicenseCode } from "./validate-license.server";

/** How long a license file is good for before the tool should fetch a fresh one (never past the license's end). */
export const LICENSE_FILE_REFRESH_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A signed license file for offline use: Ed25519 over the ASCII bytes of `payload` (base64url of the JSON). */
export interface LicenseFile {
  format: "license/1";
  kid: string;
  payload: string;
  signature: string;
}

export interface LicenseFilePayload {
  license_id: string;
  email: string;
  license_type: string;
  windows_username: string | null;
  computer_name: string | null;
  start_date: string;
  end_date: string;
  is_trial: boolean;
  issued_at: string;
  refresh_by: string;
  /** A file bound to a machine (decision 0041): the hex SHA-256 of its fingerprint and its name. */
  fingerprint_sha256?: string;
  machine_name?: string;
  /** An activation file (decision 0071): the nonce of the offline activation request it answers. */
  request_nonce?: string;
  /** A team's seat license (decision 0046): the team that provides it. Absent for a personal license. */
  team?: { id: string; name: string };
  /** The features its plan includes, as the plan table named them at `entitlements_as_of` (the file's issued_at). */
  entitlements: Entitlement[];
  entitlements_as_of: string;
  /**
   * The perpetual fallback (decision 0070): once `updates_until` has passed, the license stays valid
   * for versions up to `fallback_version`; both null when none was earned.
   */
  fallback_version: string | null;
  updates_until: string | null;
}

/**
 * The signed file of a license (the caller has checked that it is valid now). refresh_by is 30
 * days after issued_at, never past end_date (or a past-due license's grace end; nor, for a trial,
 * past its trial end).
 */
export function buildLicenseFile(
  license: License & { team_name?: string | null },
  now = new Date(),
  keys: SigningKeys = signingKeys(),
  machine?: Pick<Machine, "fingerprint_hash" | "name">,
  answering?: { request_nonce: string },
): LicenseFile {
  // A past-due license (decision 0023) works until its grace period ends.
  let refreshBy = Math.min(now.getTime() + LICENSE_FILE_REFRESH_DAYS * DAY_MS, accessEndsAt(license).getTime());
  if (license.is_trial && license.trial_ends_at) refreshBy = Math.min(refreshBy, license.trial_ends_at.getTime());
  const content: LicenseFilePayload = {
    license_id: license.id,
    email: license.email,
    license_type: license.license_type,
    windows_username: license.windows_username,
    computer_name: license.computer_name,
    start_date: license.start_date.toISOString(),
    end_date: license.end_date.toISOString(),
    is_trial: license.is_trial,
    issued_at: now.toISOString(),
    refresh_by: new Date(refreshBy).toISOString(),
    ...(machine ? { fingerprint_sha256: machine.fingerprint_hash, machine_name: machine.name } : {}),
    ...(answering ? { request_nonce: answering.request_nonce } : {}),
    ...(license.team_role === "seat" && license.team_id && license.team_name
      ? { team: { id: license.team_id, name: license.team_name } }
      : {}),
    entitlements: entitlementsOf(license.license_type),
    entitlements_as_of: now.toISOString(),
    ...fallbackFields(license),
  };
  const payload = Buffer.from(JSON.stringify(content), "utf8").toString("base64url");
  return {
    format: "license/1",
    kid: keys.kid,
    payload,
    signature: keys.sign(Buffer.from(payload, "ascii")).toString("base64"),
  };
}

/**
 * A license file when the license is valid now, else its code: for the desktop API and for the
 * licenses page's "Download license file" (the page checks ownership first).
 */
export function issueLicenseFile(
  license: (License & { team_name?: string | null }) | null,
  now = new Date(),
): { code: LicenseCode; file: LicenseFile | null } {
  // A team's subscription license carries the billing only: no file (its seats have theirs).
  if (license?.team_role === "billing") return { code: "NOT_FOUND", file: null };
  const code = licenseCode(license, {}, now);
  return { code, file: code === "VALID" && license ? buildLicenseFile(license, now) : null };
}

/**
 * GET /api/v1/licenses/file: the file of the license a key (any it ever had) belongs to; with a
 * fingerprint, bound to that machine, or MACHINE_NOT_ACTIVATED when it is not active on the license;
 * without one, FINGERPRINT_REQUIRED for a plan in REQUIRE_FINGERPRINT_PLANS.
 */
export async function licenseFileForKey(
  key: string,
  fingerprint?: string,
  now = new Date(),
): Promise<{ code: LicenseCode; file: LicenseFile | null }> {
  const license = await findLicenseByKey(key);
  const issued = issueLicenseFile(license, now);
  // A plan validated only with a fingerprint gets no file that is bound to no machine.
  if (fingerprint === undefined && needsFingerprint(license, issued))
    return { code: "FINGERPRINT_REQUIRED", file: null };
  if (fingerprint === undefined || !issued.file || !license) return issued;
  const machine = await findActiveMachine(license.id, fingerprint);
  if (!machine) return { code: "MACHINE_NOT_ACTIVATED", file: null };
  return { code: issued.code, file: buildLicenseFile(license, now, signingKeys(), machine) };
}
