/**
 * Machines (decision 0041): the rules of activating the desktop tool on a customer's
 * computers by fingerprint. Pure: the desktop API, the licenses page, the admin pages and the
 * inactivity job share them.
 */

import { isLicenseType, LICENSE_TYPES, licenseKindRow, type LicenseType } from "./plans";

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** A fingerprint is an opaque string the tool derives (a hash of the Windows MachineGuid): 16–128 characters. */
export const FINGERPRINT_MIN_LENGTH = 16;
export const FINGERPRINT_MAX_LENGTH = 128;
const FINGERPRINT = /^[\x21-\x7e]+$/;
export const FINGERPRINT_MESSAGE = `fingerprint must be ${FINGERPRINT_MIN_LENGTH} to ${FINGERPRINT_MAX_LENGTH} printable ASCII characters without spaces (e.g. a SHA-256 hex of the Windows MachineGuid).`;

/** Whether a value is a well-formed fingerprint. */
export function isFingerprint(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length >= FINGERPRINT_MIN_LENGTH &&
    value.length <= FINGERPRINT_MAX_LENGTH &&
    FINGERPRINT.test(value)
  );
}

/** The longest machine name, platform and app version the site keeps (longer ones are refused). */
export const MACHINE_NAME_MAX_LENGTH = 64;
export const MACHINE_PLATFORM_MAX_LENGTH = 64;
export const MACHINE_APP_VERSION_MAX_LENGTH = 32;

/** Machines at once per license type (the plan table's, or MACHINES_PER_PLAN's). */
export type MachineLimits = Record<LicenseType, number>;

/** Machines per license unless configured: the plan table's (2, and 1 for a tester license). */
export const DEFAULT_MACHINE_LIMITS = Object.fromEntries(
  LICENSE_TYPES.map((type) => [type, licenseKindRow(type).machines]),
) as MachineLimits;
/** A license type the table does not know (the database's check refuses one): as many as a monthly license. */
const UNKNOWN_TYPE_MACHINES = DEFAULT_MACHINE_LIMITS.monthly;
export const MAX_MACHINES_PER_LICENSE = 100;

/**
 * MACHINES_PER_PLAN: "plan=n" pairs separated by commas (e.g. "monthly=3,tester=1"); a plan not named
 * keeps its default. Unset or empty: the defaults. Each n is 1 to 100.
 */
export function parseMachineLimits(
  text: string | undefined,
): { ok: true; limits: MachineLimits } | { ok: false; message: string } {
  const limits = { ...DEFAULT_MACHINE_LIMITS };
  for (const part of (text ?? "").split(",")) {
    if (part.trim() === "") continue;
    const match = /^\s*([\w]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!match) return { ok: false, message: `"${part.trim()}" is not plan=number` };
    const [, plan, count] = match as unknown as [string, string, string];
    if (!isLicenseType(plan)) return { ok: false, message: `"${plan}" is not one of ${LICENSE_TYPES.join(", ")}` };
    const n = Number(count);
    if (n < 1 || n > MAX_MACHINES_PER_LICENSE)
      return { ok: false, message: `${plan} must be 1 to ${MAX_MACHINES_PER_LICENSE} machines` };
    limits[plan] = n;
  }
  return { ok: true, limits };
}

/** How many machines a license of this type may have active at once (an unknown type: the default). */
export function machineLimitFor(limits: MachineLimits, licenseType: string, isTrial = false): number {
  if (isTrial) return limits.trial;
  return isLicenseType(licenseType) ? limits[licenseType] : UNKNOWN_TYPE_MACHINES;
}

/**
 * REQUIRE_FINGERPRINT_PLANS: the plans (as MACHINES_PER_PLAN names them) whose licenses the desktop
 * API validates only with the machine's fingerprint, so the machine limit cannot be sidestepped by
 * validating without one. Empty (the default): none, as before.
 */
export function parseFingerprintPlans(
  text: string | undefined,
): { ok: true; plans: LicenseType[] } | { ok: false; message: string } {
  const plans: LicenseType[] = [];
  for (const part of (text ?? "").split(",")) {
    const plan = part.trim();
    if (plan === "") continue;
    if (!isLicenseType(plan)) return { ok: false, message: `"${plan}" is not one of ${LICENSE_TYPES.join(", ")}` };
    if (!plans.includes(plan)) plans.push(plan);
  }
  return { ok: true, plans };
}

/** Whether a license of this type must be validated with a fingerprint (a trial counts as the trial plan). */
export function fingerprintRequiredFor(plans: readonly LicenseType[], licenseType: string, isTrial = false): boolean {
  const plan = isTrial ? "trial" : licenseType;
  return (plans as readonly string[]).includes(plan);
}

/** "2 machines", "1 machine": how pricing and the licenses page say the limit. */
export const machinesPhrase = (count: number) => `${count} machine${count === 1 ? "" : "s"}`;

/** What an activation does: the machine is already active (refresh it), a seat is free, or the license is full. */
export type SeatDecision = "already-active" | "seat-free" | "full";

export function seatDecision(
  activeFingerprintHashes: readonly string[],
  fingerprintHash: string,
  limit: number,
): SeatDecision {
  if (activeFingerprintHashes.includes(fingerprintHash)) return "already-active";
  return activeFingerprintHashes.length < limit ? "seat-free" : "full";
}

/** Who freed a machine: the owner on the licenses page, the tool itself, an admin, or the inactivity job. */
export const DEACTIVATION_SOURCES = ["web", "tool", "admin", "inactivity"] as const;
export type DeactivationSource = (typeof DEACTIVATION_SOURCES)[number];

/** The owner's and the tool's deactivations count toward the self-service limit; an admin's and the job's do not. */
export const countsTowardLimit = (source: DeactivationSource) => source === "web" || source === "tool";

/** Self-service deactivations: at most this many per license in any window of this many days (a setting). */
export const DEFAULT_DEACTIVATIONS_PER_WINDOW = 3;
export const DEACTIVATION_WINDOW_DAYS = 30;

export type DeactivationAllowance =
  { allowed: true; /** left after this one */ remainingAfter: number } | { allowed: false; nextAt: Date };

/**
 * Whether one more self-service deactivation is allowed now, given the times of the license's earlier
 * ones: fewer than `limit` inside the last 30 days. If not, the moment the oldest one that must drop
 * out of the window does, when the next one becomes possible.
 */
export function deactivationAllowance(
  earlier: readonly Date[],
  limit: number,
  now: Date,
  windowDays = DEACTIVATION_WINDOW_DAYS,
): DeactivationAllowance {
  const windowMs = windowDays * DAY_MS;
  const inWindow = earlier
    .map((d) => d.getTime())
    .filter((t) => t > now.getTime() - windowMs && t <= now.getTime())
    .sort((a, b) => a - b);
  if (inWindow.length < limit) return { allowed: true, remainingAfter: limit - inWindow.length - 1 };
  return { allowed: false, nextAt: new Date(inWindow[inWindow.length - limit]! + windowMs) };
}

/** A validation with a fingerprint records last seen, app version and platform at most once an hour per machine. */
export const LAST_SEEN_WRITE_INTERVAL_MS = HOUR_MS;

export function shouldRecordSeen(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_WRITE_INTERVAL_MS;
}

/**
 * MACHINE_INACTIVE_AFTER_DAYS (unset: never): a machine not seen since this moment is released by the
 * inactivity job. Null when the setting is unset.
 */
export function inactiveBefore(now: Date, inactiveAfterDays: number | undefined): Date | null {
  if (inactiveAfterDays === undefined) return null;
  return new Date(now.getTime() - inactiveAfterDays * DAY_MS);
}

export function isInactive(lastSeenAt: Date, now: Date, inactiveAfterDays: number | undefined): boolean {
  const before = inactiveBefore(now, inactiveAfterDays);
  return before !== null && lastSeenAt.getTime() < before.getTime();
}
