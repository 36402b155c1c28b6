import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasDisallowedCharacters } from "~/domain/text-input";

describe("characters no text field accepts", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["a C0 control", "a\u0007b"],
    ["escape", "\u001b[31m"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["a lone high surrogate", "a\ud800b"],
    ["a lone high surrogate at the end", "a\udbff"],
    ["a lone low surrogate", "a\udc00b"],
    ["two high surrogates", "\ud800\ud800\udc00"],
  ])("refuses %s", (_name, text) => {
    expect(hasDisallowedCharacters(text)).toBe(true);
    expect(hasDisallowedCharacters(text, { multiline: true })).toBe(true);
  });

  it.each([
    ["plain text", "Dana Whitfield"],
    ["accents and CJK", "Zoë Łukasz 東京"],
    ["an emoji (a surrogate pair)", "ship it 🚀"],
    ["a backslash", "CORP\\dana"],
    ["non-breaking space (U+00A0, after the C1 range)", "a\u00a0b"],
    ["the empty string", ""],
  ])("accepts %s", (_name, text) => {
    expect(hasDisallowedCharacters(text)).toBe(false);
  });

  it("tab, LF and CR only in multi-line fields", () => {
    for (const text of ["a\tb", "a\nb", "a\r\nb"]) {
      expect(hasDisallowedCharacters(text)).toBe(true);
      expect(hasDisallowedCharacters(text, { multiline: true })).toBe(false);
    }
    expect(hasDisallowedCharacters("a\u000bb", { multiline: true })).toBe(true);
    expect(hasDisallowedCharacters("a\u000cb", { multiline: true })).toBe(true);
  });

  it("agrees with a definition by code points on any string", () => {
    const reference = (text: string) => {
      try {
        encodeURIComponent(text); // throws URIError on a lone surrogate
      } catch {
        return true;
      }
      return [...text].some((ch) => {
        const code = ch.codePointAt(0)!;
        return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
      });
    };
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => hasDisallowedCharacters(text) === reference(text)),
      { seed: 424242, numRuns: 2000 },
    );
  });
});
