import { describe, expect, it } from "vitest";
import {
  ENTITLEMENT_LABELS,
  ENTITLEMENTS,
  entitlementLabels,
  inTableOrder,
  isEntitlement,
  readEntitlementList,
  type Entitlement,
} from "~/domain/entitlements";
import { entitlementsOf, LICENSE_TYPES, licenseKindRow, PLANS } from "~/domain/plans";

// Each row of the plan table names the entitlements it includes (app/domain/entitlements.ts); answers
// and files read them through entitlementsOf, at the moment they are made.

describe("entitlements in the plan table", () => {
  it("every license type names known entitlements, without repeats, in the table's order", () => {
    for (const type of LICENSE_TYPES) {
      const given = entitlementsOf(type);
      expect(given.length, type).toBeGreaterThan(0);
      expect(given.every(isEntitlement), type).toBe(true);
      expect(new Set(given).size, type).toBe(given.length);
      expect(given, type).toEqual(inTableOrder(licenseKindRow(type).entitlements));
    }
  });

  it("a tester license includes every entitlement there is, and so does a trial", () => {
    expect(entitlementsOf("tester")).toEqual([...ENTITLEMENTS]);
    expect(entitlementsOf("trial")).toEqual([...ENTITLEMENTS]);
  });

  it("every plan includes generation; the yearly plan includes the command line, the shorter plans do not", () => {
    for (const plan of PLANS) expect(entitlementsOf(plan.id), plan.id).toContain("generate");
    expect(entitlementsOf("monthly")).toEqual(["generate", "batch"]);
    expect(entitlementsOf("6_months")).toEqual(["generate", "batch"]);
    expect(entitlementsOf("yearly")).toEqual(["generate", "batch", "cli"]);
  });

  it("a license type the table does not know includes nothing", () => {
    for (const type of ["", "lifetime", "Monthly", "__proto__", "constructor", "toString"]) {
      expect(entitlementsOf(type), type).toEqual([]);
    }
  });

  it("every entitlement has a label, and labels come in the table's order whatever order they are given in", () => {
    for (const entitlement of ENTITLEMENTS) expect(ENTITLEMENT_LABELS[entitlement].length).toBeGreaterThan(0);
    expect(entitlementLabels(["cli", "generate"])).toEqual(["Component generation", "Command-line generation"]);
    expect(entitlementLabels([])).toEqual([]);
  });
});

describe("readEntitlementList (what a request names)", () => {
  it("accepts known names, drops repeats and answers them in the table's order", () => {
    expect(readEntitlementList(["cli", "generate", "cli"])).toEqual({ ok: true, entitlements: ["generate", "cli"] });
    for (const entitlement of ENTITLEMENTS) {
      expect(readEntitlementList([entitlement])).toEqual({ ok: true, entitlements: [entitlement] });
    }
  });

  it("refuses an unknown name, naming it and the known ones", () => {
    for (const name of ["export", "GENERATE", " generate", "", "__proto__"]) {
      const read = readEntitlementList(["generate", name]);
      expect(read.ok, name).toBe(false);
      if (!read.ok) {
        expect(read.unknown).toBe(true);
        expect(read.message).toContain(`"${name}"`);
        expect(read.message).toContain(ENTITLEMENTS.join(", "));
      }
    }
  });

  it("refuses a value that is not a name, and a list that is empty, too long or not a list", () => {
    for (const value of [[1], [null], [["generate"]], [{}], [true]]) {
      const read = readEntitlementList(value);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.message).toContain("not a name");
    }
    const tooMany: Entitlement[] = Array.from({ length: ENTITLEMENTS.length * 4 + 1 }, () => "generate");
    for (const value of [[], "generate", { generate: true }, null, 3, tooMany]) {
      const read = readEntitlementList(value);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read).toMatchObject({ unknown: false, message: expect.stringContaining("must be a list") });
    }
  });
});
