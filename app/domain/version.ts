/**
 * Version numbers as the desktop tool and the releases table write them, compared by the rules of
 * Semantic Versioning 2.0.0 (section 11), with two leniencies: a leading "v" and fewer or more than
 * three numeric parts ("1.2" is 1.2.0, "1.2.0.1" is newer than "1.2"). Build metadata ("+…") does
 * not count; a pre-release ("-beta.2") comes before its release.
 */

export interface Version {
  /** The numeric parts as digit strings without leading zeros (any length, no overflow). */
  core: string[];
  /** Pre-release identifiers; empty for a release. */
  pre: string[];
}

export const MAX_VERSION_LENGTH = 64;

const IDENTIFIERS = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const VERSION = new RegExp(`^[vV]?(\\d+(?:\\.\\d+){0,3})(?:-(${IDENTIFIERS}))?(?:\\+${IDENTIFIERS})?$`);

const stripZeros = (digits: string) => digits.replace(/^0+(?=\d)/, "");

/** The version a text names, or null when it does not look like one. */
export function parseVersion(text: string): Version | null {
  if (text.length === 0 || text.length > MAX_VERSION_LENGTH) return null;
  const match = VERSION.exec(text);
  if (!match) return null;
  return { core: match[1]!.split(".").map(stripZeros), pre: match[2] ? match[2].split(".") : [] };
}

export function isVersion(text: string): boolean {
  return parseVersion(text) !== null;
}

const NUMERIC = /^\d+$/;

/** Compares digit strings by value. */
function compareDigits(a: string, b: string): number {
  const x = stripZeros(a);
  const y = stripZeros(b);
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x === y ? 0 : x < y ? -1 : 1;
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = NUMERIC.test(a);
  const bNumeric = NUMERIC.test(b);
  if (aNumeric && bNumeric) return compareDigits(a, b);
  // Numeric identifiers come before alphanumeric ones; alphanumeric ones compare in ASCII order.
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** -1, 0 or 1 as a is older than, the same as, or newer than b. */
export function compareVersions(a: Version, b: Version): -1 | 0 | 1 {
  const length = Math.max(a.core.length, b.core.length);
  for (let i = 0; i < length; i++) {
    const order = compareDigits(a.core[i] ?? "0", b.core[i] ?? "0");
    if (order !== 0) return order < 0 ? -1 : 1;
  }
  // A release is newer than any of its pre-releases.
  if (a.pre.length === 0 || b.pre.length === 0) {
    if (a.pre.length === b.pre.length) return 0;
    return a.pre.length === 0 ? 1 : -1;
  }
  const count = Math.max(a.pre.length, b.pre.length);
  for (let i = 0; i < count; i++) {
    // A shorter list of identifiers, equal so far, comes first.
    if (i >= a.pre.length) return -1;
    if (i >= b.pre.length) return 1;
    const order = compareIdentifiers(a.pre[i]!, b.pre[i]!);
    if (order !== 0) return order < 0 ? -1 : 1;
  }
  return 0;
}

/** Whether `candidate` is newer than `current`; false when either does not parse. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const a = parseVersion(candidate);
  const b = parseVersion(current);
  return a !== null && b !== null && compareVersions(a, b) > 0;
}
