import { z } from "zod";
import { RELEASE_CHANNELS, SHA256_ERROR, SIZE_ERROR, VERSION_INVALID } from "./release-channel";
import { TESTER_DEFAULT_DAYS } from "./plans";
import { checkMinimumVersion, MINIMUM_VERSION_ABOVE_LATEST, parseRollout } from "./release-rollout";
import { isVersion } from "./version";

export const ROLLOUT_FORM_ERROR = "Enter the rollout as a whole percentage from 0 to 100.";

/** The release form's words for a refused minimum version. */
export function minimumVersionFormError(code: string, version: string): string {
  return code === MINIMUM_VERSION_ABOVE_LATEST
    ? `The minimum version cannot be above this release's version ${version}.`
    : "Enter a minimum version such as 2.4.0, or leave it blank for none.";
}

/** The administration screen's texts (docs/product.md, "Administration"). */
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
  loadOverview: "Failed to load the overview",
  loadUsers: "Failed to load users",
  loadUser: "Failed to load the user",
  loadAudit: "Failed to load the audit log",
  resetOffline: "Failed to reset the offline data",
  resend: "Failed to resend the license e-mail",
  paymentLink: "Failed to e-mail the payment link",
} as const;

export const ADMIN_TOASTS = {
  revoked: { title: "License revoked", description: "The license no longer works." },
  resent: (email: string) => ({
    title: "License e-mail queued",
    description: `The license e-mail to ${email} is on its way.`,
  }),
  paymentLinkSent: (email: string) => ({
    title: "Payment link e-mailed",
    description: `${email} gets the failed-payment e-mail again, with its Update payment method link.`,
  }),
  offlineReset: {
    title: "Offline data reset",
    description: "The license can be bound to a computer again; its key was regenerated.",
  },
  testerAdded: (days: number) => ({
    title: "Tester license added",
    description: `A tester license for ${days} day${days === 1 ? "" : "s"} was created.`,
  }),
  releaseCreated: (version: string) => ({
    title: "Release added",
    description: `Version ${version} is saved as a draft: publish it to put it on the download and release notes pages.`,
  }),
  releasePublished: (version: string) => ({
    title: "Release published",
    description: `Version ${version} is on the download and release notes pages.`,
  }),
  releaseFlag: (flag: "publish" | "unpublish" | "yank" | "unyank", version: string) =>
    ({
      publish: { title: "Release published", description: `Version ${version} is on the public pages.` },
      unpublish: { title: "Release unpublished", description: `Version ${version} is a draft again.` },
      yank: { title: "Release yanked", description: `Version ${version} is no longer offered.` },
      unyank: { title: "Release restored", description: `Version ${version} is offered again.` },
    })[flag],
  installerComputed: (url: string) => ({
    title: "Size and SHA-256 computed",
    description: `From the file at ${url}.`,
  }),
  releaseUpdated: (version: string) => ({ title: "Release updated", description: `Version ${version} was saved.` }),
  releaseDeleted: (version: string) => ({ title: "Release deleted", description: `Version ${version} was removed.` }),
} as const;

export const DELETE_RELEASE_CONFIRMATION = "Are you sure you want to delete this release?";

export const TESTER_MAX_DAYS = 365;
export const TESTER_DAYS_ERROR = `Tester license days must be a whole number from 1 to ${TESTER_MAX_DAYS}.`;

/**
 * Tester days: a non-numeric entry (blank included) falls back to 30;
 * a number must be a whole number from 1 to 365, anything else is refused with a message (never
 * silently clamped: 99,999 days once became a ten-year free license).
 */
export function parseTesterDays(input: unknown): { days: number; error: null } | { days: null; error: string } {
  const text = typeof input === "string" ? input.trim() : typeof input === "number" ? String(input) : "";
  if (!/^[-+]?\d+(\.\d+)?$/.test(text)) return { days: TESTER_DEFAULT_DAYS, error: null };
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > TESTER_MAX_DAYS) return { days: null, error: TESTER_DAYS_ERROR };
  return { days, error: null };
}

export const REVOKE_REASON_MAX = 500;
export const REVOKE_REASON_REQUIRED = "Enter the reason for revoking this license.";

/** The reason an admin gives for a revoke: required, trimmed, at most 500 characters. */
export function parseRevokeReason(input: unknown): { reason: string; error: null } | { reason: null; error: string } {
  const reason = typeof input === "string" ? input.trim() : "";
  if (reason === "") return { reason: null, error: REVOKE_REASON_REQUIRED };
  if (reason.length > REVOKE_REASON_MAX) {
    return { reason: null, error: `Use at most ${REVOKE_REASON_MAX} characters for the reason.` };
  }
  return { reason, error: null };
}

/** Rows per page in the admin lists (users, audit log). */
export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_MAX_PAGE = 10_000;

/** A page number from the URL: a whole number from 1; anything else is page 1. */
export function parsePage(input: unknown): number {
  const text = typeof input === "string" ? input.trim() : "";
  if (!/^\d{1,6}$/.test(text)) return 1;
  return Math.min(ADMIN_MAX_PAGE, Math.max(1, Number(text)));
}

/** The old admin page's tabs (`/admin?tab=…`), now pages of their own (admin-nav.ts redirects them). */
export const ADMIN_TABS = ["overview", "users", "releases", "audit"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];
export function parseAdminTab(input: unknown): AdminTab {
  return (ADMIN_TABS as readonly unknown[]).includes(input) ? (input as AdminTab) : "overview";
}

/** A search term: trimmed; blank is refused. */
export function normalizeSearchTerm(input: unknown): string | null {
  const term = typeof input === "string" ? input.trim().slice(0, 2000) : "";
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
      ctx.addIssue({ code: "custom", message: SIZE_ERROR });
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
      ctx.addIssue({ code: "custom", message: SHA256_ERROR });
      return z.NEVER;
    }
    return hex;
  });

/**
 * The release form (docs/product.md, "Administration"): version required, blank title stored as null, a release
 * date, notes trimmed with blank ones dropped and at least one left.
 */
export const releaseFormSchema = z
  .object({
    version: z
      .string()
      .trim()
      .min(1, { message: "Version is required" })
      .max(50, { message: "Use at most 50 characters." })
      .refine((value) => value === "" || isVersion(value), { message: VERSION_INVALID }),
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
    channel: z.enum(RELEASE_CHANNELS, { message: 'Choose the channel "stable" or "beta".' }).default("stable"),
    /** Blank: the site's download address; else the installer's own http(s) address. */
    download_url: z
      .string()
      .trim()
      .max(2000, { message: "Use at most 2000 characters." })
      .default("")
      .refine((value) => value === "" || /^https?:\/\/[^\s]+$/.test(value), {
        message: "Enter an http:// or https:// address, or leave it blank for the site's download address.",
      })
      .transform((value) => (value === "" ? null : value)),
    /** The admin confirmed a version that sorts before the newest release. */
    allow_older: z.boolean().default(false),
    /** "Save and publish": the release goes out with this save. */
    publish: z.boolean().default(false),
    /** Decision 0062: the percentage of machines the update check offers it to (blank: everyone). */
    rollout_percent: z
      .string()
      .trim()
      .default("")
      .transform((value, ctx) => {
        const percent = value === "" ? 100 : parseRollout(value);
        if (percent === null) {
          ctx.addIssue({ code: "custom", message: ROLLOUT_FORM_ERROR });
          return z.NEVER;
        }
        return percent;
      }),
    critical: z.boolean().default(false),
    /** Blank: none; else at most the release's own version (checked with the version below). */
    minimum_version: z
      .string()
      .trim()
      .max(50, { message: "Use at most 50 characters." })
      .default("")
      .transform((value) => (value === "" ? null : value)),
  })
  .superRefine((release, ctx) => {
    const check = checkMinimumVersion(release.minimum_version, release.version);
    if (!check.ok)
      ctx.addIssue({
        code: "custom",
        path: ["minimum_version"],
        message: minimumVersionFormError(check.code, release.version),
      });
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
    channel: String(form.get("channel") ?? "") || undefined,
    download_url: String(form.get("download_url") ?? ""),
    allow_older: form.get("allow_older") === "on",
    publish: form.get("publish") === "1",
    rollout_percent: String(form.get("rollout_percent") ?? ""),
    critical: form.get("critical") === "on",
    minimum_version: String(form.get("minimum_version") ?? ""),
  };
}
