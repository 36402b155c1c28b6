import { z } from "zod";

/** The administration screen's texts (spec.md section 8 "Administration") and rules (section 5). */
export const ADMIN_ERRORS = {
  search: "Failed to search users",
  blankSearch: "Enter a name or e-mail address to search.",
  fetchLicenses: "Failed to fetch user licenses",
  revoke: "Failed to revoke license",
  noEmail: "Could not determine user email",
  addTester: "Failed to add tester license",
  loadReleases: "Failed to load releases",
  saveRelease: "Failed to save release",
  deleteRelease: "Failed to delete release",
  forbidden: "Only administrators can do this.",
} as const;

export const ADMIN_TOASTS = {
  revoked: { title: "License revoked", description: "The license no longer works." },
  testerAdded: (days: number) => ({
    title: "Tester license added",
    description: `A tester license for ${days} day${days === 1 ? "" : "s"} was created.`,
  }),
  releaseCreated: (version: string) => ({
    title: "Release added",
    description: `Version ${version} is on the download and release notes pages.`,
  }),
  releaseUpdated: (version: string) => ({ title: "Release updated", description: `Version ${version} was saved.` }),
  releaseDeleted: (version: string) => ({ title: "Release deleted", description: `Version ${version} was removed.` }),
} as const;

export const DELETE_RELEASE_CONFIRMATION = "Are you sure you want to delete this release?";

export const TESTER_DEFAULT_DAYS = 30;
export const TESTER_MAX_DAYS = 3650;

/** Tester days: a number, minimum 1, default 30; a non-numeric entry falls back to 30. */
export function parseTesterDays(input: unknown): number {
  const text = typeof input === "string" ? input.trim() : typeof input === "number" ? String(input) : "";
  if (!/^-?\d+(\.\d+)?$/.test(text)) return TESTER_DEFAULT_DAYS;
  return Math.min(TESTER_MAX_DAYS, Math.max(1, Math.floor(Number(text))));
}

/** A search term: trimmed; blank is refused. */
export function normalizeSearchTerm(input: unknown): string | null {
  const term = typeof input === "string" ? input.trim().slice(0, 200) : "";
  return term === "" ? null : term;
}

/** Optional: the installer's size in bytes, a whole number (blank: not known). */
const installerSize = z
  .string()
  .trim()
  .default("")
  .transform((value, ctx) => {
    if (value === "") return null;
    const bytes = Number(value.replace(/[\s_,]/g, ""));
    if (!Number.isSafeInteger(bytes) || bytes <= 0 || bytes > 1e12) {
      ctx.addIssue({ code: "custom", message: "Enter the installer's size as a whole number of bytes." });
      return z.NEVER;
    }
    return bytes;
  });

/** Optional: the installer's SHA-256 as 64 hexadecimal characters (stored lowercase; blank: not known). */
const installerSha256 = z
  .string()
  .trim()
  .default("")
  .transform((value, ctx) => {
    if (value === "") return null;
    const hex = value.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hex)) {
      ctx.addIssue({ code: "custom", message: "A SHA-256 is 64 hexadecimal characters (0-9, a-f)." });
      return z.NEVER;
    }
    return hex;
  });

/**
 * The release form (spec.md section 5): version required, blank title stored as null, a release
 * date, notes trimmed with blank ones dropped and at least one left.
 */
export const releaseFormSchema = z.object({
  version: z
    .string()
    .trim()
    .min(1, { message: "Version is required" })
    .max(50, { message: "Use at most 50 characters." }),
  title: z
    .string()
    .trim()
    .max(200, { message: "Use at most 200 characters." })
    .transform((value) => (value === "" ? null : value)),
  release_date: z.iso.date({ message: "Choose a release date." }),
  release_notes: z
    .array(z.string())
    .transform((notes) => notes.map((note) => note.trim()).filter((note) => note !== ""))
    .pipe(
      z
        .array(z.string().max(2000, { message: "Use at most 2000 characters per note." }))
        .min(1, { message: "At least one release note is required" })
        .max(100, { message: "Use at most 100 notes." }),
    ),
  installer_size_bytes: installerSize,
  installer_sha256: installerSha256,
});
export type ReleaseForm = z.output<typeof releaseFormSchema>;

/** Reads the release form's fields (notes are repeated `release_notes` fields). */
export function releaseFormValues(form: FormData) {
  return {
    version: String(form.get("version") ?? ""),
    title: String(form.get("title") ?? ""),
    release_date: String(form.get("release_date") ?? ""),
    release_notes: form.getAll("release_notes").map(String),
    installer_size_bytes: String(form.get("installer_size_bytes") ?? ""),
    installer_sha256: String(form.get("installer_sha256") ?? ""),
  };
}
