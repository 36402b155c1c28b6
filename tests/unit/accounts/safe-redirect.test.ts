import { hasDisallowedCharacters } from "~/domain/text-input";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/server/auth/session.server";

const SITE = "http://site.invalid";

describe("safeRedirect", () => {
  it.each([
    "/",
    "/licenses",
    "/licenses?tab=active#top",
    "/admin?q=ada%20lovelace&user=1",
    "/release-notes/1.2.3",
    "/search?q=%F0%9F%98%80",
    "/a%2Fb",
    "/100%25",
  ])("follows the same-site path %j", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });

  it.each([
    // not a path
    "",
    "licenses",
    "https://evil.example",
    "http://evil.example/",
    "javascript:alert(1)",
    "data:text/html,hi",
    " /licenses",
    // protocol-relative, with the second slash spelled in ways browsers accept
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    // control characters browsers drop, leaving //evil.example (raw and percent-encoded)
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0D%0A/evil.example",
    "/%2509/evil.example",
    "/%252509/evil.example",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "/%5C/evil.example",
    "/%5cevil.example",
    // header injection
    "/licenses\r\nSet-Cookie: a=b",
    "/licenses%0d%0aSet-Cookie:%20a=b",
    // other control characters, DEL, C1, NUL
    "/licenses\u0000",
    "/lic\u0001enses",
    "/licenses\u007f",
    "/licenses\u0085",
    "/licenses%00",
    "/licenses%7F",
    // lone surrogates
    "/licenses\ud800",
    "/licenses\udc00x",
    // malformed percent-encoding
    "/licenses%",
    "/licenses%E0%A4%A",
  ])("refuses %j", (to) => {
    expect(safeRedirect(to)).toBe("/");
  });

  it("refuses an absurdly long target", () => {
    expect(safeRedirect(`/${"a".repeat(2001)}`)).toBe("/");
  });

  it("refuses what is not a string, and uses the given fallback", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined)).toBe("/");
    expect(safeRedirect(new File(["/licenses"], "x.txt"))).toBe("/");
    expect(safeRedirect("//evil.example", "/licenses")).toBe("/licenses");
  });

  it("never returns a target that leaves the site, whatever the input (property)", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      "%2F",
      "%2f",
      "%5C",
      "%09",
      "%0A",
      "%0D",
      "%25",
      "%",
      "\t",
      "\n",
      "\r",
      "\u0000",
      "evil.example",
      "@",
      ":",
      "?",
      "#",
      ".",
      "..",
      "http:",
      "https://",
      "a",
      "licenses",
      " ",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const result = safeRedirect(parts.join(""));
        expect(result.startsWith("/")).toBe(true);
        // The target and every decoded form of it stay on the site, with nothing a browser drops.
        let form = result;
        for (let round = 0; round < 6; round++) {
          expect(new URL(form, SITE).origin).toBe(SITE);
          expect(form.startsWith("//")).toBe(false);
          expect(hasDisallowedCharacters(form) || form.includes("\\")).toBe(false);
          let decoded: string;
          try {
            decoded = decodeURIComponent(form);
          } catch {
            break; // a stray "%" after decoding: nobody decodes it further
          }
          if (decoded === form) break;
          form = decoded;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
