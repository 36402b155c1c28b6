/**
 * A license's short id (FK-7Q2M-9XKD): what a customer reads to support and what the admin search,
 * e-mails and the audit log show. The database draws it (migration 0009); this module only reads one
 * typed by a person: case, spaces and the look-alike letters Crockford's base32 leaves out are forgiven.
 */
export const SHORT_ID_PATTERN = /^FK-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The canonical short id a person meant, or null when the text cannot be one. */
export function normalizeShortId(input: string): string | null {
  const compact = input
    .trim()
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/^FK/, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(compact)) return null;
  return `FK-${compact.slice(0, 4)}-${compact.slice(4)}`;
}
