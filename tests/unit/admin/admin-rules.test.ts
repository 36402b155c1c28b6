import { describe, expect, it } from "vitest";
import {
  normalizeSearchTerm,
  parseAdminTab,
  parsePage,
  parseRevokeReason,
  parseTesterDays,
  releaseFormSchema,
  ROLLOUT_FORM_ERROR,
  releaseFormValues,
} from "~/domain/admin";

describe("tester days (1 to 365)", () => {
  it.each([
    ["30", 30],
    ["1", 1],
    ["7", 7],
    [" 90 ", 90],
    ["365", 365],
    [365, 365],
    // Non-numeric entries fall back to 30 (the original rule stays).
    ["", 30],
    ["abc", 30],
    ["3 days", 30],
    [undefined, 30],
    [null, 30],
  ])("%j → %i days", (input, days) => {
    expect(parseTesterDays(input)).toEqual({ days, error: null });
  });

  it.each(["0", "-5", "366", "99999", "2.5", "+400"])("%j is refused with a clear message", (input) => {
    expect(parseTesterDays(input)).toEqual({
      days: null,
      error: "Tester license days must be a whole number from 1 to 365.",
    });
  });
});

describe("revoke reason", () => {
  it("is required and trimmed, at most 500 characters", () => {
    expect(parseRevokeReason("  chargeback fraud ")).toEqual({ reason: "chargeback fraud", error: null });
    expect(parseRevokeReason("   ")).toEqual({ reason: null, error: "Enter the reason for revoking this license." });
    expect(parseRevokeReason(undefined).error).toBe("Enter the reason for revoking this license.");
    expect(parseRevokeReason("x".repeat(501)).error).toBe("Use at most 500 characters for the reason.");
    expect(parseRevokeReason("x".repeat(500)).reason).toHaveLength(500);
  });
});

describe("admin pages and tabs in the URL", () => {
  it("reads a page number, page 1 for anything else", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage(" 2 ")).toBe(2);
    for (const bad of ["0", "-1", "abc", "", null, "1.5", "9999999"]) expect(parsePage(bad)).toBe(1);
    expect(parsePage("999999")).toBe(10_000);
  });

  it("reads a tab, the overview first", () => {
    expect(parseAdminTab("audit")).toBe("audit");
    expect(parseAdminTab("users")).toBe("users");
    expect(parseAdminTab(null)).toBe("overview");
    expect(parseAdminTab("nope")).toBe("overview");
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

describe("release form", () => {
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
      channel: "stable",
      download_url: null,
      publish: false,
      allow_older: false,
      // Decision 0062: blank is everyone, not critical, no minimum.
      rollout_percent: 100,
      critical: false,
      minimum_version: null,
    });
  });

  it("takes a rollout of 0 to 100 and a minimum version no newer than the release (decision 0062)", () => {
    expect(
      releaseFormSchema.parse({ ...valid, rollout_percent: " 10 ", critical: true, minimum_version: "2.4" }),
    ).toMatchObject({ rollout_percent: 10, critical: true, minimum_version: "2.4" });
    expect(releaseFormSchema.parse({ ...valid, minimum_version: "2.5.0" }).minimum_version).toBe("2.5.0");
    for (const rollout_percent of ["101", "-1", "12.5", "half", "1e2"]) {
      const result = releaseFormSchema.safeParse({ ...valid, rollout_percent });
      expect(
        result.error!.issues.map((i) => [i.path[0], i.message]),
        rollout_percent,
      ).toEqual([["rollout_percent", ROLLOUT_FORM_ERROR]]);
    }
    const above = releaseFormSchema.safeParse({ ...valid, minimum_version: "2.5.1" });
    expect(above.error!.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["minimum_version", "The minimum version cannot be above this release's version 2.5.0."],
    ]);
    const invalid = releaseFormSchema.safeParse({ ...valid, minimum_version: "soon" });
    expect(invalid.error!.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["minimum_version", "Enter a minimum version such as 2.4.0, or leave it blank for none."],
    ]);
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
      channel: undefined,
      download_url: "",
      publish: false,
      allow_older: false,
      rollout_percent: "",
      critical: false,
      minimum_version: "",
    });
  });
});
