import { readEntitlementList, UNKNOWN_ENTITLEMENT, type Entitlement } from "~/domain/entitlements";
import { checkOfflineData } from "~/domain/offline-data";
export { OFFLINE_DATA_RULES } from "~/domain/offline-data";
import { hasDisallowedCharacters } from "~/domain/text-input";
import { hasMalformedEncoding, MALFORMED_ENCODING_MESSAGE } from "~/domain/url-encoding";
import { LEASE_TTL_MESSAGE, readLeaseTtl } from "~/domain/leases";
import { CHANNEL_ERROR, parseChannel, type ReleaseChannel } from "~/domain/release-channel";
import { isVersion, MAX_VERSION_LENGTH } from "~/domain/version";
import {
  FINGERPRINT_MESSAGE,
  isFingerprint,
  MACHINE_APP_VERSION_MAX_LENGTH,
  MACHINE_NAME_MAX_LENGTH,
  MACHINE_PLATFORM_MAX_LENGTH,
} from "~/domain/machines";

/** A malformed request: 400 with the message, the field it names and, for some, a code a tool can test. */
export class ApiInputError extends Error {
  constructor(
    public readonly field: string,
    message: string,
    public readonly code?: string,
  ) {
    super(message);
    this.name = "ApiInputError";
  }
}

/** The 400's body for both transports (server/api-v1.ts and server/api-fast-path.ts). */
export function inputErrorBody(error: ApiInputError): Record<string, unknown> {
  return { error: error.message, field: error.field, ...(error.code ? { code: error.code } : {}) };
}

export const MAX_KEY_LENGTH = 1024;
export const MAX_MACHINE_LENGTH = 256;
/** A nonce: 8 to 128 printable ASCII characters (space to tilde). */
const NONCE = /^[\x20-\x7e]{8,128}$/;

/** A JSON request body: an object, or ApiInputError("body"). */
export function parseJsonBody(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiInputError("body", "The request body must be a JSON object.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiInputError("body", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

function text(field: string, value: unknown, max: number): string {
  if (typeof value !== "string") throw new ApiInputError(field, `${field} must be a string.`);
  if (hasDisallowedCharacters(value)) throw new ApiInputError(field, `${field} must not contain control characters.`);
  if (value.length > max) throw new ApiInputError(field, `${field} must be at most ${max} characters long.`);
  return value;
}

/** The license key: required, a non-empty string without control characters. */
export function readKey(value: unknown): string {
  if (value === undefined || value === null) throw new ApiInputError("key", "key is required.");
  const key = text("key", value, MAX_KEY_LENGTH).trim();
  if (key === "") throw new ApiInputError("key", "key is required.");
  return key;
}

/** The client's nonce: required (or optional), 8 to 128 printable ASCII characters, echoed in the answer. */
export function readNonce(value: unknown, { required }: { required: boolean }): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new ApiInputError("nonce", "nonce is required.");
    return undefined;
  }
  if (typeof value !== "string") throw new ApiInputError("nonce", "nonce must be a string.");
  if (!NONCE.test(value)) {
    throw new ApiInputError("nonce", "nonce must be 8 to 128 printable ASCII characters.");
  }
  return value;
}

/** A Windows username or computer name: trimmed; not sent (or empty) is undefined unless required. */
export function readMachineValue(
  field: "windows_username" | "computer_name",
  value: unknown,
  { required }: { required: boolean },
): string | undefined {
  const given = value === undefined || value === null ? "" : text(field, value, MAX_MACHINE_LENGTH).trim();
  if (given === "") {
    if (required) throw new ApiInputError(field, `${field} is required.`);
    return undefined;
  }
  return given;
}

/** POST /licenses/validate's fields, read (and refused with 400) in this order. */
export function readValidateInput(body: Record<string, unknown>) {
  return {
    key: readKey(body.key),
    windows_username: readMachineValue("windows_username", body.windows_username, { required: false }),
    computer_name: readMachineValue("computer_name", body.computer_name, { required: false }),
    fingerprint: readFingerprint(body.fingerprint, { required: false }),
    platform: readMachineField("platform", body.platform, { required: false }),
    app_version: readMachineField("app_version", body.app_version, { required: false }),
    entitlements: readEntitlements(body.entitlements),
    fallback: readFallbackAsked(body.fallback),
  };
}

/** Whether the tool knows EXPIRED_FALLBACK (decision 0070): true or false; not sent is false. */
function readFallbackAsked(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new ApiInputError("fallback", "fallback must be true or false.");
  return value;
}

/**
 * The entitlements a tool asks about (optional): known names only, else a 400 with the code
 * unknown_entitlement before anything is looked up or recorded.
 */
export function readEntitlements(value: unknown): Entitlement[] | undefined {
  if (value === undefined || value === null) return undefined;
  const read = readEntitlementList(value);
  if (!read.ok) throw new ApiInputError("entitlements", read.message, read.unknown ? UNKNOWN_ENTITLEMENT : undefined);
  return read.entitlements;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A license's id (the validate answer's license.id, the file's license_id); not sent is undefined. */
export function readLicenseId(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!UUID.test(value)) throw new ApiInputError("license_id", "license_id must be the license's id, a UUID.");
  return value.toLowerCase();
}

/** A lease's id from the address (the take's `lease.id`): a UUID, else a 400 naming `lease_id`. */
export function readLeaseId(value: string): string {
  if (!UUID.test(value))
    throw new ApiInputError("lease_id", "The lease id in the address must be a lease's id, a UUID.");
  return value.toLowerCase();
}

/** A lease's time to live in minutes (1 to 1440); not sent is `fallback` (a heartbeat's: the lease's own). */
export function readTtlMinutes<F extends number | undefined>(value: unknown, fallback: F): number | F {
  if (value === undefined || value === null) return fallback;
  const read = readLeaseTtl(value);
  if (!read.ok) throw new ApiInputError("ttl_minutes", LEASE_TTL_MESSAGE);
  return read.minutes;
}

/**
 * The machine an activation binds to, checked by the licenses page's rule (checkOfflineData in
 * app/domain/offline-data.ts) with its messages: the first problem is the 400, naming its field.
 * Both values are required (the tool always knows both).
 */
export function readOfflineData(body: Record<string, unknown>): { windows_username: string; computer_name: string } {
  const given = (field: "windows_username" | "computer_name") => {
    const value = body[field];
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") throw new ApiInputError(field, `${field} must be a string.`);
    return value;
  };
  const checked = checkOfflineData({
    windows_username: given("windows_username"),
    computer_name: given("computer_name"),
  });
  // Both empty is the form's "enter one or both"; here each is required, named below.
  const problems = checked.ok ? [] : Object.entries(checked.errors).filter(([field]) => field !== "form");
  if (problems.length > 0) throw new ApiInputError(problems[0]![0], problems[0]![1]);
  if (!checked.ok || !checked.windows_username)
    throw new ApiInputError("windows_username", "windows_username is required.");
  if (!checked.computer_name) throw new ApiInputError("computer_name", "computer_name is required.");
  return { windows_username: checked.windows_username!, computer_name: checked.computer_name! };
}

/** The tool's version for the update check: required, like 1.2.3, 1.2 or 1.2.3-beta.1. */
export function readVersion(value: unknown): string {
  if (value === undefined || value === null || value === "") {
    throw new ApiInputError("current", "current is required (the version the tool runs, e.g. 1.2.3).");
  }
  const version = text("current", value, MAX_VERSION_LENGTH);
  if (!isVersion(version)) throw new ApiInputError("current", "current must be a version such as 1.2.3.");
  return version;
}

/**
 * The query string's parameters by name (from the raw URL): each at most once, without control
 * characters, or ApiInputError naming the parameter.
 */
export function readQuery(url: string): Map<string, string> {
  if (hasMalformedEncoding(url)) throw new ApiInputError("address", MALFORMED_ENCODING_MESSAGE);
  const at = url.indexOf("?");
  const params = new Map<string, string>();
  if (at === -1) return params;
  let entries: [string, string][];
  try {
    entries = [...new URLSearchParams(url.slice(at + 1))];
  } catch {
    throw new ApiInputError("query", "The query string is not valid.");
  }
  for (const [name, value] of entries) {
    const field = hasDisallowedCharacters(name) ? "query" : name;
    if (hasDisallowedCharacters(name) || hasDisallowedCharacters(value)) {
      throw new ApiInputError(field, `${field} must not contain control characters.`);
    }
    if (params.has(name)) throw new ApiInputError(name, `${name} must be given once.`);
    params.set(name, value);
  }
  return params;
}

/** The update channel: "stable" (also when not given) or "beta". */
export function readChannel(value: string | undefined): ReleaseChannel {
  const channel = parseChannel(value);
  if (channel === null) throw new ApiInputError("channel", CHANNEL_ERROR);
  return channel;
}

/** A machine's fingerprint (16–128 printable ASCII characters); not sent is undefined unless required. */
export function readFingerprint(value: unknown, { required }: { required: boolean }): string | undefined {
  if (value === undefined || value === null || value === "") {
    if (required) throw new ApiInputError("fingerprint", "fingerprint is required.");
    return undefined;
  }
  if (!isFingerprint(value)) throw new ApiInputError("fingerprint", FINGERPRINT_MESSAGE);
  return value;
}

const MACHINE_FIELD_LIMITS = {
  name: MACHINE_NAME_MAX_LENGTH,
  platform: MACHINE_PLATFORM_MAX_LENGTH,
  app_version: MACHINE_APP_VERSION_MAX_LENGTH,
} as const;

/** A machine's name, platform or app version: trimmed text; not sent (or empty) is undefined unless required. */
export function readMachineField(
  field: keyof typeof MACHINE_FIELD_LIMITS,
  value: unknown,
  { required }: { required: boolean },
): string | undefined {
  const given = value === undefined || value === null ? "" : text(field, value, MACHINE_FIELD_LIMITS[field]).trim();
  if (given === "") {
    if (required) throw new ApiInputError(field, `${field} is required.`);
    return undefined;
  }
  return given;
}
