/**
 * Percent-encoding in a request's address (path and query): every `%` starts two hex digits, and
 * the bytes they spell are UTF-8 (no overlong forms such as `%C0%AE`, no surrogates such as
 * `%ED%A0%80`, no cut-off sequences such as `%E0%A4%A`). An address that breaks this is refused
 * with 400 and this message before anything decodes it (issue 22).
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
