import { hasDisallowedCharacters } from "./text-input";
import {
  CHANNEL_ERROR,
  isInstallerSize,
  normalizeSha256,
  parseChannel,
  SHA256_ERROR,
  SIZE_ERROR,
  type ReleaseChannel,
} from "./release-channel";
import {
  checkMinimumVersion,
  MINIMUM_VERSION_INVALID,
  parseRollout,
  ROLLOUT_ERROR,
  ROLLOUT_OUT_OF_RANGE,
} from "./release-rollout";
import { isVersion, MAX_VERSION_LENGTH } from "./version";

/**
 * The releases API's bodies (decision 0039): `POST /api/v1/releases` and `PATCH /api/v1/releases/{version}`,
 * checked by the admin form's rules (release-channel.ts, admin.ts). The first problem is named with
 * its field; the database is only asked once everything here passed.
 */

export class ReleaseInputError extends Error {
  constructor(
    public readonly field: string,
    message: string,
    /** A code a client can test (rollout_out_of_range, minimum_version_above_latest, …), when the rule has one. */
    public readonly code?: string,
  ) {
    super(message);
    this.name = "ReleaseInputError";
  }
}

export const MAX_TITLE = 200;
export const MAX_NOTE = 2000;
export const MAX_NOTES = 100;
export const MAX_URL = 2000;

export interface ReleaseInput {
  version: string;
  title: string | null;
  release_notes: string[];
  channel: ReleaseChannel;
  download_url: string | null;
  installer_size_bytes: number;
  installer_sha256: string;
  published: boolean;
  rollout_percent: number;
  critical: boolean;
  minimum_version: string | null;
}

export interface ReleasePatch {
  title?: string | null;
  release_notes?: string[];
  published?: boolean;
  yanked?: boolean;
  rollout_percent?: number;
  critical?: boolean;
  /** Checked against the release's own version by the service (checkMinimumVersion). */
  minimum_version?: string | null;
}

type Body = Record<string, unknown>;

function readTitle(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || hasDisallowedCharacters(value)) {
    throw new ReleaseInputError("title", "title must be text without control characters.");
  }
  const title = value.trim();
  if (title.length > MAX_TITLE) throw new ReleaseInputError("title", `Use at most ${MAX_TITLE} characters.`);
  return title === "" ? null : title;
}

/** Notes trimmed, blank ones dropped, at least one (the admin form's rule). */
export function readNotes(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((note) => typeof note !== "string")) {
    throw new ReleaseInputError("notes", "notes must be a list of texts.");
  }
  const notes = (value as string[]).map((note) => note.trim()).filter((note) => note !== "");
  if (notes.length === 0) throw new ReleaseInputError("notes", "At least one release note is required");
  if (notes.length > MAX_NOTES) throw new ReleaseInputError("notes", `Use at most ${MAX_NOTES} notes.`);
  if (notes.some((note) => note.length > MAX_NOTE || hasDisallowedCharacters(note))) {
    throw new ReleaseInputError("notes", `Each note is at most ${MAX_NOTE} characters, without control characters.`);
  }
  return notes;
}

function readBoolean(field: string, value: unknown, fallback?: boolean): boolean {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "boolean") throw new ReleaseInputError(field, `${field} must be true or false.`);
  return value;
}

/** An installer's address: absent or null is the site's download address; else an http(s) URL. */
export function readDownloadUrl(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const problem = "download_url must be an http:// or https:// address.";
  if (typeof value !== "string" || value.length > MAX_URL) throw new ReleaseInputError("download_url", problem);
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(problem);
  } catch {
    throw new ReleaseInputError("download_url", problem);
  }
  return value;
}

export function readVersionField(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw new ReleaseInputError("version", "version is required.");
  const version = value.trim();
  if (version.length > MAX_VERSION_LENGTH || !isVersion(version)) {
    throw new ReleaseInputError("version", "version must be a version number such as 2.5.0 or 2.5.0-beta.1.");
  }
  return version;
}

/** A rollout percentage sent as JSON: a whole number from 0 to 100 (decision 0062). */
function readRolloutField(value: unknown): number {
  const percent = typeof value === "number" ? parseRollout(value) : null;
  if (percent === null) throw new ReleaseInputError("rollout", ROLLOUT_ERROR, ROLLOUT_OUT_OF_RANGE);
  return percent;
}

/** A minimum version against the release's version (none: null), or the refusal with its code. */
export function readMinimumVersion(value: unknown, releaseVersion?: string): string | null {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new ReleaseInputError(
      "minimum_version",
      "minimum_version must be a version number or null.",
      MINIMUM_VERSION_INVALID,
    );
  }
  const check = checkMinimumVersion(value, releaseVersion);
  if (!check.ok) throw new ReleaseInputError("minimum_version", check.message, check.code);
  return check.minimum;
}

/** The body of POST /api/v1/releases. */
export function parseReleaseInput(body: Body): ReleaseInput {
  const version = readVersionField(body.version);
  const channel = parseChannel(body.channel);
  if (channel === null) throw new ReleaseInputError("channel", CHANNEL_ERROR);
  if (typeof body.size !== "number" || !isInstallerSize(body.size)) throw new ReleaseInputError("size", SIZE_ERROR);
  const sha256 = typeof body.sha256 === "string" ? normalizeSha256(body.sha256) : null;
  if (sha256 === null) throw new ReleaseInputError("sha256", SHA256_ERROR);
  return {
    version,
    title: readTitle(body.title),
    release_notes: readNotes(body.notes),
    channel,
    download_url: readDownloadUrl(body.download_url),
    installer_size_bytes: body.size,
    installer_sha256: sha256,
    published: readBoolean("published", body.published, false),
    rollout_percent: body.rollout === undefined ? 100 : readRolloutField(body.rollout),
    critical: readBoolean("critical", body.critical, false),
    minimum_version: readMinimumVersion(body.minimum_version, version),
  };
}

const PATCH_FIELDS = ["title", "notes", "published", "yanked", "rollout", "critical", "minimum_version"];

/** The body of PATCH /api/v1/releases/{version}: any of title, notes, published, yanked (at least one). */
export function parseReleasePatch(body: Body): ReleasePatch {
  const unknown = Object.keys(body).find((key) => !PATCH_FIELDS.includes(key) && key !== "nonce");
  if (unknown !== undefined) {
    throw new ReleaseInputError(unknown, `${unknown} cannot be changed here: send any of ${PATCH_FIELDS.join(", ")}.`);
  }
  const patch: ReleasePatch = {};
  if ("title" in body) patch.title = readTitle(body.title);
  if ("notes" in body) patch.release_notes = readNotes(body.notes);
  if ("published" in body) patch.published = readBoolean("published", body.published);
  if ("yanked" in body) patch.yanked = readBoolean("yanked", body.yanked);
  if ("rollout" in body) patch.rollout_percent = readRolloutField(body.rollout);
  if ("critical" in body) patch.critical = readBoolean("critical", body.critical);
  // Any version number here; whether it is above the release's own is the service's check.
  if ("minimum_version" in body) patch.minimum_version = readMinimumVersion(body.minimum_version);
  if (Object.keys(patch).length === 0) {
    throw new ReleaseInputError("body", `Send any of ${PATCH_FIELDS.join(", ")}.`);
  }
  return patch;
}
