import { describe, expect, it } from "vitest";
import { normalizeShortId, SHORT_ID_PATTERN } from "~/domain/short-id";

describe("normalizeShortId", () => {
  it("keeps a canonical short id", () => {
    expect(normalizeShortId("FK-7Q2M-9XKD")).toBe("FK-7Q2M-9XKD");
  });

  it("forgives case, spaces, missing dashes and prefix", () => {
    expect(normalizeShortId(" fk-7q2m-9xkd ")).toBe("FK-7Q2M-9XKD");
    expect(normalizeShortId("7Q2M9XKD")).toBe("FK-7Q2M-9XKD");
    expect(normalizeShortId("fk 7q2m 9xkd")).toBe("FK-7Q2M-9XKD");
  });

  it("reads the look-alike letters as the digits they stand for", () => {
    expect(normalizeShortId("FK-OI2L-9XKD")).toBe("FK-0121-9XKD");
  });

  it("refuses text that cannot be a short id", () => {
    expect(normalizeShortId("")).toBeNull();
    expect(normalizeShortId("FK-7Q2M-9XK")).toBeNull();
    expect(normalizeShortId("FK-7Q2M-9XKDD")).toBeNull();
    expect(normalizeShortId("FK-7Q2M-9XKU")).toBeNull();
    expect(normalizeShortId("someone@example.com")).toBeNull();
  });

  it("matches only canonical ids", () => {
    expect(SHORT_ID_PATTERN.test("FK-7Q2M-9XKD")).toBe(true);
    expect(SHORT_ID_PATTERN.test("FK-7Q2M-9XKU")).toBe(false);
    expect(SHORT_ID_PATTERN.test("fk-7q2m-9xkd")).toBe(false);
  });
});
