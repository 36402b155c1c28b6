import { hasDisallowedCharacters } from "./text-input";

/**
 * Percent-encoding in a request's address (path and query): every `%` starts two hex digits, and
 * the bytes they spell are UTF-8 (no overlong forms such as `%C0%AE`, no surrogates such as
 * `%ED%A0%80`, no cut-off sequences such as `%E0%A4%A`). An address that breaks this is refused
 * with 400 and this message before anything decodes it (docs/security.md).
 */
export const MALFORMED_ENCODING_MESSAGE =
  "The address is not valid: it contains a malformed percent-encoded character (a % must be followed by a valid UTF-8 sequence in hex, such as %C3%A9).";

/** Whether one path segment or query part decodes (a `+` in a query is a space, which is fine). */
function decodes(part: string): boolean {
  if (!part.includes("%")) return true;
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

/** True when the request target (`/path?query`, as sent) holds a malformed percent-encoding. */
export function hasMalformedEncoding(target: string): boolean {
  if (!target.includes("%")) return false;
  const at = target.indexOf("?");
  const pathname = at === -1 ? target : target.slice(0, at);
  if (!decodes(pathname)) return true;
  if (at === -1) return false;
  return target
    .slice(at + 1)
    .split(/[&=]/)
    .some((part) => !decodes(part));
}

/**
 * A control character in the path (`/api/v1/releases/%00`): no route has one in a parameter, and
 * PostgreSQL refuses NUL, which used to end in a 500. Refused with 400 and this message before any
 * route runs, for the site and the desktop API alike.
 */
export const PATH_CONTROL_CHARACTER_MESSAGE =
  "The address is not valid: it contains a control character (such as %00). Remove it and try again.";

/** The path as every router sees it, decoded; null when it does not decode (the malformed check's case). */
function decodedPath(target: string): string | null {
  try {
    return decodeURIComponent(target.split("?")[0]!);
  } catch {
    return null;
  }
}

/**
 * What is wrong with a request target (`/path?query`, as sent), or null: a malformed percent-encoding
 * (checked for the site only: the desktop API answers its own, in its signed JSON), then a control
 * character in the decoded path. The HTTP listener's first check (server/url-guard.ts) answers 400 with it.
 */
export function addressProblem(target: string, { api = false }: { api?: boolean } = {}): string | null {
  if (!api && hasMalformedEncoding(target)) return MALFORMED_ENCODING_MESSAGE;
  const path = decodedPath(target);
  if (path !== null && hasDisallowedCharacters(path)) return PATH_CONTROL_CHARACTER_MESSAGE;
  return null;
}
