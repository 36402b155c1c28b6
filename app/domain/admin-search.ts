import { normalizeShortId } from "./short-id";

/**
 * What an admin's search term means (decision 0033): pure rules shared by the
 * search query and its tests. A term can mean several things at once (`DANA` is a name and four
 * characters of a short id); the search runs every lookup the term allows and says which one matched.
 */

/** Trigram indexes need three characters; shorter terms would read every row. */
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_TOO_SHORT = `Enter at least ${SEARCH_MIN_LENGTH} characters to search.`;

export type PaddleIdKind = "customer" | "subscription" | "transaction";

const PADDLE_PREFIXES: Record<string, PaddleIdKind> = { ctm: "customer", sub: "subscription", txn: "transaction" };

/** A term that is a Paddle id, or a whole short id with its `FK`, is looked up exactly and only as that id. */
export type SearchQuery =
  | { kind: "paddle"; idKind: PaddleIdKind; id: string }
  | { kind: "short_id"; id: string }
  | {
      kind: "text";
      text: string;
      /** The canonical short id (FK-XXXX-XXXX) when the term is a whole one. */
      shortId: string | null;
      /** Part of a short id without hyphens (`82JA`, `FK82JA`, `JA9X`) when the term can be one. */
      shortIdPart: string | null;
      /** Names never hold an `@`; one word with a digit is an id or an address, not a name. */
      byName: boolean;
      /** E-mail addresses never hold a space. */
      byEmail: boolean;
      /**
       * What comes before the term's one `@` when that is at least 3 characters (`ada.l` in
       * `ada.l@lovel`): an address holds one `@`, so an address containing the term has a local part
       * that ends with it, which an index of local parts read backwards finds without trigrams.
       */
      emailLocalEnd: string | null;
    };

/** Characters of a short id (Crockford's base32) after the `FK` prefix. */
const SHORT_ID_CHARS = /^[0-9A-HJKMNP-TV-Z]+$/;
const PART_MIN = 4;

/**
 * Part of a short id, as a person types it: case, spaces and hyphens do not matter and the look-alike
 * letters O, I and L are read as 0, 1 and 1. At least four characters of the id besides a leading
 * `FK`, and only when the term looks like an id rather than a word: it has a digit, starts with `FK`,
 * or is typed in capitals (`82JA`, `fk-82ja`, `XKDA`; not `dana`).
 */
export function shortIdPart(term: string): string | null {
  const typed = term.trim();
  const compact = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  const prefixed = compact.startsWith("FK");
  const core = prefixed ? compact.slice(2) : compact;
  if (core.length < PART_MIN || core.length > 8 || !SHORT_ID_CHARS.test(core)) return null;
  const looksLikeId = /\d/.test(typed) || prefixed || typed === typed.toUpperCase();
  return looksLikeId ? compact : null;
}

/** The Paddle id a term is (`ctm_…`, `sub_…`, `txn_…`), or null. Paddle's ids are lowercase. */
export function paddleId(term: string): { idKind: PaddleIdKind; id: string } | null {
  const id = term.trim().toLowerCase();
  const match = /^(ctm|sub|txn)_[a-z0-9_]{1,100}$/.exec(id);
  return match ? { idKind: PADDLE_PREFIXES[match[1]!]!, id } : null;
}

/** Characters before the `@` that make an address's local part worth reading from its end. */
const LOCAL_END_MIN = 3;

/** The part before a term's only `@`, when long enough to look addresses up by how their local part ends. */
export function emailLocalEnd(term: string): string | null {
  const parts = term.trim().split("@");
  if (parts.length !== 2 || parts[0]!.length < LOCAL_END_MIN || /\s/.test(term.trim())) return null;
  return parts[0]!;
}

/** A trimmed term's meaning, or a message when it is too short to search. */
export function parseSearchQuery(input: string): { query: SearchQuery; error: null } | { query: null; error: string } {
  const text = input.trim();
  if (text.length < SEARCH_MIN_LENGTH) return { query: null, error: SEARCH_TOO_SHORT };
  const paddle = paddleId(text);
  if (paddle) return { query: { kind: "paddle", ...paddle }, error: null };
  const part = shortIdPart(text);
  const shortId = part ? normalizeShortId(text) : null;
  // With its FK a whole short id is nothing else: no name, address or key looks like FK-82JA-9XKD.
  if (shortId && part!.startsWith("FK")) return { query: { kind: "short_id", id: shortId }, error: null };
  return {
    query: {
      kind: "text",
      text,
      shortId,
      shortIdPart: part,
      byName: !text.includes("@") && !(/\d/.test(text) && !/\s/.test(text)),
      byEmail: !/\s/.test(text),
      emailLocalEnd: emailLocalEnd(text),
    },
    error: null,
  };
}

/** Why a user is in the results, most telling first (a user found several ways shows the first). */
export const MATCH_KINDS = [
  "short_id",
  "license_key",
  "customer",
  "subscription",
  "transaction",
  "name",
  "email",
  // Before a license's e-mail: licenses keep the address they were bought with, and that the
  // customer has changed it since is what support needs to know.
  "previous_email",
  "license_email",
] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export interface SearchMatch {
  kind: MatchKind;
  /** What matched: the short id, the Paddle id, the address. */
  value: string;
}

/** "license FK-82JA-9XKD", "previous e-mail ada@old.example", "subscription sub_01h…". */
export function matchReason(match: SearchMatch): string {
  switch (match.kind) {
    case "short_id":
      return `license ${match.value}`;
    case "license_key":
      return `license key of ${match.value}`;
    case "customer":
    case "subscription":
    case "transaction":
      return `${match.kind} ${match.value}`;
    case "name":
      return "name";
    case "email":
      return "e-mail";
    case "license_email":
      return `license e-mail ${match.value}`;
    case "previous_email":
      return `previous e-mail ${match.value}`;
  }
}

/** An account close to a term that found nobody ("Did you mean"): where a typo in the account hides it. */
export interface NearMatch {
  id: string;
  email: string;
  full_name: string;
}
