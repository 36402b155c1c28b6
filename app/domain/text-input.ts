/**
 * Characters no text field accepts: C0 control characters (NUL and the like), DEL, C1 control
 * characters and lone UTF-16 surrogates. Multi-line fields (release notes) may hold tab, CR and
 * LF; single-line fields may not. PostgreSQL refuses NUL outright, so without this check such
 * input reached the database and ended in a 500.
 */
export const NOT_ALLOWED_CHARACTERS_MESSAGE =
  "The text you entered contains characters that are not allowed (control characters). Please remove them and try again.";

/** C0 controls, DEL and C1 controls; tab, LF and CR only where a field is multi-line. */
function isControl(code: number, multiline: boolean): boolean {
  if (multiline && (code === 0x09 || code === 0x0a || code === 0x0d)) return false;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** True when the text holds a character no field accepts (see above). */
export function hasDisallowedCharacters(text: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControl(code, multiline)) return true;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      // A high surrogate must be followed by a low one; the pair is one character.
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return true;
    }
  }
  return false;
}
