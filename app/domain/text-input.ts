/**
 * Characters no text field accepts: C0 control characters (NUL and the like), DEL, C1 control
 * characters and lone UTF-16 surrogates. Multi-line fields (release notes) may hold tab, CR and
 * LF; single-line fields may not. PostgreSQL refuses NUL outright, so without this check such
 * input reached the database and ended in a 500.
 */
export const NOT_ALLOWED_CHARACTERS_MESSAGE =
  "The text you entered contains characters that are not allowed (control characters). Please remove them and try again.";

// eslint-disable-next-line no-control-regex
const SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text holds a character no field accepts (see above). */
export function hasDisallowedCharacters(text: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  return (multiline ? MULTI_LINE : SINGLE_LINE).test(text) || LONE_SURROGATE.test(text);
}
