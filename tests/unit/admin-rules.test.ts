import { describe, expect, it } from "vitest";
import { normalizeSearchTerm, parseTesterDays, releaseFormSchema, releaseFormValues } from "~/domain/admin";

describe("tester days (spec.md section 5)", () => {
  it.each([
    ["30", 30],
    ["1", 1],
    ["7", 7],
    [" 90 ", 90],
    ["2.9", 2],
    ["0", 1],
    ["-5", 1],
    ["999999", 3650],
    ["", 30],
    ["abc", 30],
    ["3 days", 30],
    [undefined, 30],
    [null, 30],
  ])("%j → %i", (input, days) => {
    expect(parseTesterDays(input)).toBe(days);
  });
});

describe("user search term", () => {
  it("is trimmed; a blank term is refused", () => {
    expect(normalizeSearchTerm("  dana ")).toBe("dana");
    expect(normalizeSearchTerm("   ")).toBeNull();
    expect(normalizeSearchTerm("")).toBeNull();
    expect(normalizeSearchTerm(undefined)).toBeNull();
  });
});

describe("release form (spec.md section 5)", () => {
  const valid = {
    version: "2.5.0",
    title: "",
    release_date: "2026-12-01",
    release_notes: ["  First  ", "", "   ", "Second"],
  };

  it("trims notes, drops blank ones, stores a blank title as null", () => {
    expect(releaseFormSchema.parse(valid)).toEqual({
      version: "2.5.0",
      title: null,
      release_date: "2026-12-01",
      release_notes: ["First", "Second"],
      installer_size_bytes: null,
      installer_sha256: null,
    });
  });

  it("requires a version: 'Version is required'", () => {
    const result = releaseFormSchema.safeParse({ ...valid, version: "   " });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual(["Version is required"]);
  });

  it("requires a non-blank note: 'At least one release note is required'", () => {
    const result = releaseFormSchema.safeParse({ ...valid, release_notes: ["", "  "] });
    expect(result.error!.issues.map((i) => i.message)).toEqual(["At least one release note is required"]);
  });

  it("requires a real date", () => {
    expect(releaseFormSchema.safeParse({ ...valid, release_date: "2026-02-30" }).success).toBe(false);
    expect(releaseFormSchema.safeParse({ ...valid, release_date: "" }).success).toBe(false);
  });

  it("reads repeated note fields from a form", () => {
    const form = new FormData();
    form.set("version", "1.0");
    form.append("release_notes", "a");
    form.append("release_notes", "b");
    expect(releaseFormValues(form)).toEqual({
      version: "1.0",
      title: "",
      release_date: "",
      release_notes: ["a", "b"],
      installer_size_bytes: "",
      installer_sha256: "",
    });
  });
});
